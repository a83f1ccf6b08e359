import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { NowAndThen } from '../../src/now-and-then.js';
import { BASE, build, type TestApp } from '../helper.js';

function form(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

async function token(api: TestApp, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return api.request({
    method: 'POST',
    url: '/oauth2/token',
    token: null,
    body: form(fields),
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  });
}

function basic(id: string, secret: string): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}` };
}

test('the RFC 8414 metadata names this service as issuer and lists its endpoints', async (t) => {
  const api = await build(t);
  const response = await api.request({ url: '/.well-known/oauth-authorization-server', token: null });
  assert.equal(response.statusCode, 200);
  const metadata = response.json();
  assert.equal(metadata.issuer, BASE);
  assert.equal(metadata.token_endpoint, `${BASE}/oauth2/token`);
  assert.equal(metadata.revocation_endpoint, `${BASE}/oauth2/revoke`);
  assert.equal(metadata.introspection_endpoint, `${BASE}/oauth2/introspect`);
  assert.deepEqual(metadata.grant_types_supported, ['client_credentials', 'authorization_code', 'refresh_token']);
  assert.deepEqual(metadata.token_endpoint_auth_methods_supported, [
    'client_secret_basic',
    'client_secret_post',
    'none',
  ]);
  assert.deepEqual(metadata.scopes_supported, ['read', 'write']);
  // SPEC §13: only the token, revocation and introspection answers are no-store; the metadata may be cached.
  assert.equal(response.headers['cache-control'], 'public, max-age=3600');
  assert.equal(response.headers.pragma, undefined);
});

test('client_credentials with client_secret_basic or client_secret_post issues a bearer token, not cacheable', async (t) => {
  const api = await build(t);
  const { clientId, clientSecret } = api.credentials;
  for (const response of [
    await token(api, { grant_type: 'client_credentials' }, basic(clientId, clientSecret)),
    await token(api, { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
  ]) {
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers['cache-control'], 'no-store');
    const body = response.json();
    assert.equal(body.token_type, 'Bearer');
    assert.equal(body.expires_in, 3600);
    assert.equal(body.scope, 'read write');
    assert.ok(Buffer.from(body.access_token, 'base64url').length >= 16, 'at least 128 bits');
    const used = await api.request({ url: '/v1/dogs', token: body.access_token });
    assert.equal(used.statusCode, 200);
  }
});

test('a client may ask for fewer scopes, never for more', async (t) => {
  const api = await build(t);
  const { clientId, clientSecret } = api.credentials;
  const read = await token(api, { grant_type: 'client_credentials', scope: 'read' }, basic(clientId, clientSecret));
  assert.equal(read.json().scope, 'read');
  const more = await token(
    api,
    { grant_type: 'client_credentials', scope: 'read admin' },
    basic(clientId, clientSecret),
  );
  assert.equal(more.statusCode, 400);
  assert.equal(more.json().error, 'invalid_scope');
  // A scope is a set (RFC 6749 §3.3): a value given twice is granted, and said, once.
  const twice = await token(
    api,
    { grant_type: 'client_credentials', scope: 'read read write' },
    basic(clientId, clientSecret),
  );
  assert.equal(twice.statusCode, 200);
  assert.equal(twice.json().scope, 'read write');
  const introspected = await api.request({
    method: 'POST',
    url: '/oauth2/introspect',
    token: null,
    headers: basic(clientId, clientSecret),
    form: { token: twice.json().access_token },
  });
  assert.equal(introspected.json().scope, 'read write');
});

test('token errors come in the RFC 6749 shape', async (t) => {
  const api = await build(t);
  const { clientId, clientSecret } = api.credentials;
  const cases: Array<[string, Awaited<ReturnType<typeof token>>, number, string]> = [
    [
      'a wrong secret (Basic)',
      await token(api, { grant_type: 'client_credentials' }, basic(clientId, 'wrong')),
      401,
      'invalid_client',
    ],
    [
      'a wrong secret (post)',
      await token(api, { grant_type: 'client_credentials', client_id: clientId, client_secret: 'wrong' }),
      401,
      'invalid_client',
    ],
    [
      'an unknown client',
      await token(api, { grant_type: 'client_credentials' }, basic('nobody', 'x')),
      401,
      'invalid_client',
    ],
    ['no grant type', await token(api, {}, basic(clientId, clientSecret)), 400, 'invalid_request'],
    // A grant the server does not offer (the library knows password, this server does not): not unauthorized_client.
    [
      'another grant type',
      await token(api, { grant_type: 'password', username: 'a', password: 'b' }, basic(clientId, clientSecret)),
      400,
      'unsupported_grant_type',
    ],
  ];
  for (const [what, response, status, error] of cases) {
    assert.equal(response.statusCode, status, what);
    assert.equal(response.json().error, error, what);
    assert.equal(typeof response.json().error_description, 'string');
    assert.equal(response.headers['cache-control'], 'no-store', what);
  }
  assert.match(String(cases[0]![1].headers['www-authenticate']), /^Basic /);
  const json = await api.request({
    method: 'POST',
    url: '/oauth2/token',
    token: null,
    json: { grant_type: 'client_credentials' },
  });
  assert.equal(json.statusCode, 400);
  assert.equal(json.json().error, 'invalid_request');
  const get = await api.request({ url: '/oauth2/token', token: null });
  assert.equal(get.statusCode, 400);
  assert.equal(get.headers.allow, 'POST');
  assert.equal(get.json().error, 'invalid_request');
});

test('revocation (RFC 7009) takes effect at once, and unknown tokens are answered 200 too', async (t) => {
  const api = await build(t);
  const { clientId, clientSecret, token: issued } = api.credentials;
  assert.equal((await api.request({ url: '/v1/dogs' })).statusCode, 200);
  const revoke = await api.request({
    method: 'POST',
    url: '/oauth2/revoke',
    token: null,
    form: { token: issued },
    headers: basic(clientId, clientSecret),
  });
  assert.equal(revoke.statusCode, 200);
  assert.equal(revoke.body, '');
  const after = await api.request({ url: '/v1/dogs' });
  assert.equal(after.statusCode, 401);
  assert.match(String(after.headers['www-authenticate']), /error="invalid_token"/);
  const unknown = await api.request({
    method: 'POST',
    url: '/oauth2/revoke',
    token: null,
    form: { token: 'never-issued' },
    headers: basic(clientId, clientSecret),
  });
  assert.equal(unknown.statusCode, 200);
  const unauthenticated = await api.request({
    method: 'POST',
    url: '/oauth2/revoke',
    token: null,
    form: { token: issued },
  });
  assert.equal(unauthenticated.statusCode, 401);
  assert.equal(unauthenticated.json().error, 'invalid_client');
});

test("introspection (RFC 7662) tells the client about its account's tokens only", async (t) => {
  const api = await build(t);
  const { clientId, clientSecret, token: issued, tenantId } = api.credentials;
  const active = await api.request({
    method: 'POST',
    url: '/oauth2/introspect',
    token: null,
    form: { token: issued, client_id: clientId, client_secret: clientSecret },
  });
  assert.equal(active.statusCode, 200);
  const body = active.json();
  assert.equal(body.active, true);
  assert.equal(body.scope, 'read write');
  assert.equal(body.client_id, clientId);
  assert.equal(body.sub, tenantId);
  assert.equal(body.token_type, 'Bearer');
  assert.ok(body.exp > body.iat);
  const bogus = await api.request({
    method: 'POST',
    url: '/oauth2/introspect',
    token: null,
    form: { token: 'bogus', client_id: clientId, client_secret: clientSecret },
  });
  assert.deepEqual(bogus.json(), { active: false });
  const denied = await api.request({
    method: 'POST',
    url: '/oauth2/introspect',
    token: null,
    form: { token: issued },
    headers: basic(clientId, 'wrong'),
  });
  assert.equal(denied.statusCode, 401);
});

test('issuing tokens sweeps tokens that expired more than a day ago', async (t) => {
  const api = await build(t);
  const { tenantId, clientId, clientSecret } = api.credentials;
  const { secretHash } = await import('../../src/auth/secrets.js');
  const longAgo = Math.floor(Date.now() / 1000) - 3 * 24 * 3600;
  await api.storage.auth.saveToken({
    tokenHash: secretHash('ancient'),
    tenantId,
    clientId,
    scopes: ['read'],
    issuedAt: longAgo - 3600,
    expiresAt: longAgo,
    revoked: false,
  });
  // Both this test's tokens were issued by the same app; its first token swept already, so force a new sweep window.
  (api.storage.auth as unknown as { sweeps: NowAndThen }).sweeps.reset();
  await token(api, { grant_type: 'client_credentials' }, basic(clientId, clientSecret));
  assert.equal(await api.storage.auth.findToken(secretHash('ancient')), undefined);
});

test('expires_in is the whole TOKEN_TTL_SECONDS of a token just issued', async (t) => {
  const api = await build(t, { TOKEN_TTL_SECONDS: '120' });
  const { clientId, clientSecret } = api.credentials;
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const response = await token(api, { grant_type: 'client_credentials' }, basic(clientId, clientSecret));
    assert.equal(response.json().expires_in, 120);
  }
});

test("a token is issued, introspected and expires by the app's clock", async (t) => {
  let now = Date.parse('2031-05-01T12:00:00Z');
  const api = await build(t, { TOKEN_TTL_SECONDS: '600' }, undefined, { clock: () => now });
  const { clientId, clientSecret } = api.credentials;
  const issued = await token(api, { grant_type: 'client_credentials' }, basic(clientId, clientSecret));
  assert.equal(issued.statusCode, 200);
  const accessToken = issued.json().access_token as string;
  const introspect = async () =>
    (
      await api.request({
        method: 'POST',
        url: '/oauth2/introspect',
        token: null,
        form: { token: accessToken },
        headers: basic(clientId, clientSecret),
      })
    ).json();
  const iat = Math.floor(now / 1000);
  assert.deepEqual(
    { active: true, iat, exp: iat + 600 },
    (({ active, iat, exp }) => ({ active, iat, exp }))(await introspect()),
  );
  assert.equal((await api.request({ url: '/v2/dogs', token: accessToken })).statusCode, 200);
  // Past its lifetime by the app's clock (and past the verifier's recheck): not active, and refused.
  now += 601_000;
  assert.deepEqual(await introspect(), { active: false });
  const refused = await api.request({ url: '/v2/dogs', token: accessToken });
  assert.equal(refused.statusCode, 401);
  assert.match(refused.headers['www-authenticate'] as string, /error="invalid_token"/);
});
