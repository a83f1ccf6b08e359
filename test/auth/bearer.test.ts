import { test } from 'node:test';
import assert from 'node:assert/strict';
import { secretHash } from '../../src/auth/secrets.js';
import { build, createDog, newAccount } from '../helper.js';

test('without a token an API operation is a 401 with a Bearer challenge', async (t) => {
  const api = await build(t);
  const response = await api.request({ url: '/v1/dogs', token: null });
  assert.equal(response.statusCode, 401);
  assert.equal(response.headers['www-authenticate'], 'Bearer realm="Dog Registry"');
  assert.equal(response.json().code, 5000);
  assert.match(response.json().more_info, /\/errors\/5000$/);
});

test('an unknown, tampered, expired or revoked token is a 401 with error="invalid_token"', async (t) => {
  const api = await build(t);
  const { token, tenantId, clientId } = api.credentials;
  const expired = 'expired-token-value';
  const past = Math.floor(Date.now() / 1000) - 10;
  await api.storage.auth.saveToken({
    tokenHash: secretHash(expired),
    tenantId,
    clientId,
    scopes: ['read', 'write'],
    issuedAt: past - 3600,
    expiresAt: past,
    revoked: false,
  });
  const tampered = token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA');
  for (const bad of ['not-a-token', tampered, expired]) {
    const response = await api.request({ url: '/v1/dogs', token: bad });
    assert.equal(response.statusCode, 401, bad);
    assert.match(String(response.headers['www-authenticate']), /^Bearer realm="Dog Registry", error="invalid_token"/);
    assert.equal(response.json().code, 5001);
  }
});

test('scopes are independent: a write-only token cannot GET, a read-only one cannot write, overrides included', async (t) => {
  const api = await build(t);
  const dog = await createDog(api, { name: 'Rex' });
  const readOnly = await newAccount(api.app, api.storage, ['read']);
  const writeOnly = await newAccount(api.app, api.storage, ['write']);
  const denied = await api.request({ url: '/v1/dogs', token: writeOnly.token });
  assert.equal(denied.statusCode, 403);
  assert.match(String(denied.headers['www-authenticate']), /error="insufficient_scope".*scope="read"/);
  assert.equal(denied.json().code, 5002);
  assert.equal(
    (await api.request({ method: 'POST', url: '/v1/dogs', form: { name: 'W' }, token: writeOnly.token })).statusCode,
    200,
  );
  assert.equal((await api.request({ url: '/v1/dogs', token: readOnly.token })).statusCode, 200);
  for (const request of [
    { method: 'POST' as const, url: '/v1/dogs', form: { name: 'X' } },
    { url: `/v1/dogs?method=post&name=X` },
    { url: `/v1/dogs/${dog.id}?method=delete` },
  ]) {
    const response = await api.request({ ...request, token: readOnly.token });
    assert.equal(response.statusCode, 403, request.url);
    assert.match(String(response.headers['www-authenticate']), /scope="write"/);
  }
});

test('the token may come as access_token in the query string or a form body, but only one way', async (t) => {
  const api = await build(t);
  const { token } = api.credentials;
  assert.equal((await api.request({ url: `/v1/dogs?access_token=${token}`, token: null })).statusCode, 200);
  const viaForm = await api.request({
    method: 'POST',
    url: '/v1/dogs',
    token: null,
    form: { name: 'Rex', access_token: token },
  });
  assert.equal(viaForm.statusCode, 200);
  const twice = await api.request({ url: `/v1/dogs?access_token=${token}` });
  assert.equal(twice.statusCode, 400);
  assert.equal(twice.json().code, 5004);
  assert.match(String(twice.headers['www-authenticate']), /^Bearer realm="Dog Registry", error="invalid_request"/);
});

test('a JSON body carries no token (RFC 6750 §2.2): its access_token is ignored, and a 401 without one says so', async (t) => {
  const api = await build(t);
  const { token } = api.credentials;
  const alone = await api.request({
    method: 'POST',
    url: '/v2/dogs',
    token: null,
    json: { name: 'Rex', access_token: token },
  });
  assert.equal(alone.statusCode, 401);
  assert.equal(alone.json().code, 5000);
  assert.match(
    alone.json().message,
    /^The access_token field of a JSON body is not read: RFC 6750 takes a token from a form body only\. .*Authorization: Bearer/,
  );
  // With a token in the header, the field is one of SPEC §1's control parameters: ignored, not a token sent twice.
  const withHeader = await api.request({ method: 'POST', url: '/v2/dogs', json: { name: 'Rex', access_token: 'x' } });
  assert.equal(withHeader.statusCode, 201, withHeader.body);
  const plain = await api.request({ method: 'POST', url: '/v2/dogs', token: null, json: { name: 'Rex' } });
  assert.match(plain.json().message, /^This operation needs an access token/);
});

