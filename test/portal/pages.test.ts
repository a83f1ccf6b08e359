import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build, newAccount } from '../helper.js';
import { getPage, logIn, PASSWORD, signUp } from './portal-helper.js';

test('the home quickstart uses the real {base} and {portal}: sign up, token, first call, open adoption list', async (t) => {
  const api = await build(t, { PUBLIC_URL: 'https://dogs.example.org', PORTAL_URL: 'https://dogs.example.org/dev' });
  const home = await api.request({
    url: '/dev',
    token: null,
    headers: { host: 'dogs.example.org', accept: 'text/html' },
  });
  assert.equal(home.statusCode, 200);
  assert.match(home.body, /-d appName=my-app https:\/\/dogs.example.org\/dev\/signup/);
  assert.match(home.body, /grant_type=client_credentials https:\/\/dogs.example.org\/oauth2\/token/);
  // Each step says how to keep what the one before answered.
  assert.match(home.body, /CLIENT_ID='…the clientId…'\nCLIENT_SECRET='…the clientSecret…'/);
  assert.match(home.body, /TOKEN='…the access_token…'/);
  assert.match(home.body, /Bearer \$TOKEN" https:\/\/dogs.example.org\/v2\/dogs/);
  assert.match(home.body, /curl https:\/\/dogs.example.org\/v2\/adoptions/);
  assert.match(home.body, /<header class="site-header">[\s\S]*<nav aria-label="Portal">/);
  assert.match(home.body, /<footer class="site-footer">/);
  // SPEC §12: links to every page; the request log and usage per app are reached from the dashboard.
  const pages = ['/dev/reference', '/dev/errors', '/dev/versions', '/dev/changelog', '/dev/dashboard'];
  for (const link of [...pages, '/dev/openapi/v1.json', '/dev/openapi/v2.json', '/dev/login', '/dev/signup'])
    assert.ok(home.body.includes(`href="${link}"`), link);
});

test('a sign-up error keeps what was typed, never the password', async (t) => {
  const api = await build(t);
  const response = await api.request({
    method: 'POST',
    url: '/portal/signup',
    form: { email: 'ann@example.com', password: 'short "pw"', appName: 'Shelter <app>' },
    headers: { accept: 'text/html' },
    token: null,
  });
  assert.equal(response.statusCode, 400);
  assert.match(response.body, /<p class="alert" role="alert">The password has 10 characters/);
  assert.match(response.body, /name="email" autocomplete="email" required value="ann@example.com"/);
  assert.match(response.body, /name="appName" maxlength="100" required value="Shelter &lt;app&gt;"/);
  assert.doesNotMatch(response.body, /short/);
  assert.match(response.body, /<input id="password" type="password" name="password" [^>]*required>/);
});

test('a sign-up page labels every field, and its success page links to the login', async (t) => {
  const api = await build(t);
  const form = await getPage(api, '/portal/signup');
  for (const id of ['email', 'password', 'appName']) assert.match(form.body, new RegExp(`<label for="${id}">`), id);
  const done = await api.request({
    method: 'POST',
    url: '/portal/signup',
    form: { email: 'ann@example.com', password: PASSWORD, appName: 'Shelter app' },
    headers: { accept: 'text/html' },
    token: null,
  });
  assert.equal(done.statusCode, 200);
  assert.equal(done.headers['cache-control'], 'no-store');
  assert.match(done.body, /<a class="btn" href="\/portal\/login">Log in<\/a>/);
  const login = await getPage(api, '/portal/login');
  for (const id of ['email', 'password']) assert.match(login.body, new RegExp(`<label for="${id}">`), id);
});

test("the dashboard lists the account's apps, never another account's", async (t) => {
  const api = await build(t);
  const { clientId } = await signUp(api, 'ann@example.com');
  await newAccount(api.app, api.storage);
  const cookie = await logIn(api, 'ann@example.com');
  const dashboard = await getPage(api, '/portal/dashboard', cookie);
  assert.equal(dashboard.statusCode, 200);
  assert.equal(dashboard.headers['cache-control'], 'no-store');
  const rows = [
    ...dashboard.body.matchAll(
      /<h3>([^<]*)<\/h3><span class="badge">([^<]*)<\/span><\/div>\n<dl class="app-facts">\n<div><dt>Client id<\/dt><dd><code class="client-id">([^<]*)<\/code><\/dd><\/div>\n<div><dt>Scopes<\/dt><dd>([^<]*)<\/dd>/g,
    ),
  ];
  assert.deepEqual(
    rows.map((row) => row.slice(1)),
    [['Shelter app', 'confidential', clientId, 'read, write']],
  );
  assert.match(dashboard.body, /<time datetime="\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z">/);
  assert.match(dashboard.body, /<h2 id="create-title">Create an app<\/h2>/);
});

test('an unknown portal page is an HTML 404 in the layout, with a link home', async (t) => {
  const api = await build(t);
  const response = await getPage(api, '/portal/settings');
  assert.equal(response.statusCode, 404);
  assert.match(String(response.headers['content-type']), /^text\/html/);
  assert.match(response.body, /<h1>Page not found<\/h1>/);
  assert.match(response.body, /<a href="\/portal">the portal's home page<\/a>/);
  assert.match(response.body, /<link rel="stylesheet" href="\/portal\/assets\/portal\.css/);
});
