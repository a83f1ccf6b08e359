import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { JsonPage } from '../../src/storage/storage.js';
import { SqliteStorage } from '../../src/storage/sqlite/sqlite-storage.js';
import { BASE, build, newAccount, type RequestOptions } from '../helper.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A storage whose listing fails the way a driver does: a plain Error with internal details. */
class BrokenStorage extends SqliteStorage {
  override async listJson(): Promise<JsonPage> {
    throw new Error(
      'SQLITE_IOERR_SHORT_READ: disk I/O error reading /srv/secret/registry.sqlite in SqliteStorage.listJson',
    );
  }
}

const kinds: Array<{ kind: string; request: RequestOptions; status: number }> = [
  { kind: 'an API success', request: { url: '/v1/dogs' }, status: 200 },
  { kind: 'an API creation', request: { method: 'POST', url: '/v2/dogs', form: { name: 'Rex' } }, status: 201 },
  { kind: 'an API error', request: { url: '/v1/dogs?limit=0' }, status: 400 },
  { kind: 'a missing item', request: { url: '/v1/dogs/no-such-dog' }, status: 404 },
  { kind: 'an unknown version', request: { url: '/v3/dogs' }, status: 404 },
  { kind: 'a path without a version', request: { url: '/dogs' }, status: 400 },
  { kind: 'a suppressed error', request: { url: '/v1/dogs/no-such-dog?suppress_response_codes=true' }, status: 200 },
  { kind: 'an XML error', request: { url: '/v1/dogs/no-such-dog.xml' }, status: 404 },
  { kind: 'a liveness check', request: { url: '/healthz' }, status: 200 },
  { kind: 'a readiness check', request: { url: '/readyz' }, status: 200 },
  { kind: 'a metrics scrape', request: { url: '/metrics' }, status: 200 },
];

for (const { kind, request, status } of kinds) {
  test(`${kind} carries a generated X-Request-Id`, async (t) => {
    const api = await build(t);
    const response = await api.request(request);
    assert.equal(response.statusCode, status);
    assert.match(String(response.headers['x-request-id']), UUID);
  });
}

test('each request gets its own generated id', async (t) => {
  const api = await build(t);
  const first = await api.request({ url: '/healthz' });
  const second = await api.request({ url: '/healthz' });
  assert.notEqual(first.headers['x-request-id'], second.headers['x-request-id']);
});

for (const given of ['abc-123', 'f47ac10b-58cc-4372-a567-0e02b2c3d479', 'trace.id:42_x']) {
  test(`a sane incoming X-Request-Id "${given}" is echoed`, async (t) => {
    const api = await build(t);
    const response = await api.request({ url: '/v1/dogs', headers: { 'x-request-id': given } });
    assert.equal(response.headers['x-request-id'], given);
  });
}

for (const [why, given] of [
  ['too long', 'a'.repeat(1000)],
  ['has spaces', 'two words'],
  ['has markup', '<script>alert(1)</script>'],
  ['has percent-encoded line breaks', 'abc%0d%0aSet-Cookie:x=1'],
  ['has non-ASCII letters', 'ñandú'],
] as const) {
  test(`an incoming X-Request-Id that ${why} is replaced by a generated one`, async (t) => {
    const api = await build(t);
    const response = await api.request({ url: '/v1/dogs', headers: { 'x-request-id': given } });
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers['x-request-id']), UUID);
  });
}

test('a 500 gives a generic message quoting the request id, code 9000, and logs the real error', async (t) => {
  const log: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      log.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const storage = new BrokenStorage(':memory:');
  await storage.migrate();
  const app = await buildApp(loadConfig({ PUBLIC_URL: BASE }), { storage, logger: { level: 'error', stream } });
  t.after(() => app.close());
  const { token } = await newAccount(app, storage);

  for (const given of [undefined, 'support-case-77']) {
    const response = await app.inject({
      url: '/v1/dogs',
      headers: { authorization: `Bearer ${token}`, ...(given ? { 'x-request-id': given } : {}) },
    });
    assert.equal(response.statusCode, 500);
    const id = String(response.headers['x-request-id']);
    if (given) assert.equal(id, given);
    const body = response.json();
    assert.deepEqual(Object.keys(body), ['message', 'more_info', 'code']);
    assert.equal(body.code, 9000);
    assert.equal(body.more_info, `${BASE}/portal/errors/9000`);
    assert.ok(body.message.includes(id), `the message quotes ${id}: ${body.message}`);
    assert.doesNotMatch(response.body, /SQLITE|secret|SqliteStorage|Error:|\bat .*\.ts/);

    const entry = log.find((line) => line.reqId === id && line.level === 50);
    assert.ok(entry, `an error line with reqId ${id} is logged`);
    const err = entry.err as { message: string; stack: string };
    assert.match(err.message, /SQLITE_IOERR_SHORT_READ/);
    assert.match(err.stack, /BrokenStorage\.listJson/);
  }
});

test('a suppressed 500 answers 200 and still quotes the request id', async (t) => {
  const storage = new BrokenStorage(':memory:');
  await storage.migrate();
  const app = await buildApp(loadConfig({ PUBLIC_URL: BASE, LOG_LEVEL: 'silent' }), { storage, logger: false });
  const { token } = await newAccount(app, storage);
  t.after(() => app.close());
  const response = await app.inject({
    url: '/v1/dogs?suppress_response_codes=true',
    headers: { authorization: `Bearer ${token}` },
  });
  assert.equal(response.statusCode, 200);
  const body = response.json();
  assert.equal(body.response_code, '500');
  assert.equal(body.code, 9000);
  assert.ok(body.message.includes(String(response.headers['x-request-id'])));
});
