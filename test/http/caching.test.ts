// Cache-Control (SPEC §13): tenant reads revalidate, the open list and the OpenAPI documents are public, errors no-store.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build, createDog } from '../helper.js';

/** A public max-age between 1 and 3600 s, as SPEC §13 asks of the open answers. */
function assertPublic(cacheControl: unknown, what: string): void {
  const match = /^public, max-age=(\d+)$/.exec(String(cacheControl));
  assert.ok(match, `${what}: ${String(cacheControl)}`);
  const seconds = Number(match[1]);
  assert.ok(seconds >= 1 && seconds <= 3600, `${what}: max-age ${seconds}`);
}

test('a read of tenant data is private, no-cache, its 304 too, in every format', async (t) => {
  const api = await build(t);
  const dog = await createDog(api, { name: 'Rex' });
  for (const url of [`/v1/dogs/${dog.id}`, '/v2/dogs', `/v2/dogs/${dog.id}.xml`, '/v1/search?q=rex']) {
    const response = await api.request({ url });
    assert.equal(response.statusCode, 200, url);
    assert.equal(response.headers['cache-control'], 'private, no-cache', url);
    assert.ok(response.headers.etag, url);
    const again = await api.request({ url, headers: { 'if-none-match': String(response.headers.etag) } });
    assert.equal(again.statusCode, 304, url);
    assert.equal(again.body, '', url);
    assert.equal(again.headers['cache-control'], 'private, no-cache', url);
    assert.equal(again.headers.etag, response.headers.etag, url);
  }
});

test('an overridden GET stays no-store, and a write carries no cache directive of a read', async (t) => {
  const api = await build(t);
  const dog = await createDog(api, { name: 'Rex' });
  const put = await api.request({ url: `/v1/dogs/${dog.id}?method=put&name=Max` });
  assert.equal(put.statusCode, 200);
  assert.equal(put.headers['cache-control'], 'no-store');
  const post = await api.request({ method: 'POST', url: '/v1/dogs', form: { name: 'Bella' } });
  assert.equal(post.statusCode, 200);
  assert.equal(post.headers['cache-control'], undefined);
});

test('errors are no-store: not found, no token, a bad parameter, an unknown path', async (t) => {
  const api = await build(t);
  const cases = [
    { url: '/v1/dogs/00000000000000000000000000', token: undefined, status: 404 },
    { url: '/v1/dogs', token: null, status: 401 },
    { url: '/v1/dogs?limit=abc', token: undefined, status: 400 },
    { url: '/v1/cats', token: undefined, status: 404 },
    { url: '/v1/adoptions?sort=createdAt', token: null, status: 400 },
  ];
  for (const { url, token, status } of cases) {
    const response = await api.request({ url, token });
    assert.equal(response.statusCode, status, url);
    assert.equal(response.headers['cache-control'], 'no-store', url);
    assert.equal(typeof response.json().code, 'number', url);
  }
});

test('the open adoption list is public with a max-age and an ETag, and If-None-Match answers 304', async (t) => {
  const api = await build(t);
  await api.request({ method: 'POST', url: '/v1/dogs', form: { name: 'Rex', state: 'adoptable' } });
  const response = await api.request({ url: '/v2/adoptions', token: null });
  assert.equal(response.statusCode, 200);
  assertPublic(response.headers['cache-control'], '/v2/adoptions');
  const etag = String(response.headers.etag);
  assert.match(etag, /^"[^"]+"$/);
  const again = await api.request({ url: '/v2/adoptions', token: null, headers: { 'if-none-match': etag } });
  assert.equal(again.statusCode, 304);
  assert.equal(again.body, '');
  assertPublic(again.headers['cache-control'], '/v2/adoptions 304');
});

test('each OpenAPI document is public with a max-age and an ETag, and If-None-Match answers 304', async (t) => {
  const api = await build(t);
  for (const version of [1, 2]) {
    const url = `/portal/openapi/v${version}.json`;
    const response = await api.request({ url, token: null });
    assert.equal(response.statusCode, 200, url);
    assert.match(response.json().openapi, /^3\.1\./, url);
    assertPublic(response.headers['cache-control'], url);
    const etag = String(response.headers.etag);
    assert.match(etag, /^"[^"]+"$/, url);
    const again = await api.request({ url, token: null, headers: { 'if-none-match': `W/${etag}` } });
    assert.equal(again.statusCode, 304, url);
    assert.equal(again.body, '', url);
    assert.equal(again.headers.etag, etag, url);
    assertPublic(again.headers['cache-control'], `${url} 304`);
    const changed = await api.request({ url, token: null, headers: { 'if-none-match': '"other"' } });
    assert.equal(changed.statusCode, 200, url);
    assert.equal(changed.body, response.body, url);
  }
  const v1 = await api.request({ url: '/portal/openapi/v1.json', token: null });
  const v2 = await api.request({ url: '/portal/openapi/v2.json', token: null });
  assert.notEqual(v1.headers.etag, v2.headers.etag);
});

test('token answers stay no-store; the metadata stays public for an hour', async (t) => {
  const api = await build(t);
  const metadata = await api.request({ url: '/.well-known/oauth-authorization-server', token: null });
  assert.equal(metadata.headers['cache-control'], 'public, max-age=3600');
  const { clientId, clientSecret } = api.credentials;
  for (const url of ['/oauth2/token', '/oauth2/revoke', '/oauth2/introspect']) {
    const fields: Record<string, string> =
      url === '/oauth2/token' ? { grant_type: 'client_credentials' } : { token: 'unknown' };
    const response = await api.request({
      method: 'POST',
      url,
      token: null,
      body: new URLSearchParams({ ...fields, client_id: clientId, client_secret: clientSecret }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(response.statusCode, 200, url);
    assert.equal(response.headers['cache-control'], 'no-store', url);
  }
});
