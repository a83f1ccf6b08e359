// A rejection no one holds: the PostgreSQL driver's failed connection is logged and the service goes on (its pool
// reconnects); anything else is a bug, logged as fatal, and the process exits 1 as on an uncaught exception.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request, spawnService, startService, tempDataDir, waitForLog } from './process-helper.js';

const ENTRY = 'test/ops/stray-rejection-entry.ts';

test("the driver's stray connection failure is logged as an error, and the service keeps answering", async (t) => {
  const service = await startService(t, tempDataDir(t), { STRAY_REJECTION: 'driver' }, ENTRY);
  const logged = await waitForLog(service, (entry) => String(entry.msg).startsWith('a PostgreSQL connection failed'));
  assert.equal(logged.level, 50);
  assert.equal((logged.err as { code?: string }).code, 'CONNECTION_CLOSED');
  assert.equal((await request(service, { path: '/healthz' })).status, 200);
  assert.equal(service.child.exitCode, null);
});

test('any other unhandled rejection is fatal: logged, and the process exits 1', async (t) => {
  const dataDir = tempDataDir(t);
  const started = spawnService(
    t,
    { PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info', STRAY_REJECTION: 'bug' },
    ENTRY,
  );
  const exit = await started.exited;
  assert.deepEqual(exit, { code: 1, signal: null });
  const fatal = started.stdout.map((line) => JSON.parse(line) as Record<string, unknown>).find((e) => e.level === 60);
  assert.ok(fatal, started.stdout.join('\n'));
  assert.equal(fatal.msg, 'unhandled rejection; exiting');
  assert.match(String((fatal.err as { message?: string }).message), /a bug nobody awaited/);
});
