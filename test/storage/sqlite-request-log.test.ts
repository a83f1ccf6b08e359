// The request log's packed layout on SQLite: a flush is one row per app, seqs run on across rows, pages and pruning
// cross row boundaries exactly as with one row per request.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestLogEntry } from '../../src/storage/request-log-store.js';
import { tenantScope } from '../../src/storage/storage.js';
import { SqliteStorage } from '../../src/storage/sqlite/sqlite-storage.js';
import { databaseOf } from './sqlite-schema.js';
import { batchOf } from '../../src/storage/request-log-records.js';

const NOW = Date.UTC(2026, 10, 25, 12, 30);
const scope = tenantScope('tenant-a');

function entry(requestId: string, fields: Partial<RequestLogEntry> = {}): RequestLogEntry {
  const base = { tenantId: 'tenant-a', clientId: 'app-1', time: NOW, method: 'GET', path: '/v2/dogs', version: 2 };
  return { ...base, status: 200, code: null, message: null, durationMs: 0.5, requestId, ...fields };
}

async function open(t: TestContext): Promise<SqliteStorage> {
  const storage = new SqliteStorage(':memory:');
  await storage.migrate();
  t.after(() => storage.close());
  return storage;
}

function rows(storage: SqliteStorage): unknown[] {
  return databaseOf(storage)
    .prepare(
      'SELECT client_id, first_seq, count, first_time, last_time, count_2xx, count_3xx, count_4xx, count_5xx ' +
        'FROM request_log ORDER BY client_id, first_seq',
    )
    .raw()
    .all();
}

test('a flush is one row per app, with its seq range, time range and per-class counts', async (t) => {
  const storage = await open(t);
  const statuses = [200, 404, 201, 500, 304];
  await storage.requestLog.insertBatch(
    batchOf([
      ...statuses.map((status, index) => entry(`a${index}`, { status, time: NOW + index })),
      entry('b0', { clientId: 'app-2', status: 401 }),
    ]),
  );
  await storage.requestLog.insertBatch(batchOf([entry('a5', { time: NOW + 9 })]));
  assert.deepEqual(rows(storage), [
    ['app-1', 1, 5, NOW, NOW + 4, 2, 1, 1, 1],
    ['app-1', 6, 1, NOW + 9, NOW + 9, 1, 0, 0, 0],
    ['app-2', 1, 1, NOW, NOW, 0, 0, 1, 0],
  ]);
  const page = await storage.requestLog.list(scope, { clientId: 'app-1', limit: 2, before: 6 });
  assert.deepEqual(
    page.entries.map((each) => [each.seq, each.requestId]),
    [
      [5, 'a4'],
      [4, 'a3'],
    ],
  );
  assert.equal(page.next, 4);
  const byId = (requestId: string) => storage.requestLog.list(scope, { clientId: 'app-1', requestId, limit: 1 });
  assert.deepEqual(
    (await byId('a5')).entries.map((each) => each.seq),
    [6],
  );
  // 'a' is in every packed id ('a0' …): the bytes' match is only where to look, the id must be equal.
  assert.deepEqual((await byId('a')).entries, []);
});

test('pruning drops whole rows and trims the one across the cut, by count and by age', async (t) => {
  const storage = await open(t);
  const log = storage.requestLog;
  for (let batch = 0; batch < 3; batch++) {
    await log.insertBatch(
      batchOf(Array.from({ length: 4 }, (_, i) => entry(`r${batch * 4 + i}`, { time: NOW + batch * 4 + i }))),
    );
  }
  const app = [{ tenantId: 'tenant-a', clientId: 'app-1' }];
  assert.equal(await log.prune(undefined, app, 6), 6);
  assert.deepEqual(rows(storage), [
    ['app-1', 7, 2, NOW + 6, NOW + 7, 2, 0, 0, 0],
    ['app-1', 9, 4, NOW + 8, NOW + 11, 4, 0, 0, 0],
  ]);
  assert.equal(await log.prune(NOW + 10, app, 100), 4);
  assert.deepEqual(rows(storage), [['app-1', 11, 2, NOW + 10, NOW + 11, 2, 0, 0, 0]]);
  const kept = await log.list(scope, { clientId: 'app-1', limit: 10 });
  assert.deepEqual(
    kept.entries.map((each) => [each.seq, each.requestId]),
    [
      [12, 'r11'],
      [11, 'r10'],
    ],
  );
  // The seqs go on after the last, even once older rows went.
  await log.insertBatch(batchOf([entry('r12')]));
  const [r12] = (await log.list(scope, { clientId: 'app-1', requestId: 'r12', limit: 1 })).entries;
  assert.equal(r12?.seq, 13);
});
