// The real process on SIGTERM, on SQLite: it stops accepting, finishes the requests in flight, closes the database,
// exits 0.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { assertStored, sigtermWithRequestsInFlight } from './shutdown-scenario.js';

test('SIGTERM stops accepting, lets the requests in flight finish, closes the database and exits 0', async (t) => {
  const outcome = await sigtermWithRequestsInFlight(t);
  const dataDir = outcome.service.dataDir;
  // SQLite folds the WAL back into the database and removes it only when the last connection closes cleanly.
  assert.ok(fs.existsSync(path.join(dataDir, 'registry.sqlite')));
  assert.equal(fs.existsSync(path.join(dataDir, 'registry.sqlite-wal')), false, 'the database was closed');
  await assertStored(t, dataDir, {}, outcome);
});
