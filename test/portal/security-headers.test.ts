import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { build } from '../helper.js';
import { getPage, logIn, PASSWORD, postLogin, signUp } from './portal-helper.js';

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "frame-ancestors 'none'; form-action 'self'; base-uri 'none'; object-src 'none'";

function assertSecured(response: LightMyRequestResponse, what: string, csp = CSP): void {
  assert.equal(response.headers['content-security-policy'], csp, what);
  assert.equal(response.headers['x-content-type-options'], 'nosniff', what);
  assert.equal(response.headers['referrer-policy'], 'strict-origin-when-cross-origin', what);
}

test('every kind of portal page carries the CSP, nosniff and Referrer-Policy', async (t) => {
  const api = await build(t);
  await signUp(api, 'ann@example.com');
  const cookie = await logIn(api, 'ann@example.com');
  const pages: Array<[string, LightMyRequestResponse, number]> = [
    ['home', await getPage(api, '/portal'), 200],
    ['home, logged in', await getPage(api, '/portal/', cookie), 200],
    ['errors', await getPage(api, '/portal/errors'), 200],
    ['one error', await getPage(api, '/portal/errors/1002'), 200],
    ['unknown error code', await getPage(api, '/portal/errors/99999'), 404],
    ['versions', await getPage(api, '/portal/versions'), 200],
    ['changelog', await getPage(api, '/portal/changelog'), 200],
    ['signup form', await getPage(api, '/portal/signup'), 200],
    ['login form', await getPage(api, '/portal/login'), 200],
    ['dashboard', await getPage(api, '/portal/dashboard', cookie), 200],
    ['dashboard redirect', await getPage(api, '/portal/dashboard'), 303],
    ['404 page', await getPage(api, '/portal/no/such/page'), 404],
    ['wrong method page', await api.request({ method: 'DELETE', url: '/portal/errors', token: null }), 400],
    ['failed login', await postLogin(api, { email: 'ann@example.com', password: 'wrong' }), 400],
    [
      'signup error',
      await api.request({
        method: 'POST',
        url: '/portal/signup',
        form: { email: 'ann@example.com', password: PASSWORD, appName: 'x' },
        headers: { accept: 'text/html' },
        token: null,
      }),
      400,
    ],
    [
      'CSRF refusal',
      await api.app.inject({ method: 'POST', url: '/portal/logout', headers: { cookie }, payload: '' }),
      403,
    ],
    ['OpenAPI document', await getPage(api, '/portal/openapi/v2.json'), 200],
  ];
  for (const [what, response, status] of pages) {
    assert.equal(response.statusCode, status, what);
    assertSecured(response, what);
  }
});

test('a page shown to a session is no-store; the same page without one is not', async (t) => {
  const api = await build(t);
  await signUp(api, 'ann@example.com');
  const cookie = await logIn(api, 'ann@example.com');
  for (const url of ['/portal', '/portal/errors', '/portal/versions', '/portal/dashboard']) {
    const page = await getPage(api, url, cookie);
    assert.equal(page.headers['cache-control'], 'no-store', url);
    assert.match(page.body, /<form method="post" action="\/portal\/logout" class="inline">/, url);
    assert.match(page.body, /href="\/portal\/dashboard">Dashboard</, url);
  }
  const missing = await getPage(api, '/portal/no/such/page', cookie);
  assert.equal(missing.statusCode, 404);
  assert.equal(missing.headers['cache-control'], 'no-store');
  assert.match(missing.body, /action="\/portal\/logout"/, 'the 404 page knows the session too');
  const anonymous = await getPage(api, '/portal/errors');
  assert.equal(anonymous.headers['cache-control'], undefined);
  assert.match(anonymous.body, /href="\/portal\/login">Log in</);
  assert.doesNotMatch(anonymous.body, /logout/);
  // A cookie of no session (ended, forged) is a visitor without one.
  const stale = await getPage(api, '/portal/errors', 'portal_session=made-up');
  assert.equal(stale.statusCode, 200);
  assert.doesNotMatch(stale.body, /logout/);
});

test('with the API on another host, pages may also fetch from it (the reference page tries requests)', async (t) => {
  const api = await build(t, { PORTAL_URL: 'http://developer.test' });
  const errors = await api.request({ url: '/errors', token: null, headers: { host: 'developer.test' } });
  assert.equal(errors.statusCode, 200);
  assertSecured(
    errors,
    'errors on the portal host',
    CSP.replace("connect-src 'self'", "connect-src 'self' http://api.test"),
  );
});

test('pages load nothing from other hosts and no inline script or style', async (t) => {
  const api = await build(t);
  for (const url of ['/portal', '/portal/signup', '/portal/login', '/portal/errors', '/portal/versions']) {
    const { body } = await getPage(api, url);
    assert.doesNotMatch(body, /<script|<style|\sstyle=|\son[a-z]+=/i, url);
    for (const [, link] of body.matchAll(/(?:href|src|action)="([^"]*)"/g))
      assert.ok(link!.startsWith('/') || link!.startsWith('#'), `${url} links ${link}`);
    assert.match(body, /<link rel="stylesheet" href="\/portal\/assets\/portal\.css\?v=\w+">/, url);
    assert.match(body, /<link rel="icon" href="\/portal\/favicon\.svg\?v=\w+" type="image\/svg\+xml">/, url);
    assert.match(body, /<meta name="viewport" content="width=device-width, initial-scale=1">/, url);
  }
});
