// The request log's recorder in the app: what one API request leaves in the log once flushed, whose log it is, batches
// (request_log_batches_total), REQUEST_LOG=off, and pruning by REQUEST_LOG_DAYS after a flush.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build, newAccount, type TestApp } from '../helper.js';
import { DAY_MS, type StoredRequest } from '../../src/storage/request-log-store.js';
import { tenantScope } from '../../src/storage/storage.js';
import { batchOf } from '../../src/storage/request-log-records.js';

/** The value of one sample line of /metrics. */
async function sample(api: TestApp, series: string): Promise<number | undefined> {
  const response = await api.request({ url: '/metrics', token: null });
  assert.equal(response.statusCode, 200);
  const line = response.body.split('\n').find((entry) => entry.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** The account's log of its app, newest first, after a flush. */
async function logged(api: TestApp, tenantId = api.credentials.tenantId, clientId = api.credentials.clientId) {
  await api.app.requestRecorder.flush();
  const page = await api.storage.requestLog.list(tenantScope(tenantId), { clientId, limit: 100 });
  return page.entries;
}

function byId(entries: StoredRequest[], requestId: unknown): StoredRequest {
  const found = entries.find((entry) => entry.requestId === requestId);
  assert.ok(found, `request ${String(requestId)} is in the log`);
  return found;
}

test('a request is logged for its account and app: masked token, version, status, code, message, duration', async (t) => {
  const api = await build(t);
  const { token, tenantId, clientId } = api.credentials;
  const listed = await api.request({ url: `/v2/dogs?limit=5&access_token=${token}&q=rex`, token: null });
  assert.equal(listed.statusCode, 200);
  const missing = await api.request({ url: '/v1/dogs/no-such-dog' });
  assert.equal(missing.statusCode, 404);
  const invalid = await api.request({ method: 'POST', url: '/v2/dogs', json: {} });
  assert.equal(invalid.statusCode, 400);

  const entries = await logged(api);
  assert.equal(entries.length, 3);
  assert.deepEqual(
    entries.map((entry) => entry.requestId),
    [invalid, missing, listed].map((response) => response.headers['x-request-id']),
  );
  const list = byId(entries, listed.headers['x-request-id']);
  assert.equal(list.path, '/v2/dogs?limit=5&access_token=***&q=rex');
  assert.ok(!JSON.stringify(entries).includes(token), 'the token is nowhere in the log');
  assert.deepEqual(
    { ...list, seq: 0, time: 0, durationMs: 0 },
    { ...list, seq: 0, time: 0, durationMs: 0, tenantId, clientId, method: 'GET', version: 2, status: 200, code: null },
  );
  assert.equal(list.message, null);
  assert.ok(list.durationMs > 0 && list.durationMs < 10000, `duration ${list.durationMs} ms`);
  assert.ok(Math.abs(list.time - Date.now()) < 60000);

  const notFound = byId(entries, missing.headers['x-request-id']);
  const body = JSON.parse(missing.body) as { code: number; message: string };
  assert.deepEqual(
    [notFound.method, notFound.path, notFound.version, notFound.status, notFound.code, notFound.message],
    ['GET', '/v1/dogs/no-such-dog', 1, 404, body.code, body.message],
  );
  const refused = byId(entries, invalid.headers['x-request-id']);
  assert.deepEqual(
    [refused.method, refused.status, refused.code],
    ['POST', 400, (JSON.parse(invalid.body) as { code: number }).code],
  );
});

test('a path longer than 2,000 characters is logged cut, with an ellipsis', async (t) => {
  const api = await build(t);
  const long = await api.request({ url: `/v2/dogs?q=${'rex'.repeat(60)}&fields=${'name,'.repeat(800)}name` });
  const entry = byId(await logged(api), long.headers['x-request-id']);
  assert.equal([...entry.path].length, 2001);
  assert.ok(entry.path.startsWith(`/v2/dogs?q=${'rex'.repeat(60)}&fields=name,name,`));
  assert.ok(entry.path.endsWith('…'));
});

test("another account's requests are logged for it only, and never read through the first account", async (t) => {
  const api = await build(t);
  const other = await newAccount(api.app, api.storage);
  const mine = await api.request({ url: '/v2/dogs' });
  const theirs = await api.request({ url: '/v2/owners', token: other.token });
  assert.equal(theirs.statusCode, 200);

  const myLog = await logged(api);
  assert.deepEqual(
    myLog.map((entry) => entry.requestId),
    [mine.headers['x-request-id']],
  );
  const theirLog = await logged(api, other.tenantId, other.clientId);
  assert.deepEqual(
    theirLog.map((entry) => [entry.requestId, entry.path]),
    [[theirs.headers['x-request-id'], '/v2/owners']],
  );
  // Their app's id with my account, or their request id with my account: nothing.
  const scope = tenantScope(api.credentials.tenantId);
  assert.deepEqual((await api.storage.requestLog.list(scope, { clientId: other.clientId, limit: 10 })).entries, []);
  const theirId = String(theirs.headers['x-request-id']);
  const byId = await api.storage.requestLog.list(scope, { clientId: other.clientId, requestId: theirId, limit: 1 });
  assert.deepEqual(byId.entries, []);
});

test('requests without a valid token are not logged; a refused scope or a suppressed error is, with its status', async (t) => {
  const api = await build(t);
  assert.equal((await api.request({ url: '/v2/dogs', token: null })).statusCode, 401);
  assert.equal((await api.request({ url: '/v2/dogs', token: 'not-a-token' })).statusCode, 401);
  assert.equal((await api.request({ url: '/v2/adoptions', token: null })).statusCode, 200);
  const suppressed = await api.request({ url: '/v2/dogs/none?suppress_response_codes=true' });
  assert.equal(suppressed.statusCode, 200);
  const reader = await newAccount(api.app, api.storage, ['read']);
  const write = await api.request({ method: 'POST', url: '/v2/dogs', json: { name: 'Rex' }, token: reader.token });
  assert.equal(write.statusCode, 403);

  const entries = await logged(api);
  assert.deepEqual(
    entries.map((entry) => [entry.requestId, entry.status, entry.code]),
    [[suppressed.headers['x-request-id'], 404, (JSON.parse(suppressed.body) as { code: number }).code]],
  );
  const refused = await logged(api, reader.tenantId, reader.clientId);
  assert.deepEqual(
    refused.map((entry) => [entry.requestId, entry.status, entry.code]),
    [[write.headers['x-request-id'], 403, (JSON.parse(write.body) as { code: number }).code]],
  );
});

test('many requests are written in few batches: request_log_batches_total counts them', async (t) => {
  const api = await build(t);
  assert.equal(await sample(api, 'request_log_batches_total'), 0);
  const started = Date.now();
  for (let index = 0; index < 40; index += 1) assert.equal((await api.request({ url: '/v2/dogs' })).statusCode, 200);
  // The recorder also writes once a second (flushMs): each second the requests took may have split them once more.
  const ticks = Math.floor((Date.now() - started) / 1000) + 1;
  assert.equal((await logged(api)).length, 40);
  const batches = Number(await sample(api, 'request_log_batches_total'));
  assert.ok(batches >= 1 && batches <= 1 + ticks, `40 requests in ${batches} batches (at most ${1 + ticks})`);
  assert.equal(await sample(api, 'request_log_dropped_total'), 0);
});

test('REQUEST_LOG=off records nothing and writes no batch', async (t) => {
  const api = await build(t, { REQUEST_LOG: 'off' });
  for (let index = 0; index < 5; index += 1) assert.equal((await api.request({ url: '/v2/dogs' })).statusCode, 200);
  assert.deepEqual(await logged(api), []);
  assert.equal(await sample(api, 'request_log_batches_total'), 0);
});

test('a flush prunes entries older than REQUEST_LOG_DAYS', async (t) => {
  const api = await build(t, { REQUEST_LOG_DAYS: '2' });
  const { tenantId, clientId } = api.credentials;
  const base = { tenantId, clientId, method: 'GET', path: '/v2/dogs', version: 2, status: 200, code: null };
  await api.storage.requestLog.insertBatch(
    batchOf([
      { ...base, message: null, durationMs: 1, requestId: 'three days old', time: Date.now() - 3 * DAY_MS },
      { ...base, message: null, durationMs: 1, requestId: 'one day old', time: Date.now() - DAY_MS },
    ]),
  );
  const fresh = await api.request({ url: '/v2/dogs' });
  assert.deepEqual(
    (await logged(api)).map((entry) => entry.requestId),
    [fresh.headers['x-request-id'], 'one day old'],
  );
});
