// SPEC §12's rules for every page, where security-headers.test.ts does not reach: the pages of the dashboard's actions
// and of /oauth2/authorize (login on the way, consent, error, refused, wrong method) carry the security headers and
// no-store; a wrong method on any portal path is a 400 page with Allow.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { build, type TestApp } from '../helper.js';
import { newId } from '../../src/storage/ids.js';
import { authorizeQuery } from '../auth/code-flow-helper.js';
import { postForm, shownCredentials } from './apps-helper.js';
import { getPage, logIn, signUp } from './portal-helper.js';

/** SPEC §12: the three headers; the CSP with frame-ancestors 'none' and no inline script. */
function assertPageRules(response: LightMyRequestResponse, what: string): void {
  assert.match(String(response.headers['content-type']), /^text\/html; charset=utf-8/, what);
  const csp = String(response.headers['content-security-policy']);
  assert.match(csp, /(^|; )frame-ancestors 'none'(;|$)/, what);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/, what);
  assert.match(csp, /(^|; )(script-src|default-src) '(self|none)'/, what);
  assert.equal(response.headers['x-content-type-options'], 'nosniff', what);
  assert.match(String(response.headers['referrer-policy']), /^(no-referrer|strict-origin-when-cross-origin)$/, what);
  assert.match(response.body, /^<!doctype html>/, what);
}

function assertNoStore(response: LightMyRequestResponse, what: string): void {
  assert.equal(response.headers['cache-control'], 'no-store', what);
}

async function publicApp(api: TestApp, name: string): Promise<string> {
  const id = newId();
  await api.storage.grants.createClient({
    id,
    tenantId: api.credentials.tenantId,
    name,
    secretHash: '',
    scopes: ['read'],
    type: 'public',
    redirectUris: ['https://app.example/callback'],
  });
  return id;
}

test('the dashboard action pages carry the security headers and are no-store', async (t) => {
  const api = await build(t);
  await signUp(api, 'ann@example.com');
  const cookie = await logIn(api, 'ann@example.com');
  const created = await postForm(api, 'apps', cookie, {
    name: 'Fetch',
    redirect_uris: 'https://fetch.example/cb',
    scopes: 'read',
    type: 'confidential',
  });
  const { clientId } = shownCredentials(created.body);
  const pages: Array<[string, LightMyRequestResponse, number]> = [
    ['app created', created, 201],
    ['create refused', await postForm(api, 'apps', cookie, { name: '', type: 'public' }), 400],
    ['secret rotated', await postForm(api, 'apps/rotate', cookie, { client_id: clientId }), 200],
    ['not yours', await postForm(api, 'apps/rotate', cookie, { client_id: newId() }), 404],
    ['CSRF refused', await postForm(api, 'apps/delete', cookie, { client_id: clientId }, 'forged'), 403],
    ['app deleted', await postForm(api, 'apps/delete', cookie, { client_id: clientId }), 200],
    ['login form, logged in elsewhere', await getPage(api, '/portal/login?next=/portal/versions'), 200],
  ];
  for (const [what, response, status] of pages) {
    assert.equal(response.statusCode, status, what);
    assertPageRules(response, what);
    assertNoStore(response, what);
  }
});

