import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { GroupCommit } from '../../src/storage/sqlite/group-commit.js';

function database(t: TestContext): Database.Database {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE names (name TEXT PRIMARY KEY)');
  t.after(() => db.close());
  return db;
}

function names(db: Database.Database): string[] {
  return db.prepare('SELECT name FROM names ORDER BY name').pluck().all() as string[];
}

test('writes queued in one turn commit together, and each is answered only after the COMMIT', async (t) => {
  const db = database(t);
  const writes = new GroupCommit(db);
  const insert = db.prepare('INSERT INTO names (name) VALUES (?)');
  const seenOpen: boolean[] = [];
  const answers = await Promise.all(
    ['a', 'b', 'c'].map((name) =>
      writes
        .run(() => {
          seenOpen.push(db.inTransaction);
          insert.run(name);
          return name.toUpperCase();
        })
        .then((value) => {
          assert.equal(db.inTransaction, false, 'answered after the commit');
          return value;
        }),
    ),
  );
  assert.deepEqual(answers, ['A', 'B', 'C']);
  assert.deepEqual(seenOpen, [true, true, true]);
  assert.deepEqual(names(db), ['a', 'b', 'c']);
});

test('a write that fails half-way rolls back alone: the others of its batch commit once, its error reaches its caller', async (t) => {
  const db = database(t);
  const writes = new GroupCommit(db);
  const insert = db.prepare('INSERT INTO names (name) VALUES (?)');
  const failing = writes.run(() => {
    insert.run('half-done');
    throw new Error('the reference is missing');
  });
  // Each of these would violate the primary key if a first run's insert were kept.
  const good = ['x', 'y'].map((name) => writes.run(() => insert.run(name).changes));
  await assert.rejects(failing, /the reference is missing/);
  assert.deepEqual(await Promise.all(good), [1, 1]);
  assert.deepEqual(names(db), ['x', 'y']);
});

test('every failing write of a batch gets its own error, and only the others are kept', async (t) => {
  const db = database(t);
  const writes = new GroupCommit(db);
  const insert = db.prepare('INSERT INTO names (name) VALUES (?)');
  db.exec(
    "CREATE TRIGGER no_z BEFORE INSERT ON names WHEN NEW.name LIKE 'z%' BEGIN SELECT RAISE(ABORT, 'refused'); END",
  );
  const results = await Promise.allSettled(['z1', 'p', 'z2'].map((name) => writes.run(() => insert.run(name))));
  assert.deepEqual(
    results.map((result) => result.status),
    ['rejected', 'fulfilled', 'rejected'],
  );
  for (const index of [0, 2]) assert.match(String((results[index] as PromiseRejectedResult).reason), /refused/);
  assert.deepEqual(names(db), ['p']);
});
