import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build } from '../helper.js';
import { SESSION_SECONDS } from '../../src/portal/sessions.js';
import { csrfOf, getPage, logIn, PASSWORD, postLogin, sessionCookie, signUp } from './portal-helper.js';

const EMAIL = 'ann@example.com';

test('a login sets an HttpOnly, SameSite=Lax session cookie on Path=/ and goes to the dashboard (303)', async (t) => {
  const api = await build(t);
  await signUp(api, EMAIL);
  const response = await postLogin(api, { email: ' Ann@Example.com ', password: PASSWORD });
  assert.equal(response.statusCode, 303);
  assert.equal(response.headers.location, '/portal/dashboard');
  assert.equal(response.headers['cache-control'], 'no-store');
  const cookie = String(response.headers['set-cookie']);
  assert.match(cookie, /^portal_session=[A-Za-z0-9_-]{43}; /);
  assert.match(cookie, /; HttpOnly/);
  assert.match(cookie, /; SameSite=Lax/);
  assert.match(cookie, /; Path=\//);
  assert.match(cookie, new RegExp(`; Max-Age=${SESSION_SECONDS}`));
  assert.doesNotMatch(cookie, /Secure/, 'an http portal cannot use a Secure cookie');
  const dashboard = await getPage(api, '/portal/dashboard', sessionCookie(response));
  assert.equal(dashboard.statusCode, 200);
  assert.match(dashboard.body, /Logged in as <strong>ann@example.com<\/strong>/);
});

test('with an https portal the cookie is Secure, under the __Host- prefix', async (t) => {
  const api = await build(t, { PORTAL_URL: 'https://api.test/portal' });
  await signUp(api, EMAIL);
  const response = await postLogin(api, { email: EMAIL, password: PASSWORD });
  assert.equal(response.statusCode, 303);
  const cookie = String(response.headers['set-cookie']);
  assert.match(cookie, /^__Host-portal_session=/);
  assert.match(cookie, /; Secure/);
  assert.match(cookie, /; Path=\//);
  assert.doesNotMatch(cookie, /Domain=/);
});

test('a wrong password and an unknown email get the same answer, status and time', async (t) => {
  const api = await build(t);
  await signUp(api, EMAIL);
  const timed = async (email: string) => {
    const started = process.hrtime.bigint();
    const response = await postLogin(api, { email, password: 'not the password at all' });
    return { response, ms: Number(process.hrtime.bigint() - started) / 1e6 };
  };
  const wrong = [];
  const unknown = [];
  // Alternated, so that a load peak on the machine hits both sides alike; 8 failures stay under the limit of 10.
  for (let i = 0; i < 4; i += 1) {
    wrong.push(await timed(EMAIL));
    unknown.push(await timed('nobody@example.com'));
  }
  const [a, b] = [wrong[0]!.response, unknown[0]!.response];
  assert.equal(a.statusCode, 400);
  assert.equal(b.statusCode, 400);
  assert.equal(a.headers['set-cookie'], undefined);
  assert.equal(b.headers['set-cookie'], undefined);
  assert.equal(a.body.replace(EMAIL, 'EMAIL'), b.body.replace('nobody@example.com', 'EMAIL'));
  assert.match(a.body, /The email or the password is not right/);
  assert.match(a.body, /value="ann@example.com"/, 'the form keeps the email');
  const mean = (runs: Array<{ ms: number }>) => runs.reduce((sum, run) => sum + run.ms, 0) / runs.length;
  const ratio = mean(unknown) / mean(wrong);
  // Without the scrypt run for an unknown email, it answers some 50 times faster.
  assert.ok(ratio > 0.33 && ratio < 3, `unknown email ${mean(unknown)} ms, wrong password ${mean(wrong)} ms`);
});

test('over 10 failed logins a minute for one email answer 403 with Retry-After, the right password too', async (t) => {
  const api = await build(t);
  await signUp(api, EMAIL);
  for (let i = 0; i < 10; i += 1) {
    const failed = await postLogin(api, { email: EMAIL, password: `guess number ${i}` }, undefined, `198.51.100.${i}`);
    assert.equal(failed.statusCode, 400);
  }
  const refused = await postLogin(api, { email: EMAIL, password: PASSWORD }, undefined, '198.51.100.200');
  assert.equal(refused.statusCode, 403);
  const wait = Number(refused.headers['retry-after']);
  assert.ok(wait >= 1 && wait <= 60, `Retry-After ${wait}`);
  assert.match(String(refused.headers['content-type']), /^text\/html/);
  assert.match(refused.body, /Too many attempts/);
  assert.equal(refused.headers['set-cookie'], undefined);
  // Another account is not held up by this one's failures.
  await signUp(api, 'bea@example.com');
  assert.equal((await postLogin(api, { email: 'bea@example.com', password: PASSWORD })).statusCode, 303);
});

test('over 10 failed logins a minute from one address answer 403, whatever the email', async (t) => {
  const api = await build(t);
  await signUp(api, EMAIL);
  for (let i = 0; i < 10; i += 1)
    assert.equal((await postLogin(api, { email: `x${i}@example.com`, password: 'wrong guess' })).statusCode, 400);
  const refused = await postLogin(api, { email: EMAIL, password: PASSWORD });
  assert.equal(refused.statusCode, 403);
  assert.ok(Number(refused.headers['retry-after']) >= 1);
  assert.equal((await postLogin(api, { email: EMAIL, password: PASSWORD }, undefined, '192.0.2.1')).statusCode, 303);
});

test('every login makes a new session id, and the one the browser had stops working', async (t) => {
  const api = await build(t);
  await signUp(api, EMAIL);
  const first = await logIn(api, EMAIL);
  const again = await postLogin(api, { email: EMAIL, password: PASSWORD }, first);
  assert.equal(again.statusCode, 303);
  const second = sessionCookie(again);
  assert.notEqual(second, first);
  assert.equal((await getPage(api, '/portal/dashboard', first)).statusCode, 303, 'the old id is ended');
  assert.equal((await getPage(api, '/portal/dashboard', second)).statusCode, 200);
  // A second browser's session is its own: a login elsewhere does not end it.
  const other = await logIn(api, EMAIL);
  assert.equal((await getPage(api, '/portal/dashboard', second)).statusCode, 200);
  assert.equal((await getPage(api, '/portal/dashboard', other)).statusCode, 200);
});

test('the session id is stored only as a hash', async (t) => {
  const api = await build(t);
  await signUp(api, EMAIL);
  const cookie = await logIn(api, EMAIL);
  const id = cookie.split('=')[1]!;
  const { secretHash } = await import('../../src/auth/secrets.js');
  const found = await api.storage.sessions.findSession(secretHash(id), Math.floor(Date.now() / 1000));
  assert.ok(found);
  assert.equal(found.expiresAt - found.createdAt, SESSION_SECONDS);
  assert.equal(await api.storage.sessions.findSession(id, Math.floor(Date.now() / 1000)), undefined);
  assert.equal(await api.storage.sessions.findSession(secretHash(id), found.expiresAt), undefined, 'expired');
});

test('logout with the CSRF token ends the session on the server and goes home (303)', async (t) => {
  const api = await build(t);
  await signUp(api, EMAIL);
  const cookie = await logIn(api, EMAIL);
  const dashboard = await getPage(api, '/portal/dashboard', cookie);
  const response = await api.app.inject({
    method: 'POST',
    url: '/portal/logout',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: `csrf=${encodeURIComponent(csrfOf(dashboard.body))}`,
  });
  assert.equal(response.statusCode, 303);
  assert.equal(response.headers.location, '/portal');
  assert.match(String(response.headers['set-cookie']), /^portal_session=; Max-Age=0; .*Path=\//);
  // The browser's cookie, kept (a copy, or a browser that ignores the deletion), no longer opens anything.
  const after = await getPage(api, '/portal/dashboard', cookie);
  assert.equal(after.statusCode, 303);
  assert.equal(after.headers.location, '/portal/login?next=%2Fportal%2Fdashboard');
  // Logging out again (a second tab) has nothing to end: home, and no cookie is set.
  const twice = await api.app.inject({ method: 'POST', url: '/portal/logout', headers: { cookie }, payload: '' });
  assert.equal(twice.statusCode, 303);
  assert.equal(twice.headers.location, '/portal');
  assert.equal(twice.headers['set-cookie'], undefined);
});

test('logout comes back to the page it was sent from, unless that page needs a session (SPEC §8)', async (t) => {
  const api = await build(t);
  await signUp(api, EMAIL);
  const cases: Array<[string, string]> = [
    ['/portal/errors/2001', '/portal/errors/2001'],
    ['/portal/reference/v1', '/portal/reference/v1'],
    ['/portal/dashboard', '/portal'],
  ];
  for (const [from, to] of cases) {
    const cookie = await logIn(api, EMAIL);
    const page = await getPage(api, from, cookie);
    // The header's logout form carries the page's own path.
    const next = /<input type="hidden" name="next" value="([^"]*)"><button type="submit" class="link"/.exec(
      page.body,
    )?.[1];
    assert.equal(next, from);
    const response = await api.app.inject({
      method: 'POST',
      url: '/portal/logout',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `csrf=${encodeURIComponent(csrfOf(page.body))}&next=${encodeURIComponent(next!)}`,
    });
    assert.equal(response.statusCode, 303);
    assert.equal(response.headers.location, to, from);
  }
  // Never to another host, whatever the form says.
  const cookie = await logIn(api, EMAIL);
  const page = await getPage(api, '/portal/errors', cookie);
  const away = await api.app.inject({
    method: 'POST',
    url: '/portal/logout',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: `csrf=${encodeURIComponent(csrfOf(page.body))}&next=${encodeURIComponent('//evil.example/')}`,
  });
  assert.equal(away.headers.location, '/portal');
});

