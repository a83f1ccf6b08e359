// Security in the documents: the implemented OAuth flow and its endpoints, 401/403 answers and the rate-limit headers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build, newAccount } from '../helper.js';
import { assertMatches, fetchDocument, operationsOf, resolve, schemaValidators } from './document-helper.js';

test('the security scheme describes the client credentials and code flows, and points to the RFC 8414 metadata', async (t) => {
  const { components } = await fetchDocument(await build(t), 2);
  const { oauth2 } = components.securitySchemes;
  assert.deepEqual(Object.keys(oauth2.flows), ['clientCredentials', 'authorizationCode']);
  assert.equal(oauth2.flows.clientCredentials.tokenUrl, 'http://api.test/oauth2/token');
  assert.deepEqual(Object.keys(oauth2.flows.clientCredentials.scopes), ['read', 'write']);
  assert.deepEqual(oauth2.flows.authorizationCode, {
    authorizationUrl: 'http://api.test/oauth2/authorize',
    tokenUrl: 'http://api.test/oauth2/token',
    refreshUrl: 'http://api.test/oauth2/token',
    scopes: oauth2.flows.clientCredentials.scopes,
  });
  assert.ok(oauth2.description.includes('http://api.test/.well-known/oauth-authorization-server'));
});

test('every versioned operation but the open one needs a token with its scope, and documents 401, 403 and the rate-limit headers', async (t) => {
  const document = await fetchDocument(await build(t), 2);
  for (const [path, method, operation] of operationsOf(document)) {
    if (document.paths[path].servers || method === 'options') continue;
    const what = `${method} ${path}`;
    if (path.startsWith('/adoptions')) {
      assert.deepEqual(operation.security, [], what);
    } else {
      const scope = method === 'get' ? 'read' : 'write';
      assert.deepEqual(operation.security, [{ oauth2: [scope] }, { accessToken: [scope] }], what);
      assert.ok(resolve(document, operation.responses['401']).headers['WWW-Authenticate'], `${what} 401`);
      assert.ok(resolve(document, operation.responses['403']).headers['WWW-Authenticate'], `${what} 403`);
    }
    const forbidden = resolve(document, operation.responses['403']);
    for (const header of ['Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'])
      assert.ok(forbidden.headers[header], `${what} 403 ${header}`);
    for (const [status, response] of Object.entries(operation.responses)) {
      if (Number(status) >= 400) continue;
      for (const header of ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'])
        assert.ok(resolve(document, response as object).headers[header], `${what} ${status} ${header}`);
    }
  }
});

test('live 401, 403 and rate-limited answers carry the documented headers and error body', async (t) => {
  const api = await build(t, { RATE_LIMIT_PER_MINUTE: '1' });
  const document = await fetchDocument(api, 2);
  const error = schemaValidators(document)('Error');
  const first = await api.request({ url: '/v2/dogs' });
  assert.equal(first.statusCode, 200);
  for (const header of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'])
    assert.match(String(first.headers[header]), /^\d+$/, header);
  const limited = await api.request({ url: '/v2/dogs' });
  assert.equal(limited.statusCode, 403);
  assert.match(String(limited.headers['retry-after']), /^\d+$/);
  assertMatches(error, limited.json(), 'rate limited');
  const missing = await api.request({ url: '/v2/dogs', token: null });
  assert.equal(missing.statusCode, 401);
  assert.match(String(missing.headers['www-authenticate']), /^Bearer /);
  assertMatches(error, missing.json(), 'no token');
  const writeOnly = await newAccount(api.app, api.storage, ['write']);
  const scope = await api.request({ url: '/v2/foods', token: writeOnly.token });
  assert.equal(scope.statusCode, 403);
  assert.match(String(scope.headers['www-authenticate']), /error="insufficient_scope"/);
});

test('the oauth2 scheme agrees with the live RFC 8414 metadata, and a token got as it says opens the API', async (t) => {
  const api = await build(t);
  const { oauth2 } = (await fetchDocument(api, 2)).components.securitySchemes;
  const metadata = (await api.request({ url: '/.well-known/oauth-authorization-server', token: null })).json();
  const flowOf: Record<string, string> = {
    client_credentials: 'clientCredentials',
    authorization_code: 'authorizationCode',
  };
  // A refresh token is no flow of its own in OpenAPI: the code flow's refreshUrl.
  assert.deepEqual(
    Object.keys(oauth2.flows),
    metadata.grant_types_supported
      .filter((grant: string) => grant !== 'refresh_token')
      .map((grant: string) => flowOf[grant]),
  );
  assert.equal(oauth2.flows.authorizationCode.authorizationUrl, metadata.authorization_endpoint);
  assert.equal(oauth2.flows.authorizationCode.refreshUrl, metadata.token_endpoint);
  assert.equal(oauth2.flows.clientCredentials.tokenUrl, metadata.token_endpoint);
  assert.deepEqual(Object.keys(oauth2.flows.clientCredentials.scopes), metadata.scopes_supported);
  for (const url of [metadata.token_endpoint, metadata.revocation_endpoint, metadata.introspection_endpoint])
    assert.ok(oauth2.description.includes(url), url);
  const { clientId, clientSecret } = api.credentials;
  const basic = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
  const path = new URL(oauth2.flows.clientCredentials.tokenUrl).pathname;
  const token = await api.request({
    method: 'POST',
    url: path,
    token: null,
    headers: { authorization: basic },
    form: { grant_type: 'client_credentials', scope: 'read' },
  });
  assert.equal(token.statusCode, 200, token.body);
  assert.equal(token.headers['cache-control'], 'no-store');
  assert.deepEqual(Object.keys(token.json()).sort(), ['access_token', 'expires_in', 'scope', 'token_type']);
  for (const key of ['access_token', 'token_type', 'expires_in', 'scope'])
    assert.ok(oauth2.description.includes(`"${key}"`), key);
  assert.equal((await api.request({ url: '/v2/dogs', token: token.json().access_token })).statusCode, 200);
  const wrong = await api.request({
    method: 'POST',
    url: path,
    token: null,
    form: { grant_type: 'client_credentials', client_id: clientId, client_secret: 'wrong' },
  });
  assert.deepEqual(Object.keys(wrong.json()).sort(), ['error', 'error_description']);
});
