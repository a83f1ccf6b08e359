// CORS (SPEC §13): the API, OAuth and OpenAPI paths answer any origin, errors and 304s included; portal pages never.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { build, createDog } from '../helper.js';

const ORIGIN = { origin: 'https://viewer.example' };
const ALLOWED = 'Authorization, Content-Type, Accept, If-Match, If-None-Match, Idempotency-Key';

/** Any origin may read the answer, never with credentials, and the headers a client needs are exposed. */
function assertCors(response: LightMyRequestResponse, what: string): void {
  assert.equal(response.headers['access-control-allow-origin'], '*', what);
  assert.equal(response.headers['access-control-allow-credentials'], undefined, what);
  const exposed = String(response.headers['access-control-expose-headers']).split(', ');
  for (const name of ['Link', 'ETag', 'Location', 'X-Request-Id', 'Deprecation', 'Sunset', 'X-Total-Count'])
    assert.ok(exposed.includes(name), `${what} exposes ${name}`);
  for (const name of ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After'])
    assert.ok(exposed.includes(name), `${what} exposes ${name}`);
}

function preflight(api: Awaited<ReturnType<typeof build>>, url: string, method: string) {
  return api.request({
    method: 'OPTIONS',
    url,
    token: null,
    headers: { ...ORIGIN, 'access-control-request-method': method, 'access-control-request-headers': 'authorization' },
  });
}

test('every API path answers any origin: success, 304, write, and errors in and before the handler', async (t) => {
  const api = await build(t);
  const dog = await createDog(api, { name: 'Rex' });
  const read = await api.request({ url: `/v2/dogs/${dog.id}`, headers: ORIGIN });
  assert.equal(read.statusCode, 200);
  assertCors(read, 'GET one');
  const notModified = await api.request({
    url: `/v2/dogs/${dog.id}`,
    headers: { ...ORIGIN, 'if-none-match': String(read.headers.etag) },
  });
  assert.equal(notModified.statusCode, 304);
  assertCors(notModified, '304');
  const created = await api.request({ method: 'POST', url: '/v1/owners', json: { name: 'Ann' }, headers: ORIGIN });
  assert.equal(created.statusCode, 200);
  assertCors(created, 'POST');
  const cases = [
    { what: 'no token', status: 401, response: await api.request({ url: '/v1/dogs', token: null, headers: ORIGIN }) },
    { what: 'not found', status: 404, response: await api.request({ url: '/v1/dogs/0', headers: ORIGIN }) },
    { what: 'unknown path', status: 404, response: await api.request({ url: '/v1/cats', headers: ORIGIN }) },
    {
      what: 'wrong method',
      status: 400,
      response: await api.request({ method: 'PATCH', url: `/v1/dogs/${dog.id}`, headers: ORIGIN }),
    },
    {
      // Refused by the body parser, before the handler runs.
      what: 'unreadable body',
      status: 400,
      response: await api.request({
        method: 'POST',
        url: '/v1/dogs',
        body: 'name: Rex',
        headers: { ...ORIGIN, 'content-type': 'text/yaml' },
      }),
    },
  ];
  for (const { what, status, response } of cases) {
    assert.equal(response.statusCode, status, what);
    assert.equal(typeof response.json().code, 'number', what);
    assertCors(response, what);
  }
});

test('a preflight of an API item path needs no token and allows that path methods and the SPEC headers', async (t) => {
  const api = await build(t);
  const dog = await createDog(api, { name: 'Rex' });
  for (const [url, methods] of [
    [`/v1/dogs/${dog.id}`, 'GET, HEAD, PUT, DELETE'],
    ['/v2/dogs', 'GET, HEAD, POST'],
    ['/v2/search', 'GET, HEAD'],
  ]) {
    const response = await preflight(api, url, 'PUT');
    assert.equal(response.statusCode, 200, url);
    assert.equal(response.body, '', url);
    assert.equal(response.headers['access-control-allow-methods'], methods, url);
    assert.equal(response.headers['access-control-allow-headers'], ALLOWED, url);
    assert.equal(response.headers.allow, methods, url);
    // As every API answer (SPEC §2).
    assert.equal(response.headers.vary, 'Accept', url);
    assertCors(response, url);
  }
  // The preflight changed nothing.
  assert.equal((await api.request({ url: `/v1/dogs/${dog.id}` })).json().dog.name, 'Rex');
});

test('a preflight of a path with a format suffix the service does not have is its 400, with CORS', async (t) => {
  const api = await build(t);
  for (const url of ['/v2/dogs.yaml', '/v2/owners/abc.', '/v1/search.xml.json']) {
    const response = await preflight(api, url, 'GET');
    assert.equal(response.statusCode, 400, url);
    assert.equal(response.json().code, 1004, url);
    assert.match(response.json().message, /\.json or \.xml/, url);
    assert.equal(response.headers['access-control-allow-methods'], undefined, url);
    assertCors(response, url);
  }
  // Upper case is a suffix the service has: `.XML` is `.xml`.
  const upper = await preflight(api, '/v2/dogs.XML', 'GET');
  assert.equal(upper.statusCode, 200);
  assert.equal(upper.headers.allow, 'GET, HEAD, POST');
});

test('the token, revoke and introspect endpoints and the metadata answer any origin, preflight and errors too', async (t) => {
  const api = await build(t);
  for (const url of ['/oauth2/token', '/oauth2/revoke', '/oauth2/introspect']) {
    const response = await preflight(api, url, 'POST');
    assert.equal(response.statusCode, 200, url);
    assert.equal(response.headers['access-control-allow-methods'], 'POST', url);
    assert.equal(response.headers['access-control-allow-headers'], ALLOWED, url);
    assertCors(response, url);
  }
  const { clientId, clientSecret } = api.credentials;
  const issued = await api.request({
    method: 'POST',
    url: '/oauth2/token',
    token: null,
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: clientSecret,
    }).toString(),
    headers: { ...ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
  });
  assert.equal(issued.statusCode, 200);
  assert.ok(issued.json().access_token);
  assertCors(issued, 'token');
  const refused = await api.request({ method: 'POST', url: '/oauth2/token', token: null, json: {}, headers: ORIGIN });
  assert.equal(refused.statusCode, 400);
  assert.equal(refused.json().error, 'invalid_request');
  assertCors(refused, 'token error');
  const wrong = await api.request({ method: 'GET', url: '/oauth2/token', token: null, headers: ORIGIN });
  assert.equal(wrong.statusCode, 400);
  assert.equal(wrong.headers.allow, 'POST');
  assertCors(wrong, 'token wrong method');
  const metadata = await api.request({ url: '/.well-known/oauth-authorization-server', token: null, headers: ORIGIN });
  assert.equal(metadata.statusCode, 200);
  assertCors(metadata, 'metadata');
});