test('every page of /oauth2/authorize carries the security headers and is no-store', async (t) => {
  const api = await build(t);
  const clientId = await publicApp(api, 'Walkies');
  await signUp(api, 'ann@example.com');
  const url = `/oauth2/authorize?${authorizeQuery(clientId)}`;
  // Without a session: to the login page, which is itself a page of the flow.
  const away = await getPage(api, url);
  assert.equal(away.statusCode, 303);
  assertNoStore(away, 'the redirect to the login');
  const login = await getPage(api, String(away.headers.location).replace(/^https?:\/\/[^/]+/, ''));
  const cookie = await logIn(api, 'ann@example.com');
  const consent = await getPage(api, url, cookie);
  assert.match(consent.body, /Walkies/);
  const pages: Array<[string, LightMyRequestResponse, number]> = [
    ['login on the way', login, 200],
    ['consent', consent, 200],
    ['unknown client', await getPage(api, `/oauth2/authorize?${authorizeQuery(newId())}`, cookie), 400],
    [
      'unregistered redirect_uri',
      await getPage(api, `/oauth2/authorize?${authorizeQuery(clientId, { redirect_uri: 'https://evil.example/' })}`),
      400,
    ],
    [
      'decision without the CSRF token',
      await api.request({
        method: 'POST',
        url: '/oauth2/authorize',
        headers: { cookie },
        token: null,
        form: { ...Object.fromEntries(authorizeQuery(clientId)), decision: 'allow' },
      }),
      403,
    ],
    ['wrong method', await api.request({ method: 'PUT', url, headers: { cookie }, token: null }), 400],
  ];
  for (const [what, response, status] of pages) {
    assert.equal(response.statusCode, status, what);
    assertPageRules(response, what);
    assertNoStore(response, what);
  }
  assert.equal(pages.at(-1)![1].headers.allow, 'GET, HEAD, POST');
});

test('a wrong method on any portal path answers a 400 page with Allow', async (t) => {
  const api = await build(t);
  await signUp(api, 'ann@example.com');
  const cookie = await logIn(api, 'ann@example.com');
  const paths: Array<[string, string, string]> = [
    ['DELETE', '/portal', 'GET, HEAD'],
    ['PUT', '/portal/login', 'GET, HEAD, POST'],
    ['GET', '/portal/logout', 'POST'],
    ['POST', '/portal/dashboard', 'GET, HEAD'],
    ['GET', '/portal/dashboard/apps', 'POST'],
    ['GET', '/portal/dashboard/apps/rotate', 'POST'],
    ['PATCH', '/portal/dashboard/apps/delete', 'POST'],
    ['POST', '/portal/versions', 'GET, HEAD'],
    ['POST', '/portal/changelog', 'GET, HEAD'],
    ['DELETE', '/portal/signup', 'GET, HEAD, POST'],
    ['POST', '/portal/reference', 'GET, HEAD'],
    ['PUT', '/portal/errors/1002', 'GET, HEAD'],
  ];
  for (const [method, url, allow] of paths) {
    for (const session of [undefined, cookie]) {
      const what = `${method} ${url}${session ? ' (logged in)' : ''}`;
      const response = await api.request({
        method: method as 'GET',
        url,
        token: null,
        headers: { accept: 'text/html', ...(session ? { cookie: session } : {}) },
      });
      assert.equal(response.statusCode, 400, what);
      assert.equal(response.headers.allow, allow, what);
      assertPageRules(response, what);
      assert.match(response.body, /<h1>[^<]+<\/h1>/, what);
      if (session) assertNoStore(response, what);
    }
  }
});

test("a portal form the service cannot read answers a browser a page, and sign-up's API clients the catalogue's JSON", async (t) => {
  const api = await build(t);
  const big = `email=ann%40example.com&password=${'a'.repeat(20 * 1024)}`;
  const html = { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html,application/xhtml+xml' };
  for (const [url, body, code] of [
    ['/portal/login', big, 3001],
    ['/portal/signup', big, 3001],
    ['/portal/login', 'email=you%FF@example.com&password=x', 3000],
  ] as const) {
    const page = await api.request({ method: 'POST', url, headers: html, body, token: null });
    assert.equal(page.statusCode, 400, url);
    assert.match(String(page.headers['content-type']), /^text\/html/, url);
    assert.match(String(page.headers['content-security-policy']), /frame-ancestors 'none'/, url);
    assert.match(page.body, /<p class="alert" role="alert">/, url);
    assert.ok(page.body.includes(`<a href="/portal/errors/${code}">error ${code}</a>`), url);
  }
  const json = await api.request({
    method: 'POST',
    url: '/portal/signup',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: big,
    token: null,
  });
  assert.equal(json.statusCode, 400);
  assert.equal(json.json().code, 3001);
});
