import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { createStorage } from '../../src/storage/create-storage.js';
import { migrations } from '../../src/storage/sqlite/sqlite-migrations.js';
import { freePort, tempDataDir } from './process-helper.js';

test('without DATABASE_URL the storage is SQLite in DATA_DIR/registry.sqlite, in WAL mode, owned by one process', async (t) => {
  const dataDir = path.join(tempDataDir(t), 'not-yet-created');
  const storage = await createStorage({ dataDir });
  assert.equal(storage.kind, 'sqlite');
  await storage.ping();

  const file = path.join(dataDir, 'registry.sqlite');
  assert.ok(fs.existsSync(file), 'the database file is created under DATA_DIR');
  const intruder = new Database(file, { timeout: 50 });
  t.after(() => intruder.close());
  assert.throws(
    () => intruder.prepare('SELECT count(*) FROM dogs').get(),
    /locked|busy/i,
    'a second process is kept out while the service runs',
  );
  await storage.close();
  const db = new Database(file, { readonly: true });
  t.after(() => db.close());
  assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
});

test('migrations run on start and running them again on the same DATA_DIR changes nothing', async (t) => {
  const dataDir = tempDataDir(t);
  const first = await createStorage({ dataDir });
  await first.close();
  const second = await createStorage({ dataDir });
  await second.ping();
  await second.close();

  const db = new Database(path.join(dataDir, 'registry.sqlite'), { readonly: true });
  t.after(() => db.close());
  const applied = db.prepare('SELECT version FROM schema_migrations ORDER BY version').all() as Array<{
    version: number;
  }>;
  assert.deepEqual(
    applied.map((row) => row.version),
    migrations.map((migration) => migration.version),
  );
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'dogs'").all();
  assert.equal(tables.length, 1);
});

test('a DATABASE_URL whose PostgreSQL cannot be reached fails with a clear message, without the password, before anything is written', async (t) => {
  const dataDir = path.join(tempDataDir(t), 'untouched');
  const port = await freePort();
  await assert.rejects(
    createStorage({ dataDir, databaseUrl: `postgres://registry:s3cret-word@127.0.0.1:${port}/registry` }),
    (error: unknown) => {
      assert.ok(error instanceof Error);
      assert.match(error.message, /DATABASE_URL/);
      assert.match(
        error.message,
        new RegExp(`PostgreSQL database at postgres://registry:\\*\\*\\*@127\\.0\\.0\\.1:${port}/registry`),
      );
      assert.match(error.message, /ECONNREFUSED/);
      assert.match(error.message, /unset DATABASE_URL/);
      assert.doesNotMatch(error.message, /s3cret-word/);
      return true;
    },
  );
  assert.equal(fs.existsSync(dataDir), false);
});
