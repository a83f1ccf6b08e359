// The dashboard's apps (SPEC §12): create, list, rotate a secret, delete, through the real portal login.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build } from '../helper.js';
import { secretHash } from '../../src/auth/secrets.js';
import { postForm, shownCredentials, tokenRequest } from './apps-helper.js';
import { getPage, logIn, signUp } from './portal-helper.js';

const CONFIDENTIAL = {
  name: 'Kennel sync',
  redirect_uris: 'https://app.example/cb\nhttp://localhost:8080/cb',
  scopes: ['read', 'write'],
  type: 'confidential',
};

test('creating a confidential app shows its secret once, lists it, and the secret gets a token', async (t) => {
  const api = await build(t);
  await signUp(api, 'ann@example.com');
  const cookie = await logIn(api, 'ann@example.com');
  const created = await postForm(api, 'apps', cookie, CONFIDENTIAL);
  assert.equal(created.statusCode, 201, created.body);
  assert.equal(created.headers['cache-control'], 'no-store');
  assert.match(created.headers['content-type'] as string, /^text\/html/);
  assert.match(created.body, /only time the secret is shown/);
  const { clientId, secret } = shownCredentials(created.body);
  assert.ok(secret);
  const token = await tokenRequest(api, clientId, secret);
  assert.equal(token.statusCode, 200, token.body);
  assert.equal(token.json().scope, 'read write');

  const dashboard = await getPage(api, '/portal/dashboard', cookie);
  assert.equal(dashboard.statusCode, 200);
  const card = dashboard.body.slice(dashboard.body.indexOf('<h3>Kennel sync</h3>'));
  assert.match(card, /^<h3>Kennel sync<\/h3><span class="badge">confidential<\/span>/);
  assert.match(card, new RegExp(`<dt>Client id</dt><dd><code class="client-id">${clientId}</code></dd>`));
  assert.match(card, /<dt>Scopes<\/dt><dd>read, write<\/dd>/);
  assert.match(dashboard.body, /<code>https:\/\/app.example\/cb<\/code><br><code>http:\/\/localhost:8080\/cb<\/code>/);
  assert.ok(!dashboard.body.includes(secret), 'the dashboard never shows the secret again');
});

test('a public app has no secret and cannot be rotated', async (t) => {
  const api = await build(t);
  await signUp(api, 'ann@example.com');
  const cookie = await logIn(api, 'ann@example.com');
  const created = await postForm(api, 'apps', cookie, { ...CONFIDENTIAL, type: 'public', scopes: 'read' });
  assert.equal(created.statusCode, 201, created.body);
  const { clientId, secret } = shownCredentials(created.body);
  assert.equal(secret, undefined);
  assert.match(created.body, /A public app has no secret/);
  const client = await api.storage.auth.findClient(clientId);
  assert.deepEqual([client?.type, client?.secretHash, client?.scopes], ['public', '', ['read']]);
  const rotated = await postForm(api, 'apps/rotate', cookie, { client_id: clientId });
  assert.equal(rotated.statusCode, 404);
  assert.match(rotated.body, /has no secret to rotate/);
});

