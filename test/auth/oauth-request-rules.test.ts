// How the token, revocation and introspection endpoints read a request: an empty parameter is an omitted one (RFC 6749
// §3.2), and whatever the framework refuses before the handler (size, length, media type, Host) answers in RFC shape.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build } from '../helper.js';
import { assertOAuthError, basic, ENDPOINTS, needed, post } from './oauth-assert.js';

test('a parameter sent without a value is treated as omitted at all three endpoints (RFC 6749 §3.2)', async (t) => {
  const api = await build(t);
  const { clientId, clientSecret, token } = api.credentials;
  const credentials = basic(clientId, clientSecret);

  for (const form of [
    'grant_type=client_credentials&scope=',
    'scope=&grant_type=client_credentials&client_id=&client_secret=',
    'grant_type=client_credentials&scope=&state=&refresh_token=',
  ]) {
    const issued = await post(api, '/oauth2/token', form, credentials);
    assert.equal(issued.statusCode, 200, `${form}: ${issued.body}`);
    assert.equal(issued.json().scope, 'read write', form);
  }
  const posted = await post(
    api,
    '/oauth2/token',
    `grant_type=client_credentials&scope=&client_id=${clientId}&client_secret=${clientSecret}`,
  );
  assert.equal(posted.statusCode, 200, posted.body);

  const introspected = await post(
    api,
    '/oauth2/introspect',
    `${needed('/oauth2/introspect', token)}&token_type_hint=&scope=`,
    credentials,
  );
  assert.equal(introspected.json().active, true, introspected.body);
  const revoked = await post(api, '/oauth2/revoke', `${needed('/oauth2/revoke', token)}&token_type_hint=`, credentials);
  assert.equal(revoked.statusCode, 200, revoked.body);
  assert.equal((await api.request({ url: '/v1/dogs', token })).statusCode, 401);

  // Omitted where it is required is still invalid_request; sent twice, even once empty, too.
  for (const url of ENDPOINTS) {
    const name = url === '/oauth2/token' ? 'grant_type' : 'token';
    assertOAuthError(await post(api, url, `${name}=`, credentials), 400, 'invalid_request', `${url}, ${name} empty`);
    const twice = url === '/oauth2/token' ? 'grant_type=client_credentials&scope=&scope=read' : `token=x&token=`;
    assertOAuthError(await post(api, url, twice, credentials), 400, 'invalid_request', `${url}, ${twice}`);
  }
});

test('what the framework refuses before the handler answers in the RFC shape at all three endpoints', async (t) => {
  const api = await build(t);
  const { clientId, clientSecret } = api.credentials;
  const credentials = basic(clientId, clientSecret);
  const large = `x=${'a'.repeat(17 * 1024)}`;
  for (const url of ENDPOINTS) {
    const cases: Array<[string, Parameters<typeof api.request>[0]]> = [
      [
        'a form over 16 KiB',
        { method: 'POST', url, body: large, headers: { 'content-type': 'application/x-www-form-urlencoded' } },
      ],
      [
        'JSON over 16 KiB',
        { method: 'POST', url, body: JSON.stringify({ x: large }), headers: { 'content-type': 'application/json' } },
      ],
      [
        'a wrong method with a body over 16 KiB',
        { method: 'PUT', url, body: large, headers: { 'content-type': 'application/x-www-form-urlencoded' } },
      ],
      [
        'a body shorter than its Content-Length',
        {
          method: 'POST',
          url,
          body: 'token=x',
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': '50' },
        },
      ],
      [
        'a body longer than its Content-Length',
        {
          method: 'POST',
          url,
          body: 'token=x',
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': '3' },
        },
      ],
      [
        'JSON that does not parse',
        { method: 'POST', url, body: '{"token": ', headers: { 'content-type': 'application/json' } },
      ],
      ['a media type not read', { method: 'POST', url, body: 'token=x', headers: { 'content-type': 'text/plain' } }],
      ['an empty Content-Type', { method: 'POST', url, body: 'token=x', headers: { 'content-type': '' } }],
      [
        'a form that does not decode',
        { method: 'POST', url, body: 'token=%zz', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
      ],
      [
        'a Host that is no host',
        {
          method: 'POST',
          url,
          body: 'token=x',
          headers: { 'content-type': 'application/x-www-form-urlencoded', host: 'a b' },
        },
      ],
    ];
    for (const [what, request] of cases) {
      const answer = await api.request({ ...request, token: null, headers: { ...credentials, ...request.headers } });
      assertOAuthError(answer, 400, 'invalid_request', `${url}, ${what}`);
      assert.equal(answer.headers['access-control-allow-origin'], '*', `${url}, ${what}`);
      // The catalogue's words, ASCII from the start: nothing was lost to the RFC's character set (no ? for an é).
      assert.doesNotMatch(answer.json().error_description, /\?/, `${url}, ${what}`);
    }
  }
  const tooLarge = await post(api, '/oauth2/token', large, credentials);
  assert.match(tooLarge.json().error_description, /larger than 16 KiB/);
  // The authorization endpoint answers people (pages and redirects): it keeps the service's own answer.
  const authorize = await api.request({
    method: 'POST',
    url: '/oauth2/authorize',
    token: null,
    body: large,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  assert.equal(authorize.statusCode, 400);
  assert.equal(authorize.json().code, 3001);
});
