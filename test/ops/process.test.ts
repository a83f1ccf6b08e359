// The real process: start-up log, JSON request logs, durability across kill -9, migrations on restart.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { migrations } from '../../src/storage/sqlite/sqlite-migrations.js';
import { eventually, parseLine, request, startService, tempDataDir, waitForLog, authorize } from './process-helper.js';

test('the service logs JSON lines: where the API and portal are on start, and each request with its reqId', async (t) => {
  const service = await startService(t, tempDataDir(t));
  const ready = await waitForLog(
    service,
    (entry) => typeof entry.msg === 'string' && entry.msg.startsWith('Dog Registry Service ready'),
  );
  const base = `http://localhost:${service.port}`;
  assert.equal(ready.api, base);
  assert.equal(ready.portal, `${base}/portal`);
  assert.match(String(ready.msg), new RegExp(`API at ${base}/v2.*portal at ${base}/portal`));

  const auth = await authorize(service);
  const response = await request(service, { path: '/v1/dogs', headers: { ...auth, 'x-request-id': 'log-check-1' } });
  assert.equal(response.status, 200);
  const completed = await waitForLog(
    service,
    (entry) => entry.reqId === 'log-check-1' && entry.msg === 'request completed',
  );
  assert.equal((completed.res as { statusCode: number }).statusCode, 200);
  assert.equal(completed.level, 30);

  for (const line of service.stdout) {
    const entry = parseLine(line);
    assert.equal(typeof entry.level, 'number', line);
    assert.equal(typeof entry.time, 'number', line);
    assert.equal(typeof entry.msg, 'string', line);
  }
  assert.equal(service.stderr(), '');
});

test('a write that got a 2xx survives kill -9, and the next start migrates the same DATA_DIR again without harm', async (t) => {
  const dataDir = tempDataDir(t);
  const first = await startService(t, dataDir);
  const auth = await authorize(first);
  const created = await request(first, {
    method: 'POST',
    path: '/v1/dogs',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Rex', furColor: 'brown', location: 'Tromsø', state: 'adoptable' }),
  });
  assert.equal(created.status, 200);
  first.child.kill('SIGKILL');
  assert.deepEqual(await first.exited, { code: null, signal: 'SIGKILL' });
  const dog = JSON.parse(created.body).dog as Record<string, unknown>;

  // The committed write sits in the write-ahead log beside the database, both under DATA_DIR.
  assert.ok(fs.existsSync(path.join(dataDir, 'registry.sqlite')));
  assert.ok(fs.existsSync(path.join(dataDir, 'registry.sqlite-wal')));

  const second = await startService(t, dataDir);
  const read = await request(second, { path: `/v1/dogs/${String(dog.id)}`, headers: auth });
  assert.equal(read.status, 200);
  assert.deepEqual(JSON.parse(read.body).dog, dog);
  const found = await request(second, { path: '/v1/dogs?q=tromso', headers: auth });
  assert.deepEqual(JSON.parse(found.body).dogs, [{ dog }], 'the search index survived too');

  second.child.kill('SIGTERM');
  await eventually('the second process exiting', async () => second.child.exitCode !== null);
  assert.equal(second.child.exitCode, 0);
  const db = new Database(path.join(dataDir, 'registry.sqlite'), { readonly: true });
  t.after(() => db.close());
  assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
  const applied = db.prepare('SELECT version FROM schema_migrations ORDER BY version').all() as Array<{
    version: number;
  }>;
  assert.deepEqual(
    applied.map((row) => row.version),
    migrations.map((migration) => migration.version),
  );
});