test('a wrong field answers the dashboard with a clear message and keeps what was typed', async (t) => {
  const api = await build(t);
  await signUp(api, 'ann@example.com');
  const cookie = await logIn(api, 'ann@example.com');
  const cases: Array<[Record<string, string | string[]>, RegExp]> = [
    [{ redirect_uris: 'http://app.example/cb' }, /must use https; http only for localhost, 127.0.0.1 or \[::1\]/],
    [{ redirect_uris: 'javascript:alert(1)' }, /must use https/],
    [{ redirect_uris: 'myapp:/cb' }, /a scheme of its own that is a reversed domain name/],
    [{ redirect_uris: 'https://ann:pw@app.example/cb' }, /has a user name or password in it/],
    [{ redirect_uris: 'https://app.example/cb#top' }, /has a fragment/],
    [{ redirect_uris: '/cb' }, /is not an absolute URL/],
    [{ name: ' ' }, /Give the app a name/],
    [{ scopes: [] }, /Choose at least one scope/],
    [{ scopes: 'admin' }, /&quot;admin&quot; is not a scope/],
    [{ type: 'public', redirect_uris: '' }, /give at least one redirect URI/],
    [{ type: 'other' }, /Choose the type/],
    // SPEC §13, as sign-up refuses it; and a name that could read as another app's on the consent page.
    [{ name: 'nul\u0000x' }, /The name contains the character U\+0000 at position 4, which XML cannot carry/],
    [{ name: 'x\uffff' }, /The name contains the character U\+FFFF/],
    [{ redirect_uris: 'https://app.example/\u0001' }, /The redirect URIs contain|The redirect URIs contains/],
    // RFC 3986: visible ASCII only; a DEL or a direction mark in a Location header failed the consent's Allow (500).
    [{ redirect_uris: 'https://app.example/a\u007fb' }, /has a character a URI cannot carry as it is/],
    [{ redirect_uris: 'https://app.example/\u202eb' }, /has a character a URI cannot carry as it is/],
    [{ redirect_uris: 'https://app.example/a b' }, /has a character a URI cannot carry as it is/],
    [{ name: 'Kennel \u202eppa' }, /The name contains U\+202E, a character that changes the direction of the text/],
  ];
  for (const [fields, message] of cases) {
    const answer = await postForm(api, 'apps', cookie, { ...CONFIDENTIAL, name: 'Keep <me>', ...fields });
    assert.equal(answer.statusCode, 400, JSON.stringify(fields));
    assert.match(answer.body, message);
    assert.match(answer.body, /role="alert"/);
    if (fields.name === undefined) assert.match(answer.body, /value="Keep &lt;me&gt;"/);
    for (const char of ['\u0000', '\u0001', '\uffff'])
      assert.ok(!answer.body.includes(char), 'the page never carries what XML cannot');
  }
  const dashboard = await getPage(api, '/portal/dashboard', cookie);
  assert.equal(
    (dashboard.body.match(/<li class="card app">/g) ?? []).length,
    1,
    'only the sign-up app: nothing was created',
  );
});

test('rotating a secret refuses the old one at once and shows the new one once', async (t) => {
  const api = await build(t);
  await signUp(api, 'ann@example.com');
  const cookie = await logIn(api, 'ann@example.com');
  const { clientId, secret } = shownCredentials((await postForm(api, 'apps', cookie, CONFIDENTIAL)).body);
  assert.equal((await tokenRequest(api, clientId, secret!)).statusCode, 200);
  const rotated = await postForm(api, 'apps/rotate', cookie, { client_id: clientId });
  assert.equal(rotated.statusCode, 200, rotated.body);
  assert.equal(rotated.headers['cache-control'], 'no-store');
  const fresh = shownCredentials(rotated.body).secret!;
  assert.notEqual(fresh, secret);
  assert.match(rotated.body, /<p>App <strong>Kennel sync<\/strong><\/p>/);
  assert.match(rotated.body, /The old secret is refused from now on\./);
  const old = await tokenRequest(api, clientId, secret!);
  assert.equal(old.statusCode, 401);
  assert.equal(old.json().error, 'invalid_client');
  assert.equal((await tokenRequest(api, clientId, fresh)).statusCode, 200);
});

test('deleting an app revokes its tokens (refused within 5 s) and its secret', async (t) => {
  let now = Date.now();
  const api = await build(t, {}, undefined, { clock: () => now });
  await signUp(api, 'ann@example.com');
  const cookie = await logIn(api, 'ann@example.com');
  const { clientId, secret } = shownCredentials((await postForm(api, 'apps', cookie, CONFIDENTIAL)).body);
  const accessToken = (await tokenRequest(api, clientId, secret!)).json().access_token as string;
  assert.equal((await api.request({ url: '/v2/dogs', token: accessToken })).statusCode, 200);
  const deleted = await postForm(api, 'apps/delete', cookie, { client_id: clientId });
  assert.equal(deleted.statusCode, 200, deleted.body);
  assert.match(deleted.body, /App deleted/);
  assert.ok(
    deleted.body.includes(`The app <strong>Kennel sync</strong> (client id <code>${clientId}</code>) is deleted.`),
  );
  assert.equal((await api.storage.auth.findToken(secretHash(accessToken)))?.revoked, true);
  now += 5000;
  assert.equal((await api.request({ url: '/v2/dogs', token: accessToken })).statusCode, 401);
  assert.equal((await tokenRequest(api, clientId, secret!)).statusCode, 401);
  assert.doesNotMatch((await getPage(api, '/portal/dashboard', cookie)).body, new RegExp(clientId));
});

