import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build } from '../helper.js';
import { safeNext } from '../../src/portal/portal-context.js';
import { getPage, logIn, PASSWORD, postLogin, signUp } from './portal-helper.js';

test('a page that needs a session sends the browser to log in (303), and the login brings it back', async (t) => {
  const api = await build(t);
  await signUp(api, 'ann@example.com');
  const away = await getPage(api, '/portal/dashboard?tab=apps');
  assert.equal(away.statusCode, 303);
  assert.equal(away.headers.location, '/portal/login?next=%2Fportal%2Fdashboard%3Ftab%3Dapps');
  assert.equal(away.headers['cache-control'], 'no-store');
  const form = await getPage(api, away.headers.location);
  assert.equal(form.statusCode, 200);
  assert.match(form.body, /<input type="hidden" name="next" value="\/portal\/dashboard\?tab=apps">/);
  const back = await postLogin(api, {
    email: 'ann@example.com',
    password: PASSWORD,
    next: '/portal/dashboard?tab=apps',
  });
  assert.equal(back.statusCode, 303);
  assert.equal(back.headers.location, '/portal/dashboard?tab=apps');
});

test('a failed login keeps where the browser was going', async (t) => {
  const api = await build(t);
  const failed = await postLogin(api, { email: 'ann@example.com', password: 'wrong one', next: '/portal/errors' });
  assert.equal(failed.statusCode, 400);
  assert.match(failed.body, /name="next" value="\/portal\/errors"/);
});

test('the login page of a logged-in browser sends it on (303)', async (t) => {
  const api = await build(t);
  await signUp(api, 'ann@example.com');
  const cookie = await logIn(api, 'ann@example.com');
  const page = await getPage(api, '/portal/login?next=%2Fportal%2Fversions', cookie);
  assert.equal(page.statusCode, 303);
  assert.equal(page.headers.location, '/portal/versions');
  assert.equal((await getPage(api, '/portal/login', cookie)).headers.location, '/portal/dashboard');
});

test('no open redirect: a next that leaves the portal is replaced by the dashboard', async (t) => {
  const api = await build(t);
  await signUp(api, 'ann@example.com');
  const outside = [
    'https://evil.example/',
    '//evil.example/portal',
    '/\\evil.example',
    '\\\\evil.example',
    '/portal/../v1/dogs',
    '/portal/%2e%2e/v1/dogs',
    '/v1/dogs',
    '/portalx',
    'javascript:alert(1)',
    '/portal/ok\r\nSet-Cookie: x=y',
    ' /portal',
  ];
  for (const next of outside) {
    const response = await postLogin(api, { email: 'ann@example.com', password: PASSWORD, next });
    assert.equal(response.statusCode, 303, next);
    assert.equal(response.headers.location, '/portal/dashboard', next);
    const form = await getPage(api, `/portal/login?next=${encodeURIComponent(next)}`);
    assert.doesNotMatch(form.body, /name="next"/, next);
  }
});

test('safeNext takes paths under the portal and the authorization endpoint, nothing else', () => {
  const cases: Array<[string, unknown, string | undefined]> = [
    ['/portal', '/portal', '/portal'],
    ['/portal', '/portal/dashboard?x=1#top', '/portal/dashboard?x=1#top'],
    ['/portal', '/oauth2/authorize?client_id=a&state=b', '/oauth2/authorize?client_id=a&state=b'],
    ['/portal', '/oauth2/token', undefined],
    ['/portal', '/portalx/dashboard', undefined],
    ['/portal', '//evil.example', undefined],
    ['/portal', '/\\evil.example', undefined],
    ['/portal', 'https://api.test/portal', undefined],
    ['/portal', '/portal/a/../../v1', undefined],
    ['/portal', ['/portal'], undefined],
    ['/portal', undefined, undefined],
    ['', '/dashboard', '/dashboard'],
    ['', '//evil.example', undefined],
  ];
  for (const [prefix, next, expected] of cases) assert.equal(safeNext(next, prefix), expected, `${prefix} ${next}`);
});