test('the OpenAPI documents answer any origin, their 304 and preflight too', async (t) => {
  const api = await build(t);
  const url = '/portal/openapi/v2.json';
  const response = await api.request({ url, token: null, headers: ORIGIN });
  assert.equal(response.statusCode, 200);
  assertCors(response, url);
  const again = await api.request({
    url,
    token: null,
    headers: { ...ORIGIN, 'if-none-match': String(response.headers.etag) },
  });
  assert.equal(again.statusCode, 304);
  assertCors(again, `${url} 304`);
  const asked = await preflight(api, url, 'GET');
  assert.equal(asked.statusCode, 200);
  assert.equal(asked.headers['access-control-allow-methods'], 'GET, HEAD');
  assertCors(asked, `${url} preflight`);
  // A wrong method is the catalogue's JSON 1003, readable cross-origin: not a portal page (never cross-origin).
  const wrong = await api.request({ method: 'POST', url, token: null, headers: ORIGIN });
  assert.equal(wrong.statusCode, 400);
  assert.match(String(wrong.headers['content-type']), /^application\/json/);
  assert.equal(wrong.headers.allow, 'GET, HEAD');
  assert.equal(wrong.json().code, 1003);
  assert.equal(wrong.json().message, 'POST is not offered on /portal/openapi/v2.json. It offers: GET, HEAD.');
  assertCors(wrong, `${url} wrong method`);
});

test('a path without a version, or with one that does not exist, is an error any origin can read', async (t) => {
  const api = await build(t);
  for (const [url, status, code] of [
    ['/dogs', 400, 1000],
    ['/v9/dogs', 404, 1001],
    ['/robots.txt', 404, 1002],
  ] as const) {
    const response = await api.request({ url, headers: ORIGIN });
    assert.equal(response.statusCode, status, url);
    assert.equal(response.json().code, code, url);
    assertCors(response, url);
  }
});

test('portal HTML pages never answer cross-origin, a preflight included', async (t) => {
  const api = await build(t);
  for (const url of ['/portal', '/portal/signup', '/portal/versions']) {
    const page = await api.request({ url, token: null, headers: { ...ORIGIN, accept: 'text/html' } });
    assert.equal(page.statusCode, 200, url);
    assert.match(String(page.headers['content-type']), /^text\/html/, url);
    assert.equal(page.headers['access-control-allow-origin'], undefined, url);
    const asked = await preflight(api, url, 'GET');
    assert.notEqual(asked.statusCode, 200, url);
    assert.equal(asked.headers['access-control-allow-origin'], undefined, url);
    assert.equal(asked.headers['access-control-allow-methods'], undefined, url);
  }
});