test('a token issued while its app is being deleted does not work either', async (t) => {
  const api = await build(t);
  await signUp(api, 'ann@example.com');
  const cookie = await logIn(api, 'ann@example.com');
  const { clientId, secret } = shownCredentials((await postForm(api, 'apps', cookie, CONFIDENTIAL)).body);
  const { auth } = api.storage;
  // The token endpoint found the app and is saving a token when the delete commits first: the delete's revocation
  // never saw the token.
  const save = auth.saveToken.bind(auth);
  auth.saveToken = async (token) => {
    assert.equal((await postForm(api, 'apps/delete', cookie, { client_id: clientId })).statusCode, 200);
    return save(token);
  };
  const issued = await tokenRequest(api, clientId, secret!);
  assert.equal(issued.statusCode, 200, issued.body);
  const accessToken = issued.json().access_token as string;
  assert.equal((await auth.findToken(secretHash(accessToken)))?.revoked, true);
  const refused = await api.request({ url: '/v2/dogs', token: accessToken });
  assert.equal(refused.statusCode, 401, refused.body);
  assert.equal(refused.json().code, 5001);
});

test("another account's app cannot be rotated or deleted, and a form without the CSRF token changes nothing", async (t) => {
  const api = await build(t);
  const { clientId } = await signUp(api, 'ann@example.com');
  await signUp(api, 'bob@example.com');
  const bob = await logIn(api, 'bob@example.com');
  for (const action of ['apps/rotate', 'apps/delete']) {
    const answer = await postForm(api, action, bob, { client_id: clientId });
    assert.equal(answer.statusCode, 404, action);
    assert.match(answer.body, /Nothing changed/);
  }
  const ann = await logIn(api, 'ann@example.com');
  for (const [action, fields] of [
    ['apps', CONFIDENTIAL],
    ['apps/rotate', { client_id: clientId }],
    ['apps/delete', { client_id: clientId }],
  ] as const) {
    const refused = await postForm(api, action, ann, fields, 'forged');
    assert.equal(refused.statusCode, 403, action);
    assert.match(refused.body, /This form was refused/);
  }
  assert.ok(await api.storage.auth.findClient(clientId), 'the app is still there');
  const anonymous = await api.app.inject({ method: 'POST', url: '/portal/dashboard/apps/delete', payload: '' });
  assert.equal(anonymous.statusCode, 303);
});

test('a mobile app registers its own scheme or the loopback interface (RFC 8252)', async (t) => {
  const api = await build(t);
  await signUp(api, 'ann@example.com');
  const cookie = await logIn(api, 'ann@example.com');
  const uris = 'com.example.walkies:/oauth\nhttp://[::1]:8765/cb\nhttp://127.0.0.1:8765/cb';
  const created = await postForm(api, 'apps', cookie, {
    ...CONFIDENTIAL,
    name: 'Walkies',
    type: 'public',
    redirect_uris: uris,
  });
  assert.equal(created.statusCode, 201, created.body);
  const client = await api.storage.auth.findClient(shownCredentials(created.body).clientId);
  assert.deepEqual(client?.redirectUris, uris.split('\n'));
});

test('the create form offers both scopes, checked, as a client gets both unless it asks for less', async (t) => {
  const api = await build(t);
  await signUp(api, 'ann@example.com');
  const cookie = await logIn(api, 'ann@example.com');
  const dashboard = await getPage(api, '/portal/dashboard', cookie);
  assert.match(dashboard.body, /<input type="checkbox" name="scopes" value="read" checked>/);
  assert.match(dashboard.body, /<input type="checkbox" name="scopes" value="write" checked>/);
});
