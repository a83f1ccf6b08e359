// Each surface answers its own unknown paths and wrong methods; a path outside every surface gets the catalogue's 404.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { METHODS } from 'node:http';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { SqliteStorage } from '../../src/storage/sqlite/sqlite-storage.js';
import { build, createDog, newAccount } from '../helper.js';

const HTML = /^text\/html; charset=utf-8$/;

test("an unknown portal path is the portal's HTML 404 with a link home, for a browser and for curl", async (t) => {
  const api = await build(t);
  for (const accept of ['text/html,application/xhtml+xml', '*/*']) {
    const response = await api.request({ url: '/portal/nonexistent', headers: { accept }, token: null });
    assert.equal(response.statusCode, 404, accept);
    assert.match(String(response.headers['content-type']), HTML, accept);
    assert.ok(response.headers['x-request-id'], accept);
    assert.match(response.body, /<h1>Page not found<\/h1>/);
    assert.match(response.body, /<a href="\/portal">the portal's home page<\/a>/);
    assert.doesNotMatch(response.body, /has no version/);
  }
  const deep = await api.request({ url: '/portal/errors/1000/more', token: null });
  assert.equal(deep.statusCode, 404);
  assert.match(String(deep.headers['content-type']), HTML);
});

test("a wrong method on a portal page is the portal's HTML 400 with Allow", async (t) => {
  const api = await build(t);
  const cases = [
    ['DELETE', '/portal/signup', 'GET, HEAD, POST'],
    ['PUT', '/portal', 'GET, HEAD'],
    ['POST', '/portal/errors/1000', 'GET, HEAD'],
    ['PATCH', '/portal/versions/', 'GET, HEAD'],
    ['PROPFIND', '/portal/versions', 'GET, HEAD'],
    ['DELETE', '/portal/errors', 'GET, HEAD'],
  ] as const;
  for (const [method, url, allow] of cases) {
    const response = await api.request({ method, url, token: null });
    assert.equal(response.statusCode, 400, `${method} ${url}`);
    assert.equal(response.headers.allow, allow, `${method} ${url}`);
    assert.match(String(response.headers['content-type']), HTML, `${method} ${url}`);
    assert.match(response.body, new RegExp(`does not take ${method} requests; it takes ${allow}`), `${method} ${url}`);
    assert.ok(response.headers['x-request-id']);
  }
});

test('portal pages answer with and without a trailing slash', async (t) => {
  const api = await build(t);
  for (const path of [
    '/portal',
    '/portal/errors',
    '/portal/errors/1003',
    '/portal/versions',
    '/portal/signup',
    '/portal/openapi/v2.json',
  ]) {
    for (const url of [path, `${path}/`]) {
      const response = await api.request({ url, token: null });
      assert.equal(response.statusCode, 200, url);
    }
  }
});

test("the portal's own 404 and wrong-method pages follow PORTAL_URL's path", async (t) => {
  const api = await build(t, { PORTAL_URL: 'http://api.test/developers' });
  const missing = await api.request({ url: '/developers/nothing', token: null });
  assert.equal(missing.statusCode, 404);
  assert.match(missing.body, /<a href="\/developers">/);
  const wrong = await api.request({ method: 'DELETE', url: '/developers/signup', token: null });
  assert.equal(wrong.statusCode, 400);
  assert.equal(wrong.headers.allow, 'GET, HEAD, POST');
  // /portal is nothing special any more: it is outside every surface.
  const old = await api.request({ url: '/portal/errors', token: null });
  assert.equal(old.statusCode, 404);
  assert.equal(old.json().code, 1002);
});

test('a portal with a host of its own serves its home on that host; the API host keeps its own /', async (t) => {
  const api = await build(t, { PORTAL_URL: 'http://portal.api.test' });
  const home = await api.request({ url: '/', headers: { host: 'portal.api.test' }, token: null });
  assert.equal(home.statusCode, 200);
  assert.match(home.body, /developer portal/);
  const wrong = await api.request({ method: 'DELETE', url: '/', headers: { host: 'portal.api.test' }, token: null });
  assert.equal(wrong.statusCode, 400);
  assert.match(String(wrong.headers['content-type']), HTML);
  const apiRoot = await api.request({ url: '/', token: null });
  assert.equal(apiRoot.statusCode, 400);
  assert.equal(apiRoot.json().code, 1000);
});

test("on a portal's own host an unknown path is the portal's 404 page; a versioned path stays the API's", async (t) => {
  const api = await build(t, { PORTAL_URL: 'http://portal.api.test' });
  const host = { host: 'Portal.API.test', accept: 'text/html' };
  for (const url of ['/nope', '/dogs', '/v9x/../robots.txt', '/oauth2/authorise']) {
    const response = await api.request({ url, headers: host, token: null });
    assert.equal(response.statusCode, 404, url);
    assert.match(String(response.headers['content-type']), HTML, url);
    assert.match(response.body, /<h1>Page not found<\/h1>/, url);
    assert.match(response.body, /<a href="\/">the portal's home page<\/a>/, url);
    assert.match(String(response.headers['content-security-policy']), /default-src 'self'/, url);
    assert.equal(response.headers['x-content-type-options'], 'nosniff', url);
    assert.equal(response.headers['access-control-allow-origin'], undefined, url);
  }
  const versioned = await api.request({ url: '/v9/dogs', headers: host, token: null });
  assert.equal(versioned.statusCode, 404);
  assert.equal(versioned.json().code, 1001);
  // The API's host keeps the catalogue's answers.
  const onApi = await api.request({ url: '/dogs', token: null });
  assert.equal(onApi.statusCode, 400);
  assert.equal(onApi.json().code, 1000);
});

test("a portal URL that does not decode is the portal's 404 page with its headers, not the API's 1008", async (t) => {
  const api = await build(t);
  for (const url of ['/portal/%ff', '/portal/dashboard/apps/x/requests/%zz']) {
    const response = await api.request({ url, token: null });
    assert.equal(response.statusCode, 404, url);
    assert.match(String(response.headers['content-type']), HTML, url);
    assert.match(response.body, /<h1>Page not found<\/h1>/, url);
    assert.match(String(response.headers['content-security-policy']), /frame-ancestors 'none'/, url);
    assert.equal(response.headers['referrer-policy'], 'strict-origin-when-cross-origin', url);
    assert.ok(response.headers['x-request-id'], url);
  }
  // Outside the portal, the same escape is the API's 1008.
  assert.equal((await api.request({ url: '/v2/dogs/%ff' })).json().code, 1008);
});

test('a path outside every surface is a catalogue 404, unless it names the API without a version', async (t) => {
  const api = await build(t);
  const cases = [
    ['/metrics.xml', 404, 1002],
    ['/robots.txt', 404, 1002],
    ['/healthz/deeper', 404, 1002],
    ['/oauth2/authorise', 404, 1002],
    ['/portalx', 404, 1002],
    ['/dogs', 400, 1000],
    ['/owners/abc/dogs', 400, 1000],
    ['/search?q=rex', 400, 1000],
    ['/convert', 400, 1000],
    ['/adoptions', 400, 1000],
    ['/v3/dogs', 404, 1001],
    ['/v1/cats', 404, 1002],
  ] as const;
  for (const [url, status, code] of cases) {
    const response = await api.request({ url, token: null });
    assert.equal(response.statusCode, status, url);
    assert.equal(response.json().code, code, url);
    assert.ok(response.headers['x-request-id'], url);
  }
  const metrics = (await api.request({ url: '/metrics.xml', token: null })).json();
  assert.doesNotMatch(metrics.message, /use \/v2/);
  assert.match(metrics.message, /There is nothing at \/metrics\.xml\. The API is under \/v2\//);
  assert.match((await api.request({ url: '/search?q=rex', token: null })).json().message, /use \/v2\/search/);
  assert.match((await api.request({ url: '/v1/cats', token: null })).json().message, /The collections are \/v1\/dogs/);
});

test("PROPFIND and every other method Node accepts is the API's 400 with Allow, never a 404", async (t) => {
  const api = await build(t);
  const dog = await createDog(api, { name: 'Rex' });
  // OPTIONS is the CORS preflight (SPEC §13).
  const offered = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'CONNECT']);
  for (const method of METHODS.filter((name) => !offered.has(name))) {
    const response = await api.request({ method: method as 'GET', url: `/v2/dogs/${dog.id}` });
    assert.equal(response.statusCode, 400, method);
    assert.equal(response.headers.allow, 'GET, HEAD, PUT, DELETE', method);
    // Routed as one stand-in method (route-every-method.ts), each is answered as itself.
    assert.equal(response.json().code, 1003, method);
    assert.match(response.json().message, new RegExp(`^${method} is not offered on this path`), method);
  }
  const propfind = await api.request({ method: 'PROPFIND' as 'GET', url: '/v2/dogs' });
  assert.equal(propfind.statusCode, 400);
  assert.equal(propfind.headers.allow, 'GET, HEAD, POST');
  assert.deepEqual(propfind.json(), {
    message: 'PROPFIND is not offered on this path. It offers: GET, HEAD, POST.',
    more_info: `${api.config.portalUrl}/errors/1003`,
    code: 1003,
  });
  const xml = await api.request({ method: 'MKCOL' as 'GET', url: '/v1/owners.xml' });
  assert.equal(xml.statusCode, 400);
  assert.match(xml.body, /^<\?xml[^>]*>\s*<error><message>MKCOL is not offered/);
});

test('the logs name an unusual method as sent, not as the router saw it', async (t) => {
  const lines: Array<{ msg?: string; req?: { method?: string }; res?: unknown }> = [];
  const stream = { write: (line: string) => void lines.push(JSON.parse(line)) };
  const storage = new SqliteStorage(':memory:');
  await storage.migrate();
  const app = await buildApp(loadConfig({ PUBLIC_URL: 'http://api.test' }), {
    storage,
    logger: { level: 'info', stream },
  });
  t.after(() => app.close());
  const { token } = await newAccount(app, storage);
  for (const [method, url] of [
    ['PROPFIND', '/v2/dogs'],
    ['PATCH', '/portal/versions'],
    ['MKCOL', '/nowhere'],
  ] as const) {
    const response = await app.inject({ method: method as 'GET', url, headers: { authorization: `Bearer ${token}` } });
    assert.ok([400, 404].includes(response.statusCode), `${method} ${url}: ${response.statusCode}`);
    const incoming = lines.filter((line) => line.msg === 'incoming request').at(-1);
    assert.equal(incoming?.req?.method, method, url);
  }
  // And the answer's own log line.
  const completed = lines.filter((line) => line.msg === 'request completed');
  assert.equal(completed.length, 3);
});

test('a route that offers a method outside the six the service routes fails the build', async (t) => {
  const storage = new SqliteStorage(':memory:');
  await storage.migrate();
  const app = await buildApp(loadConfig({ PUBLIC_URL: 'http://api.test', LOG_LEVEL: 'silent' }), {
    storage,
    logger: false,
  });
  t.after(() => app.close());
  await assert.rejects(async () => {
    app.patch('/patched', async () => 'never');
    await app.ready();
  }, /\/patched offers PATCH, which reaches routes as UNLINK/);
});

test('a wrong method on the open, cross-origin /adoptions keeps its CORS headers', async (t) => {
  const api = await build(t);
  const response = await api.request({ method: 'PATCH', url: '/v2/adoptions', token: null });
  assert.equal(response.statusCode, 400);
  assert.equal(response.headers.allow, 'GET, HEAD');
  assert.equal(response.headers['access-control-allow-origin'], '*');
  assert.equal(response.json().code, 1003);
});

test('each surface answers an unusual method in its own shape', async (t) => {
  const api = await build(t);
  const oauth = await api.request({ method: 'PROPFIND' as 'GET', url: '/oauth2/token', token: null });
  assert.equal(oauth.statusCode, 400);
  assert.equal(oauth.headers.allow, 'POST');
  assert.equal(oauth.headers['cache-control'], 'no-store');
  assert.deepEqual(oauth.json(), { error: 'invalid_request', error_description: 'This endpoint takes POST.' });
  const metadata = await api.request({
    method: 'LOCK' as 'GET',
    url: '/.well-known/oauth-authorization-server',
    token: null,
  });
  assert.equal(metadata.statusCode, 400);
  assert.equal(metadata.headers.allow, 'GET, HEAD');
  assert.equal(metadata.json().error, 'invalid_request');
  const infra = await api.request({ method: 'PURGE' as 'GET', url: '/metrics', token: null });
  assert.equal(infra.statusCode, 400);
  assert.equal(infra.headers.allow, 'GET, HEAD');
  assert.deepEqual(infra.json(), {
    message: 'PURGE is not offered on /metrics. It offers: GET, HEAD.',
    more_info: `${api.config.portalUrl}/errors/1003`,
    code: 1003,
  });
  const root = await api.request({ method: 'DELETE', url: '/', token: null });
  assert.equal(root.statusCode, 400);
  assert.equal(root.headers.allow, 'GET, HEAD');
});

test('a wrong API method is answered before the suffix and the parameters are checked (SPEC §8: route, then method)', async (t) => {
  const api = await build(t);
  const response = await api.request({ method: 'PATCH', url: '/v2/dogs.yaml?suppress_response_codes=maybe' });
  assert.equal(response.statusCode, 400);
  assert.equal(response.headers.allow, 'GET, HEAD, POST');
  assert.match(String(response.headers['content-type']), /^application\/json/);
  assert.equal(response.json().code, 1003);
  const suppressed = await api.request({
    method: 'PROPFIND' as 'GET',
    url: '/v2/dogs.xml?suppress_response_codes=true',
  });
  assert.equal(suppressed.statusCode, 200);
  assert.match(suppressed.body, /<error><response_code>400<\/response_code><message>PROPFIND is not offered/);
});
