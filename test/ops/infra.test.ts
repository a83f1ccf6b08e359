import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { SqliteStorage } from '../../src/storage/sqlite/sqlite-storage.js';
import { BASE, build } from '../helper.js';

/** An app over a storage the test holds, with its error log captured. */
async function buildOver(
  t: TestContext,
  storage: SqliteStorage,
): Promise<{ app: Awaited<ReturnType<typeof buildApp>>; log: Array<Record<string, unknown>> }> {
  const log: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      log.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const app = await buildApp(loadConfig({ PUBLIC_URL: BASE }), { storage, logger: { level: 'error', stream } });
  t.after(() => app.close());
  return { app, log };
}

test('GET /healthz answers 200 and is never cached', async (t) => {
  const api = await build(t);
  const response = await api.request({ url: '/healthz' });
  assert.equal(response.statusCode, 200);
  assert.deepEqual(response.json(), { status: 'ok' });
  assert.equal(response.headers['cache-control'], 'no-store');
});

test('HEAD /healthz answers 200 without a body', async (t) => {
  const api = await build(t);
  const response = await api.request({ method: 'HEAD', url: '/healthz' });
  assert.equal(response.statusCode, 200);
  assert.equal(response.body, '');
});

test('GET /readyz answers 200 while the database answers', async (t) => {
  const api = await build(t);
  const response = await api.request({ url: '/readyz' });
  assert.equal(response.statusCode, 200);
  assert.deepEqual(response.json(), { status: 'ready', database: 'sqlite' });
  assert.equal(response.headers['cache-control'], 'no-store');
});

test('GET /readyz answers 500 and logs why when the database is unreachable', async (t) => {
  const storage = new SqliteStorage(':memory:');
  await storage.migrate();
  const { app, log } = await buildOver(t, storage);
  assert.equal((await app.inject({ url: '/readyz' })).statusCode, 200);

  await storage.close();
  const response = await app.inject({ url: '/readyz' });
  assert.equal(response.statusCode, 500);
  assert.deepEqual(response.json(), { status: 'unavailable', database: 'sqlite' });
  assert.equal(response.headers['cache-control'], 'no-store');
  assert.ok(response.headers['x-request-id']);
  const entry = log.find((line) => line.msg === 'readiness check failed: database unreachable');
  assert.ok(entry, 'the failure is logged');
  assert.equal(entry.reqId, response.headers['x-request-id']);
  // Liveness does not depend on the database: the process itself is fine.
  assert.equal((await app.inject({ url: '/healthz' })).statusCode, 200);
});

test('GET /metrics answers 200 in the Prometheus text format', async (t) => {
  const api = await build(t);
  const response = await api.request({ url: '/metrics' });
  assert.equal(response.statusCode, 200);
  assert.equal(response.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8');
  assert.match(response.body, /^# HELP process_cpu_user_seconds_total /m);
  assert.match(response.body, /^# TYPE http_request_duration_seconds histogram$/m);
  // Every sample line is `name{labels} value`, every other line a comment or blank.
  for (const line of response.body.split('\n')) {
    assert.match(line, /^(#.*|[a-zA-Z_:][a-zA-Z0-9_:]*(\{.*\})? (-?\d[\d.e+-]*|[+-]?Inf|NaN))?$/i, line);
  }
});

test('/metrics counts earlier requests by route pattern, method and status, never by raw URL', async (t) => {
  const api = await build(t);
  await api.request({ url: '/v1/dogs' });
  await api.request({ url: '/v1/dogs' });
  await api.request({ url: '/v1/dogs/no-such-dog-qx' });
  await api.request({ url: '/v9/whatever-qz' });
  const { body } = await api.request({ url: '/metrics' });
  assert.match(body, /^http_request_duration_seconds_count\{method="GET",route="\/v1\/dogs",status="200"\} 2$/m);
  assert.match(body, /^http_request_duration_seconds_count\{method="GET",route="\/v1\/dogs\/:id",status="404"\} 1$/m);
  assert.match(body, /^http_request_duration_seconds_count\{method="GET",route="unmatched",status="404"\} 1$/m);
  assert.match(
    body,
    /^http_request_duration_seconds_bucket\{le="\+Inf",method="GET",route="\/v1\/dogs",status="200"\} 2$/m,
  );
  assert.doesNotMatch(body, /no-such-dog|whatever|v9/);
});

test('each app counts only its own requests', async (t) => {
  const first = await build(t);
  const second = await build(t);
  await first.request({ url: '/v1/dogs' });
  const { body } = await second.request({ url: '/metrics' });
  assert.doesNotMatch(body, /route="\/v1\/dogs"/);
});

for (const url of ['/healthz', '/readyz', '/metrics']) {
  test(`POST ${url} is a 400 with Allow: GET, HEAD, not a framework 404 or 405`, async (t) => {
    const api = await build(t);
    const response = await api.request({ method: 'POST', url });
    assert.equal(response.statusCode, 400);
    assert.equal(response.headers.allow, 'GET, HEAD');
    assert.equal(response.json().code, 1003);
    assert.match(response.json().message, /POST is not offered/);
    assert.ok(response.headers['x-request-id']);
  });
}

test('infrastructure answers stay within the allowed status codes', async (t) => {
  const api = await build(t);
  const allowed = new Set([200, 201, 304, 400, 401, 403, 404, 500]);
  for (const url of ['/healthz', '/readyz', '/metrics', '/healthz/', '/healthz/deeper', '/readyz.json']) {
    for (const method of ['GET', 'HEAD', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const) {
      const response = await api.request({ method, url });
      assert.ok(allowed.has(response.statusCode), `${method} ${url} answered ${response.statusCode}`);
    }
  }
});
