// Writes that commit on their own, made in the same event-loop turn, commit in one transaction
// (storage/postgres/group-commit.ts); each caller is answered once COMMIT has, and only a bad call fails.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { dogs } from '../../src/resources/dogs.js';
import { owners } from '../../src/resources/owners.js';
import { Connection } from '../../src/storage/postgres/connection.js';
import type { PostgresStorage } from '../../src/storage/postgres/postgres-storage.js';
import { MissingReferences, StorageError } from '../../src/storage/storage-error.js';
import { tenantScope } from '../../src/storage/storage.js';
import { createDatabase, postgresStorageFor, skipWithoutPostgres } from './databases.js';

const skip = skipWithoutPostgres;
const ann = tenantScope('tenant-ann');
const bob = tenantScope('tenant-bob');

function groupsOf(storage: PostgresStorage): number {
  return (storage as unknown as { db: Connection }).db.commits.groups;
}

/** A connection of its own on a fresh database, and a table whose key is checked at COMMIT. */
async function deferredTable(t: TestContext): Promise<Connection> {
  const database = await createDatabase();
  const connection = new Connection(database.url, { poolSize: 2 });
  t.after(async () => {
    await connection.close();
    await database.drop();
  });
  await connection.run('CREATE TABLE t (id int PRIMARY KEY DEFERRABLE INITIALLY DEFERRED)', []);
  return connection;
}

test(
  "concurrent creates of two tenants commit as one transaction, each with its own item, and each tenant's count is right",
  { skip },
  async (t) => {
    const storage = await postgresStorageFor(t);
    const groups = groupsOf(storage);
    const statements = storage.queryCount;
    const created = await Promise.all([
      ...Array.from({ length: 10 }, (_, n) => storage.create(dogs, ann, { name: `Ann ${n}`, furColor: 'brown' })),
      ...Array.from({ length: 4 }, (_, n) => storage.create(dogs, bob, { name: `Bob ${n}`, furColor: 'black' })),
      storage.create(owners, ann, { name: 'Ann' }),
    ]);
    assert.equal(groupsOf(storage) - groups, 1);
    // The 14 dogs are one statement (each parameter an array of their values), the owner another.
    assert.equal(storage.queryCount - statements, 2);
    assert.equal(new Set(created.map((item) => item.id)).size, 15);
    // One transaction wrote every row: they share their inserting transaction's id.
    const db = (storage as unknown as { db: Connection }).db;
    const [[writers]] = await db.rows<[string]>(
      'SELECT count(DISTINCT xmin::text) FROM (SELECT xmin FROM dogs UNION ALL SELECT xmin FROM owners) w',
      [],
    );
    assert.equal(Number(writers), 1);
    for (const [index, item] of created.entries()) {
      const scope = index >= 10 && index < 14 ? bob : ann;
      const def = index === 14 ? owners : dogs;
      assert.deepEqual(await storage.get(def, scope, item.id!), item);
    }
    assert.equal(await storage.count(dogs, ann, { filters: [] }), 10);
    assert.equal(await storage.count(dogs, bob, { filters: [] }), 4);
    assert.equal(await storage.count(owners, ann, { filters: [] }), 1);
    // Created in the calls' order, and searchable at once: each dog's keys were written in the same statement.
    const page = await storage.list(dogs, ann, { filters: [], limit: 10, offset: 0 });
    assert.deepEqual(
      page.items.map((dog) => dog.name),
      Array.from({ length: 10 }, (_, n) => `Ann ${n}`),
    );
    const found = await storage.list(dogs, bob, { filters: [], q: 'bob', limit: 10, offset: 0 });
    assert.deepEqual(
      found.items.map((dog) => dog.name),
      ['Bob 0', 'Bob 1', 'Bob 2', 'Bob 3'],
    );
    const brown = await storage.list(dogs, ann, { filters: [], q: 'ann 7 brown', limit: 10, offset: 0 });
    assert.deepEqual(
      brown.items.map((dog) => dog.name),
      ['Ann 7'],
    );
  },
);

test("a turn's access tokens are one INSERT, each found again as it was saved", { skip }, async (t) => {
  const storage = await postgresStorageFor(t);
  const tokens = Array.from({ length: 6 }, (_, n) => ({
    tokenHash: `hash-${n}`,
    tenantId: n % 2 === 0 ? 'tenant-ann' : 'tenant-bob',
    clientId: `client-${n}`,
    scopes: n === 0 ? ['dogs:read'] : ['dogs:read', 'dogs:write'],
    issuedAt: 1_800_000_000 + n,
    expiresAt: 1_800_003_600 + n,
    revoked: false,
    ...(n === 4 ? { chainId: 'chain-4' } : {}),
  }));
  // A token whose app is gone counts as revoked: each token's app exists.
  for (const { clientId, tenantId } of tokens)
    await storage.grants.createClient({
      id: clientId,
      tenantId,
      name: clientId,
      secretHash: '',
      scopes: ['read'],
      type: 'public',
      redirectUris: [],
    });
  // The first save also sweeps expired tokens (a DELETE of its own, now and then).
  await storage.auth.saveToken(tokens[5]!);
  const statements = storage.queryCount;
  await Promise.all(tokens.slice(0, 5).map((token) => storage.auth.saveToken(token)));
  assert.equal(storage.queryCount - statements, 1);
  for (const { chainId: _chain, ...token } of tokens)
    assert.deepEqual(await storage.auth.findToken(token.tokenHash), token);
  // The chain (code flow) is no part of a found token; it is kept for revoking the chain.
  const db = (storage as unknown as { db: Connection }).db;
  const chains = await db.rows('SELECT token_hash, chain_id FROM access_tokens WHERE chain_id IS NOT NULL', []);
  assert.deepEqual([...chains], [['hash-4', 'chain-4']]);
});

