// The recorder's policy on its own, over a store that only remembers its calls: batch size, the capped buffer (new
// records dropped and counted), a failed batch counted, the count pruning of the apps written, the token masking.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { noteCaller, maskedUrl } from '../../src/http/request-log-notes.js';
import { RequestRecorder, type RecorderOptions } from '../../src/http/request-recorder.js';
import type { RequestLogBatch } from '../../src/storage/request-log-records.js';
import type { RequestLogEntry, RequestLogStore } from '../../src/storage/request-log-store.js';

class MemoryStore {
  readonly batches: RequestLogEntry[][] = [];
  readonly prunes: Array<{ before: number | undefined; apps: string[]; keep: number; usageBefore?: number }> = [];
  failing = false;

  insertBatch(batch: RequestLogBatch): Promise<void> {
    if (this.failing) return Promise.reject(new Error('the database is down'));
    this.batches.push(batch.entries());
    return Promise.resolve();
  }

  prune(
    before: number | undefined,
    apps: Iterable<{ tenantId: string; clientId: string }>,
    keep: number,
    usageBefore?: number,
  ): Promise<number> {
    const names = [...apps].map((app) => `${app.tenantId}/${app.clientId}`);
    this.prunes.push({ before, apps: names, keep, ...(usageBefore === undefined ? {} : { usageBefore }) });
    return Promise.resolve(0);
  }
}

/** The recorder logs only failures; the tests count them through the metric instead. */
const silent = { error: () => undefined } as unknown as FastifyBaseLogger;

function recorder(store: MemoryStore, options: Partial<RecorderOptions> = {}): RequestRecorder {
  return new RequestRecorder(store as unknown as RequestLogStore, { enabled: true, days: 7, ...options }, silent);
}

let requests = 0;

function apiRequest(tenantId: string, clientId: string, url = '/v2/dogs'): FastifyRequest {
  requests += 1;
  const request = { method: 'GET', originalUrl: url, id: `req-${requests}` } as unknown as FastifyRequest;
  noteCaller(request, { tenantId, clientId });
  return request;
}

test('a full batch is written at once, in one insert', async (t) => {
  const store = new MemoryStore();
  const log = recorder(store, { batchSize: 3, flushMs: 60000 });
  t.after(() => log.close());
  for (let index = 0; index < 3; index += 1) log.record(apiRequest('a', 'app'), 200, 0.5, 2);
  await log.flush();
  assert.deepEqual(
    store.batches.map((batch) => batch.length),
    [3],
  );
  assert.equal((await log.batches.get()).values[0]?.value, 1);
});

test('a full buffer drops new records and counts them; a failed batch is counted too', async () => {
  const store = new MemoryStore();
  const log = recorder(store, { batchSize: 100, capacity: 2, flushMs: 60000 });
  for (let index = 0; index < 5; index += 1) log.record(apiRequest('a', 'app'), 200, 0.5, 2);
  assert.equal((await log.dropped.get()).values[0]?.value, 3);
  store.failing = true;
  await log.flush();
  assert.equal((await log.dropped.get()).values[0]?.value, 5);
  store.failing = false;
  log.record(apiRequest('a', 'app'), 200, 0.5, 2);
  await log.close();
  assert.deepEqual(
    store.batches.map((batch) => batch.length),
    [1],
  );
});

test('a request without a caller (no valid token) is not recorded', async () => {
  const store = new MemoryStore();
  const log = recorder(store);
  log.record({ method: 'GET', originalUrl: '/v2/dogs', id: 'x' } as unknown as FastifyRequest, 401, 0.1, 2);
  await log.close();
  assert.deepEqual(store.batches, []);
});

test('pruning after a flush names the apps written since the last one, at most once per interval', async () => {
  const store = new MemoryStore();
  const log = recorder(store, { days: 3, keepPerApp: 10000, pruneEveryMs: 60000, flushMs: 60000 });
  log.record(apiRequest('a', 'app1'), 200, 0.5, 2);
  log.record(apiRequest('a', 'app1'), 200, 0.5, 2);
  log.record(apiRequest('b', 'app2'), 200, 0.5, 2);
  const before = Date.now();
  await log.flush();
  assert.equal(store.prunes.length, 1);
  const [prune] = store.prunes;
  assert.deepEqual(prune!.apps, ['a/app1', 'b/app2']);
  assert.equal(prune!.keep, 10000);
  assert.ok(Math.abs(prune!.before! - (before - 3 * 24 * 3600 * 1000)) < 5000);
  // The hourly usage counts have their own 31 days, whatever REQUEST_LOG_DAYS is.
  assert.ok(Math.abs(prune!.usageBefore! - (before - 31 * 24 * 3600 * 1000)) < 5000);
  log.record(apiRequest('a', 'app1'), 200, 0.5, 2);
  await log.close();
  assert.equal(store.prunes.length, 1, 'not again within the interval');
});

test('between the intervals, an app that wrote a chunk is pruned by count alone, so no pruning is large', async () => {
  const store = new MemoryStore();
  const log = recorder(store, { keepPerApp: 5, pruneChunk: 3, pruneEveryMs: 60000, flushMs: 60000 });
  log.record(apiRequest('a', 'app1'), 200, 0.5, 2);
  await log.flush();
  assert.equal(store.prunes.length, 1, 'the first flush prunes by age');
  for (let index = 0; index < 3; index += 1) log.record(apiRequest('a', 'app1'), 200, 0.5, 2);
  log.record(apiRequest('b', 'app2'), 200, 0.5, 2);
  await log.flush();
  assert.deepEqual(store.prunes[1], { before: undefined, apps: ['a/app1'], keep: 5 });
  log.record(apiRequest('b', 'app2'), 200, 0.5, 2);
  await log.close();
  assert.equal(store.prunes.length, 2, 'app2 has written 2 of its chunk of 3');
});

test('every spelling of access_token in the query is masked, and nothing else', () => {
  assert.equal(maskedUrl('/v2/dogs'), '/v2/dogs');
  assert.equal(maskedUrl('/v2/dogs?limit=5'), '/v2/dogs?limit=5');
  assert.equal(maskedUrl('/v2/dogs?access_token=abc&x=1'), '/v2/dogs?access_token=***&x=1');
  assert.equal(maskedUrl('/v2/dogs?a=1&access%5Ftoken=abc'), '/v2/dogs?a=1&access%5Ftoken=***');
  assert.equal(maskedUrl('/v2/dogs?ACCESS_TOKEN=abc&access_token'), '/v2/dogs?ACCESS_TOKEN=***&access_token=***');
  assert.equal(maskedUrl('/v2/dogs?my_access_token=abc'), '/v2/dogs?my_access_token=abc');
});