test('a token given twice in one place is a 400, never an unknown token', async (t) => {
  const api = await build(t);
  const { token } = api.credentials;
  const inQuery = await api.request({ url: `/v1/dogs?access_token=${token}&access_token=${token}`, token: null });
  assert.equal(inQuery.statusCode, 400);
  assert.equal(inQuery.json().code, 2009);
  const challenge =
    'Bearer realm="Dog Registry", error="invalid_request", error_description="Send the access token once, one way"';
  assert.equal(inQuery.headers['www-authenticate'], challenge);
  const inForm = await api.request({
    method: 'POST',
    url: '/v1/dogs',
    token: null,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `name=Rex&access_token=${token}&access_token=${token}`,
  });
  assert.equal(inForm.statusCode, 400);
  assert.equal(inForm.json().code, 5004);
  assert.match(inForm.json().message, /^The access token was sent more than once\./);
  assert.equal(inForm.headers['www-authenticate'], challenge);
  assert.equal((await api.request({ url: '/v1/dogs/count' })).json().count, 0);
});

test('a form body token is read whatever the case of its media type (RFC 9110 §8.3.1)', async (t) => {
  const api = await build(t);
  const { token } = api.credentials;
  const form = (headers: Record<string, string>) =>
    api.request({
      method: 'POST',
      url: '/v1/dogs',
      token: null,
      headers: { 'content-type': 'Application/X-WWW-Form-URLEncoded; Charset=UTF-8', ...headers },
      body: `name=Rex&access_token=${token}`,
    });
  const created = await form({});
  assert.equal(created.statusCode, 200);
  assert.equal(created.json().dog.name, 'Rex');
  // With the header as well, the token came two ways.
  const both = await form({ authorization: `Bearer ${token}` });
  assert.equal(both.statusCode, 400);
  assert.equal(both.json().code, 5004);
  assert.equal((await api.request({ url: '/v1/dogs/count' })).json().count, 1);
});

test('suppress_response_codes applies to 401 and 403 too', async (t) => {
  const api = await build(t);
  const response = await api.request({ url: '/v1/dogs.xml?suppress_response_codes=true', token: null });
  assert.equal(response.statusCode, 200);
  assert.match(response.body, /<error><response_code>401<\/response_code>/);
  const writeOnly = await newAccount(api.app, api.storage, ['write']);
  const scoped = await api.request({ url: '/v1/dogs?suppress_response_codes=true', token: writeOnly.token });
  assert.equal(scoped.json().response_code, '403');
});

test('the order of checks: route and method before the token, the token before parameters and body', async (t) => {
  const api = await build(t);
  assert.equal((await api.request({ url: '/v1/cats', token: null })).statusCode, 404);
  assert.equal((await api.request({ url: '/v9/dogs', token: null })).statusCode, 404);
  assert.equal((await api.request({ method: 'PATCH', url: '/v1/dogs', token: null })).statusCode, 400);
  const params = await api.request({ url: '/v1/dogs?limit=0', token: null });
  assert.equal(params.statusCode, 401);
  const body = await api.request({ method: 'POST', url: '/v1/dogs', json: { bogus: 1 }, token: null });
  assert.equal(body.statusCode, 401);
  const missing = await api.request({ url: '/v1/dogs/nothere', token: null });
  assert.equal(missing.statusCode, 401);
});

test('the portal, the infrastructure and the OAuth endpoints need no token', async (t) => {
  const api = await build(t);
  for (const url of [
    '/healthz',
    '/portal/errors',
    '/portal/openapi/v2.json',
    '/.well-known/oauth-authorization-server',
    '/portal/signup',
  ]) {
    assert.equal((await api.request({ url, token: null })).statusCode, 200, url);
  }
});

test('an access token sent in the query string never reaches the log', async (t) => {
  const { Writable } = await import('node:stream');
  const { buildApp } = await import('../../src/app.js');
  const { loadConfig } = await import('../../src/config.js');
  const { SqliteStorage } = await import('../../src/storage/sqlite/sqlite-storage.js');
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const storage = new SqliteStorage(':memory:');
  await storage.migrate();
  const app = await buildApp(loadConfig({ LOG_LEVEL: 'info' }), { storage, logger: { level: 'info', stream } });
  t.after(() => app.close());
  const { token } = await newAccount(app, storage);
  const response = await app.inject({ url: `/v1/dogs?limit=1&access_token=${token}` });
  assert.equal(response.statusCode, 200);
  // The query parser reads access%5Ftoken as access_token: so does the mask.
  const escaped = await app.inject({ url: `/v1/dogs/count?access%5Ftoken=${token}` });
  assert.equal(escaped.statusCode, 200);
  const log = lines.join('');
  assert.ok(log.includes('/v1/dogs?limit=1&access_token=***'), 'the URL is logged, with the token masked');
  assert.ok(log.includes('/v1/dogs/count?access%5Ftoken=***'), 'an escaped name is masked too');
  assert.ok(!log.includes(token), 'the token itself is not logged');
});
