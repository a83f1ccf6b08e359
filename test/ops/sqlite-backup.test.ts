// The SQLite backup of docs/deployment.md: refused while the service runs, whole after a clean stop, and restorable.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { dogs } from '../../src/resources/dogs.js';
import { SqliteStorage } from '../../src/storage/sqlite/sqlite-storage.js';
import type { TenantScope } from '../../src/storage/storage.js';
import { tempDataDir } from './process-helper.js';

const scope: TenantScope = { kind: 'tenant', tenantId: 'tenant-a' };

test('no backup while the service runs; after a clean stop the backup holds every write and restores', async (t) => {
  const dataDir = tempDataDir(t);
  const file = path.join(dataDir, 'registry.sqlite');
  const storage = new SqliteStorage(dataDir);
  await storage.migrate();
  const rex = await storage.create(dogs, scope, { name: 'Rex', location: 'Tromsø' });

  // While the service runs, its exclusive lock keeps other processes out: SQLite's online backup copies nothing
  // (better-sqlite3 even reports success, with 0 pages; the sqlite3 shell says "database is locked"), and leaves at
  // most an empty file behind. Hence the doc: stop the service first.
  const early = new Database(file, { timeout: 50 });
  t.after(() => early.close());
  const earlyCopy = path.join(dataDir, 'early.sqlite');
  const progress = await early.backup(earlyCopy).catch((error: Error) => error);
  assert.ok(progress instanceof Error ? /locked|busy/i.test(progress.message) : progress.totalPages === 0);
  if (fs.existsSync(earlyCopy)) {
    const empty = new Database(earlyCopy, { readonly: true });
    assert.deepEqual(empty.prepare('SELECT name FROM sqlite_master').all(), []);
    empty.close();
  }

  // SIGTERM closes the storage: the WAL is checkpointed, and the backup API (sqlite3 .backup) copies a whole database.
  await storage.close();
  const backup = path.join(tempDataDir(t), 'registry-backup.sqlite');
  const source = new Database(file, { readonly: true });
  await source.backup(backup);
  source.close();

  // The restore drill: a fresh DATA_DIR with only the backup in it.
  const restoredDir = tempDataDir(t);
  fs.copyFileSync(backup, path.join(restoredDir, 'registry.sqlite'));
  // What the sqlite3 shell can run (quick_check); integrity_check also reads the filter indexes, which need the
  // service's ci() function.
  const check = new Database(path.join(restoredDir, 'registry.sqlite'), { readonly: true });
  assert.equal(check.pragma('quick_check', { simple: true }), 'ok');
  assert.throws(() => check.pragma('integrity_check'), /unknown function: ci\(\)/);
  check.function('ci', { deterministic: true }, (value: unknown) =>
    typeof value === 'string' ? value.toLowerCase() : value,
  );
  assert.equal(check.pragma('integrity_check', { simple: true }), 'ok');
  check.close();
  const restored = new SqliteStorage(restoredDir);
  t.after(() => restored.close());
  await restored.migrate();
  assert.deepEqual(await restored.get(dogs, scope, rex.id!), rex);
});