test('a create alone is sent alone, without a transaction around it', { skip }, async (t) => {
  const storage = await postgresStorageFor(t);
  const groups = groupsOf(storage);
  const statements = storage.queryCount;
  await storage.create(dogs, ann, { name: 'Solo' });
  assert.equal(groupsOf(storage) - groups, 0);
  assert.equal(storage.queryCount - statements, 1);
});

test("a create whose owner is missing fails alone; the group's other creates are committed", { skip }, async (t) => {
  const storage = await postgresStorageFor(t);
  const owner = await storage.create(owners, ann, { name: 'Ann' });
  const groups = groupsOf(storage);
  const settled = await Promise.allSettled([
    storage.create(dogs, ann, { name: 'Kept 1', ownerId: owner.id }),
    storage.create(dogs, ann, { name: 'Refused', ownerId: 'no-such-owner' }),
    storage.create(dogs, ann, { name: 'Kept 2' }),
  ]);
  assert.equal(groupsOf(storage) - groups, 1);
  assert.deepEqual(
    settled.map((outcome) => outcome.status),
    ['fulfilled', 'rejected', 'fulfilled'],
  );
  const refused = (settled[1] as PromiseRejectedResult).reason as MissingReferences;
  assert.ok(refused instanceof MissingReferences);
  assert.deepEqual(refused.ids, ['no-such-owner']);
  const page = await storage.list(dogs, ann, { filters: [], limit: 10, offset: 0 });
  assert.deepEqual(page.items.map((dog) => dog.name).sort(), ['Kept 1', 'Kept 2']);
  assert.equal(await storage.count(dogs, ann, { filters: [] }), 2);
});

test('callers are answered only once COMMIT has: a failure at COMMIT runs each write alone', { skip }, async (t) => {
  const connection = await deferredTable(t);
  // The key is checked at COMMIT, so every statement of the group succeeds and its COMMIT fails: a caller answered
  // at its statement would have been told its row was written.
  const settled = await Promise.allSettled([
    connection.commitRun('INSERT INTO t VALUES ($1)', [1]),
    connection.commitRun('INSERT INTO t VALUES ($1)', [2]),
    connection.commitRun('INSERT INTO t VALUES ($1)', [1]),
  ]);
  assert.equal(connection.commits.groups, 1);
  assert.deepEqual(
    settled.map((outcome) => outcome.status),
    ['fulfilled', 'fulfilled', 'rejected'],
  );
  assert.equal((settled[0] as PromiseFulfilledResult<number>).value, 1);
  assert.match(String((settled[2] as PromiseRejectedResult).reason), /duplicate key/);
  assert.deepEqual([...(await connection.rows('SELECT id FROM t ORDER BY id', []))], [[1], [2]]);
});

test('a group whose statement fails rolls back, and each write runs again alone', { skip }, async (t) => {
  const connection = await deferredTable(t);
  const settled = await Promise.allSettled([
    connection.commitRows('INSERT INTO t VALUES ($1) RETURNING id', [5]),
    connection.commitRows('INSERT INTO t VALUES ($1::int) RETURNING id', ['not a number']),
    connection.commitRows('INSERT INTO t VALUES ($1) RETURNING id', [6]),
  ]);
  assert.deepEqual(
    settled.map((outcome) => (outcome.status === 'fulfilled' ? [...outcome.value] : 'failed')),
    [[[5]], 'failed', [[6]]],
  );
  assert.deepEqual([...(await connection.rows('SELECT id FROM t ORDER BY id', []))], [[5], [6]]);
});

test('writes of one batchable text are one statement; if it fails, each runs alone', { skip }, async (t) => {
  const connection = await deferredTable(t);
  const batched = 'INSERT INTO t SELECT unnest($1::int[])';
  const before = connection.queryCount;
  await Promise.all([1, 2, 3].map((id) => connection.commitBatchable('INSERT INTO t VALUES ($1)', [id], batched)));
  assert.equal(connection.queryCount - before, 1);
  // A batched statement that fails (here: always) is no caller's failure: each write runs alone, the bad one fails.
  const failing = 'INSERT INTO t SELECT unnest($1::int[]) / 0';
  const settled = await Promise.allSettled(
    [4, 1, 5].map((id) => connection.commitBatchable('INSERT INTO t VALUES ($1)', [id], failing)),
  );
  assert.deepEqual(
    settled.map((outcome) => outcome.status),
    ['fulfilled', 'rejected', 'fulfilled'],
  );
  assert.match(String((settled[1] as PromiseRejectedResult).reason), /duplicate key/);
  assert.deepEqual([...(await connection.rows('SELECT id FROM t ORDER BY id', []))], [[1], [2], [3], [4], [5]]);
  // Alone, a batchable write is sent as it is.
  const alone = connection.queryCount;
  await connection.commitBatchable('INSERT INTO t VALUES ($1)', [6], failing);
  assert.equal(connection.queryCount - alone, 1);
});

test('a group on a closed database fails every write as unavailable, and none runs again', { skip }, async (t) => {
  const database = await createDatabase();
  t.after(() => database.drop());
  const connection = new Connection(database.url, { poolSize: 2 });
  await connection.close();
  const settled = await Promise.allSettled([
    connection.commitRun('SELECT 1', []),
    connection.commitRun('SELECT 2', []),
  ]);
  assert.equal(connection.commits.groups, 1);
  for (const outcome of settled) {
    assert.equal(outcome.status, 'rejected');
    const reason = (outcome as PromiseRejectedResult).reason as StorageError;
    assert.ok(reason instanceof StorageError);
    assert.equal(reason.kind, 'unavailable');
  }
  assert.equal(connection.queryCount, 0);
});
