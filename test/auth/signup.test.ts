import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build } from '../helper.js';

const SIGNUP = { email: 'Dev@Example.com', password: 'a long passphrase', appName: 'Shelter app' };

test('signing up with JSON creates an account and a client whose secret gets a token', async (t) => {
  const api = await build(t);
  const response = await api.request({
    method: 'POST',
    url: '/portal/signup',
    json: SIGNUP,
    headers: { accept: 'application/json' },
    token: null,
  });
  assert.equal(response.statusCode, 200);
  assert.equal(response.headers['cache-control'], 'no-store');
  const body = response.json();
  assert.deepEqual(Object.keys(body), ['account', 'client']);
  assert.equal(body.account.email, 'dev@example.com');
  assert.match(body.account.id, /^[A-Za-z0-9_-]{16,}$/);
  assert.deepEqual(body.client.scopes, ['read', 'write']);
  const token = await api.request({
    method: 'POST',
    url: '/oauth2/token',
    token: null,
    form: {
      grant_type: 'client_credentials',
      client_id: body.client.clientId,
      client_secret: body.client.clientSecret,
    },
  });
  assert.equal(token.statusCode, 200);
  const dogs = await api.request({ url: '/v1/dogs', token: token.json().access_token });
  assert.deepEqual(dogs.json(), { dogs: [] }, 'a new account is a new, empty tenant');
});

test('passwords and secrets are stored only as hashes', async (t) => {
  const api = await build(t);
  const body = (
    await api.request({
      method: 'POST',
      url: '/portal/signup',
      form: SIGNUP,
      headers: { accept: 'application/json' },
      token: null,
    })
  ).json();
  const client = await api.storage.auth.findClient(body.client.clientId);
  assert.ok(client);
  assert.notEqual(client.secretHash, body.client.clientSecret);
  assert.ok(!client.secretHash.includes(body.client.clientSecret));
});

test('sign-up errors are 400s in the API error shape', async (t) => {
  const api = await build(t);
  await api.request({
    method: 'POST',
    url: '/portal/signup',
    json: SIGNUP,
    headers: { accept: 'application/json' },
    token: null,
  });
  const cases: Array<[Record<string, unknown>, number]> = [
    [{ ...SIGNUP, email: 'DEV@example.com' }, 5005],
    [{ ...SIGNUP, email: 'other@example.com', password: 'short' }, 5006],
    [{ ...SIGNUP, email: 'not-an-address' }, 3007],
    // The API's own rule for an owner's email (SPEC §1), so that the portal takes no address the API refuses.
    [{ ...SIGNUP, email: '<script>y@example.com' }, 3007],
    [{ ...SIGNUP, email: 'z@exam_ple.com' }, 3007],
    [{ email: 'x@example.com', password: 'a long passphrase' }, 3004],
    [{ ...SIGNUP, email: 'y@example.com', admin: true }, 3003],
    [{ ...SIGNUP, email: 'z@example.com', appName: 'nul\u0000' }, 2010],
    // A name that could read as another app's on the consent page.
    [{ ...SIGNUP, email: 'w@example.com', appName: 'Shelter \u202eppa' }, 3006],
    [{ ...SIGNUP, email: ['v@example.com', 'u@example.com'] }, 3006],
    // Shown on the consent page to other accounts: no direction controls.
    [{ ...SIGNUP, email: 'x980\u202emoc.elgoog@example.com' }, 3006],
  ];
  for (const [body, code] of cases) {
    const response = await api.request({
      method: 'POST',
      url: '/portal/signup',
      json: body,
      headers: { accept: 'application/json' },
      token: null,
    });
    assert.equal(response.statusCode, 400, JSON.stringify(body));
    assert.equal(response.json().code, code);
    assert.match(response.json().more_info, new RegExp(`/portal/errors/${code}$`));
  }
});

test('a browser gets the form, and a page that shows the secret once', async (t) => {
  const api = await build(t);
  const form = await api.request({ url: '/portal/signup/', headers: { accept: 'text/html' }, token: null });
  assert.equal(form.statusCode, 200);
  assert.match(form.body, /<form method="post" action="\/portal\/signup">/);
  const page = await api.request({
    method: 'POST',
    url: '/portal/signup',
    form: SIGNUP,
    headers: { accept: 'text/html' },
    token: null,
  });
  assert.equal(page.statusCode, 200);
  assert.match(String(page.headers['content-type']), /^text\/html/);
  assert.match(page.body, /only time the secret is shown/);
  // The command to get a token, as a shell takes it: one line continued with a backslash.
  assert.match(
    page.body,
    /<pre><code>curl -u '[^']+:[^']+' \\\n {2}-d grant_type=client_credentials http:\/\/api\.test\/oauth2\/token<\/code><\/pre>/,
  );
  const again = await api.request({
    method: 'POST',
    url: '/portal/signup',
    form: SIGNUP,
    headers: { accept: 'text/html' },
    token: null,
  });
  assert.equal(again.statusCode, 400);
  assert.match(again.body, /exists already/);
});

test('sign-ups are limited per address by the open limit', async (t) => {
  const api = await build(t, { RATE_LIMIT_OPEN_PER_MINUTE: '2' });
  const statuses = [];
  for (let i = 0; i < 3; i += 1) {
    const response = await api.request({
      method: 'POST',
      url: '/portal/signup',
      json: { ...SIGNUP, email: `n${i}@example.com` },
      headers: { accept: 'application/json' },
      token: null,
    });
    statuses.push(response.statusCode);
    if (response.statusCode === 403) {
      assert.equal(response.json().code, 5003);
      assert.ok(Number(response.headers['retry-after']) >= 1);
    }
  }
  assert.deepEqual(statuses, [200, 200, 403]);
});
