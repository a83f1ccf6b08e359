// The code flow on the portal's real sessions (not the test session of test/auth/code-flow*): a login on the portal
// reaches /oauth2/authorize by its cookie, whose consent form carries the session's CSRF token.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, build } from '../helper.js';
import { newId } from '../../src/storage/ids.js';
import { getPage, logIn, signUp } from './portal-helper.js';
import { authorizeQuery } from '../auth/code-flow-helper.js';

test('a portal login reaches /oauth2/authorize: its consent page, then Allow with the CSRF token gives a code', async (t) => {
  const api = await build(t);
  const owner = api.credentials;
  const clientId = newId();
  await api.storage.grants.createClient({
    id: clientId,
    tenantId: owner.tenantId,
    name: 'Walkies',
    secretHash: '',
    scopes: ['read'],
    type: 'public',
    redirectUris: ['https://app.example/callback'],
  });
  const url = `/oauth2/authorize?${authorizeQuery(clientId)}`;
  // Without a session: the portal's login page, which comes back here.
  const anonymous = await getPage(api, url);
  assert.equal(anonymous.statusCode, 303);
  assert.equal(anonymous.headers.location, `${BASE}/portal/login?next=${encodeURIComponent(url)}`);
  // The login page says it is a step of an app's request, and what comes after it.
  const login = await getPage(api, `/portal/login?next=${encodeURIComponent(url)}`);
  assert.match(login.body, /An app asks to use your account's data\. Log in first; the next page names the\napp/);
  assert.doesNotMatch((await getPage(api, '/portal/login')).body, /An app asks/);
  await signUp(api, 'ann@example.com');
  const cookie = await logIn(api, 'ann@example.com');
  const consent = await getPage(api, url, cookie);
  assert.equal(consent.statusCode, 200, consent.body);
  assert.match(consent.body, /Walkies/);
  assert.match(consent.body, /assets\/portal\.css/);
  const query = Object.fromEntries(new URL(url, 'http://x').searchParams);
  const refused = await api.request({
    method: 'POST',
    url: '/oauth2/authorize',
    headers: { cookie },
    token: null,
    form: { ...query, csrf_token: 'forged', decision: 'allow' },
  });
  assert.equal(refused.statusCode, 403);
  const allowed = await api.request({
    method: 'POST',
    url: '/oauth2/authorize',
    headers: { cookie },
    token: null,
    form: { ...query, csrf_token: consentToken(consent.body), decision: 'allow' },
  });
  assert.equal(allowed.statusCode, 302, allowed.body);
  assert.match(String(allowed.headers.location), /^https:\/\/app\.example\/callback\?code=[^&]+&state=st-123$/);
});

/** The CSRF token the consent form carries (the session's, from the portal's own sessions). */
function consentToken(html: string): string {
  const token = /name="csrf_token" value="([^"]+)"/.exec(html)?.[1];
  assert.ok(token, 'the consent page has a CSRF token');
  return token;
}
