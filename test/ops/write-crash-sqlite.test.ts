// kill -9 under concurrent writes on SQLite: every acknowledged write survives, nothing is half-applied.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { killUnderConcurrentWrites } from './write-crash-scenario.js';
import { none, sqliteOrphans } from './write-crash-orphans.js';

test('SQLite: kill -9 during concurrent creates, updates and deletes keeps every acknowledged write and no partial one', async (t) => {
  const { service } = await killUnderConcurrentWrites(t);
  // The service holds the database file exclusively: it is read once the service has stopped.
  service.child.kill('SIGTERM');
  assert.deepEqual(await service.exited, { code: 0, signal: null });
  const orphans = sqliteOrphans(service.dataDir);
  assert.deepEqual(
    orphans,
    none(orphans),
    'no link, reference or search row points at a missing item, and every kept count is its number of rows',
  );
});