test('a logout without the CSRF token, or with a wrong one, answers 403 and ends nothing', async (t) => {
  const api = await build(t);
  await signUp(api, EMAIL);
  const cookie = await logIn(api, EMAIL);
  const other = await logIn(api, 'ann@example.com');
  const othersToken = csrfOf((await getPage(api, '/portal/dashboard', other)).body);
  for (const payload of ['', 'csrf=', 'csrf=forged', `csrf=${encodeURIComponent(othersToken)}`]) {
    const response = await api.app.inject({
      method: 'POST',
      url: '/portal/logout',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload,
    });
    assert.equal(response.statusCode, 403, payload);
    assert.match(String(response.headers['content-type']), /^text\/html/);
    assert.match(response.body, /This form was refused/);
    assert.equal(response.headers['set-cookie'], undefined);
    assert.equal(response.headers['cache-control'], 'no-store');
    assert.equal((await getPage(api, '/portal/dashboard', cookie)).statusCode, 200, 'the session goes on');
  }
  // GET is no way to log out: a link or an image on another site cannot end a session.
  const get = await getPage(api, '/portal/logout', cookie);
  assert.equal(get.statusCode, 400);
  assert.equal(get.headers.allow, 'POST');
});

test('a login form posted from another site is refused (403) and logs nothing in: login CSRF', async (t) => {
  const api = await build(t);
  await signUp(api, EMAIL);
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const payload = `email=${encodeURIComponent(EMAIL)}&password=${encodeURIComponent(PASSWORD)}`;
  for (const headers of [{ origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }, { origin: 'null' }]) {
    const refused = await api.app.inject({
      method: 'POST',
      url: '/portal/login',
      headers: { ...form, ...headers },
      payload,
    });
    assert.equal(refused.statusCode, 403, JSON.stringify(headers));
    assert.equal(refused.headers['set-cookie'], undefined);
    assert.match(refused.body, /This form was refused/);
  }
  // The portal's own page, by its configured origin or by the host the request came to, logs in.
  for (const headers of [
    { origin: 'http://api.test', 'sec-fetch-site': 'same-origin' },
    { origin: 'http://localhost:8080', host: 'localhost:8080' },
  ]) {
    const own = await api.app.inject({
      method: 'POST',
      url: '/portal/login',
      headers: { ...form, ...headers },
      payload,
    });
    assert.equal(own.statusCode, 303, JSON.stringify(headers));
    assert.match(String(own.headers['set-cookie']), /^portal_session=/);
  }
});
