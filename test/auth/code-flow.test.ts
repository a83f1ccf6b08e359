// The code flow's authorization endpoint (SPEC §12): login redirect, consent, allow and deny, the 400 pages and the
// redirected errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createItem, dogNames } from '../helper.js';
import { authorizeUrl, codeFlow, codeOf, decide, exchange, REDIRECT, type CodeFlow } from './code-flow-helper.js';

test('the whole flow: consent, allow, code, token with the verifier; the token acts on the consenting account', async (t) => {
  const flow = await codeFlow(t);
  await createItem(flow.api, 'dogs', { name: 'Owner Dog' });
  await createItem(flow.api, 'dogs', { name: 'User Dog' }, flow.user.token);

  const consent = await flow.api.request({ url: authorizeUrl(flow), headers: flow.session, token: null });
  assert.equal(consent.statusCode, 200);
  assert.match(consent.headers['content-type'] as string, /^text\/html/);
  assert.equal(consent.headers['cache-control'], 'no-store');
  assert.match(consent.headers['content-security-policy'] as string, /frame-ancestors 'none'/);
  assert.equal(consent.headers['x-content-type-options'], 'nosniff');
  assert.ok(consent.headers['referrer-policy']);
  assert.match(consent.body, /Walkies/);
  assert.match(consent.body, new RegExp(`${flow.owner.tenantId}@example.test`));
  assert.match(consent.body, /<code>read<\/code>/);
  assert.doesNotMatch(consent.body, /<code>write<\/code>/);
  assert.match(consent.body, new RegExp(`name="csrf_token" value="csrf-${flow.user.tenantId}"`));
  assert.match(consent.body, /<button type="submit" name="decision" value="allow">Allow<\/button>/);
  assert.match(consent.body, /value="deny">Deny</);
  // The decision goes back to the page's own host and path, whatever host the portal (and its cookie) is on.
  const action = [...consent.body.matchAll(/<form method="post" action="([^"]*)">([\s\S]*?)<\/form>/g)].find(
    ([, , inner]) => inner!.includes('value="allow"'),
  )?.[1];
  for (const host of ['https://developer.example.test', 'http://api.test']) {
    const page = new URL(authorizeUrl(flow), host);
    assert.equal(new URL(action!, page).href, `${host}/oauth2/authorize`);
  }

  const code = await codeOf(flow);
  const token = await exchange(flow, code);
  assert.equal(token.statusCode, 200, token.body);
  assert.equal(token.json().expires_in, 3600);
  assert.equal(token.headers['cache-control'], 'no-store');
  const body = token.json();
  assert.equal(body.token_type, 'Bearer');
  assert.equal(body.scope, 'read');
  assert.equal(typeof body.refresh_token, 'string');
  assert.equal(typeof body.access_token, 'string');

  const seen = await flow.api.request({ url: '/v1/dogs', token: body.access_token });
  assert.equal(seen.statusCode, 200, seen.body);
  assert.deepEqual(
    seen.json().dogs.map((entry: { dog: { name: string } }) => entry.dog.name),
    ['User Dog'],
  );
  assert.deepEqual(await dogNames(flow.api, '/v1/dogs'), ['Owner Dog']);
  // read only: the scope consented to.
  const write = await flow.api.request({
    method: 'POST',
    url: '/v1/dogs',
    json: { name: 'X' },
    token: body.access_token,
  });
  assert.equal(write.statusCode, 403);
});

test('without a session the request goes to the portal login, which returns to it', async (t) => {
  const flow = await codeFlow(t);
  const url = authorizeUrl(flow);
  const answer = await flow.api.request({ url, token: null });
  assert.equal(answer.statusCode, 303);
  assert.equal(answer.headers.location, `${flow.api.config.portalUrl}/login?next=${encodeURIComponent(url)}`);
  assert.equal(answer.headers['cache-control'], 'no-store');
});

test('a decision posted without a session goes to the login too, and makes no code', async (t) => {
  const flow = await codeFlow(t);
  flow.session = {};
  const answer = await decide(flow, authorizeUrl(flow), 'allow');
  assert.equal(answer.statusCode, 303);
  assert.match(answer.headers.location as string, /\/login\?next=%2Foauth2%2Fauthorize%3F/);
});

test('deny redirects access_denied with the state; no code is made', async (t) => {
  const flow = await codeFlow(t);
  const answer = await decide(flow, authorizeUrl(flow), 'deny');
  assert.equal(answer.statusCode, 302);
  const location = new URL(answer.headers.location as string);
  assert.equal(`${location.origin}${location.pathname}`, REDIRECT);
  assert.equal(location.searchParams.get('error'), 'access_denied');
  assert.equal(
    location.searchParams.get('error_description'),
    "The user declined this app's request for access on the consent page: no code was issued.",
  );
  assert.equal(location.searchParams.get('state'), 'st-123');
  assert.equal(location.searchParams.get('code'), null);
});

test('a decision posted without the session CSRF token is refused 403 and makes no code', async (t) => {
  const flow = await codeFlow(t);
  const answer = await decide(flow, authorizeUrl(flow), 'allow', 'forged');
  assert.equal(answer.statusCode, 403);
  assert.match(answer.headers['content-type'] as string, /^text\/html/);
  assert.equal(answer.headers.location, undefined);
  assert.match(answer.body, /title="Log out [^"]+">Log out<\/button>/);
});

test('an unknown client, no redirect_uri or an unregistered one: a 400 page that says which, never a redirect', async (t) => {
  const flow = await codeFlow(t);
  const cases: Array<[Record<string, string | undefined>, RegExp]> = [
    [{ client_id: 'AAAAAAAAAAAAAAAAAAAAAA' }, /No app has the client_id/],
    [{ client_id: undefined }, /no client_id/],
    [{ redirect_uri: undefined }, /no redirect_uri/],
    [{ redirect_uri: `${REDIRECT}/` }, /is not one the app registered/],
    [{ redirect_uri: REDIRECT.toUpperCase() }, /is not one the app registered/],
  ];
  for (const [overrides, says] of cases) {
    for (const headers of [flow.session, {}]) {
      const answer = await flow.api.request({ url: authorizeUrl(flow, overrides), headers, token: null });
      assert.equal(answer.statusCode, 400, JSON.stringify(overrides));
      assert.equal(answer.headers.location, undefined);
      assert.match(answer.headers['content-type'] as string, /^text\/html/);
      assert.equal(answer.headers['cache-control'], 'no-store');
      assert.match(answer.headers['content-security-policy'] as string, /frame-ancestors 'none'/);
      assert.match(answer.body, says);
      // The header shows who is logged in, as on every page of their session; without one, Log in.
      if (headers === flow.session) assert.match(answer.body, /title="Log out [^"]+">Log out<\/button>/);
      else assert.match(answer.body, />Log in<\/a>/);
    }
  }
});

test('a scope asked twice is shown once on the consent page, and granted once', async (t) => {
  const flow = await codeFlow(t);
  const consent = await flow.api.request({
    url: authorizeUrl(flow, { scope: 'read read' }),
    headers: flow.session,
    token: null,
  });
  assert.equal(consent.statusCode, 200);
  assert.equal((consent.body.match(/<li><code>read<\/code>/g) ?? []).length, 1);
  const token = await exchange(flow, await codeOf(flow, { scope: 'read read' }));
  assert.equal(token.json().scope, 'read');
});

test('every other error is redirected with error and state (RFC 6749 §4.1.2.1)', async (t) => {
  const flow = await codeFlow(t);
  // Each with the start of its description: what is wrong, said as the service says it, not the library's words.
  const cases: Array<[Record<string, string | undefined>, string, RegExp]> = [
    [{ code_challenge: undefined, code_challenge_method: undefined }, 'invalid_request', /^PKCE is required/],
    [{ code_challenge_method: 'plain' }, 'invalid_request', /^code_challenge_method must be S256: /],
    [{ code_challenge_method: 's256' }, 'invalid_request', /^code_challenge_method must be S256, in capitals/],
    [
      { response_type: undefined },
      'invalid_request',
      /^The response_type parameter is missing: send it \(response_type=code\)/,
    ],
    [{ code_challenge_method: undefined }, 'invalid_request', /^PKCE is required/],
    [{ scope: 'admin' }, 'invalid_scope', /^This client does not hold the scope admin: .* \(read write\)/],
    [{ scope: 're"ad' }, 'invalid_scope', /^The scope parameter is malformed/],
    [{ response_type: 'token' }, 'unsupported_response_type', /^response_type must be code: /],
  ];
  for (const [overrides, error, description] of cases) {
    for (const send of ['GET', 'POST'] as const) {
      const url = authorizeUrl(flow, overrides);
      const answer =
        send === 'GET'
          ? await flow.api.request({ url, headers: flow.session, token: null })
          : await decide(flow, url, 'allow');
      assert.equal(answer.statusCode, 302, `${send} ${JSON.stringify(overrides)}: ${answer.body}`);
      const location = new URL(answer.headers.location as string);
      assert.equal(`${location.origin}${location.pathname}`, REDIRECT);
      assert.equal(location.searchParams.get('error'), error, JSON.stringify(overrides));
      assert.equal(location.searchParams.get('state'), 'st-123');
      assert.equal(location.searchParams.get('code'), null);
      // RFC 6749 §4.1.2.1: the description is printable ASCII without " and \, even where it quotes the request.
      assert.match(location.searchParams.get('error_description') ?? '', /^[\x20\x21\x23-\x5B\x5D-\x7E]+$/);
      assert.match(location.searchParams.get('error_description') ?? '', description, JSON.stringify(overrides));
    }
  }
});

/** A public app of the flow's owner with the read scope only and one redirect URI. */
async function readOnlyPublicApp(flow: CodeFlow, id: string, redirectUri: string): Promise<void> {
  await flow.api.storage.grants.createClient({
    id,
    tenantId: flow.owner.tenantId,
    name: 'Reader',
    secretHash: '',
    scopes: ['read'],
    type: 'public',
    redirectUris: [redirectUri],
  });
}

test('a scope the app was not given is invalid_scope; a redirect URI with a query keeps it', async (t) => {
  const flow = await codeFlow(t);
  await readOnlyPublicApp(flow, 'BBBBBBBBBBBBBBBBBBBBBB', 'https://app.example/other?keep=1');
  const url = authorizeUrl(flow, {
    client_id: 'BBBBBBBBBBBBBBBBBBBBBB',
    redirect_uri: 'https://app.example/other?keep=1',
    scope: 'read write',
  });
  const answer = await flow.api.request({ url, headers: flow.session, token: null });
  assert.equal(answer.statusCode, 302);
  const location = new URL(answer.headers.location as string);
  assert.equal(location.searchParams.get('keep'), '1');
  assert.equal(location.searchParams.get('error'), 'invalid_scope');
  assert.equal(
    location.searchParams.get('error_description'),
    'This client does not hold the scope write: ask for some of the scopes it holds (read), space-separated, or ' +
      'leave scope out to get them all.',
  );
});

test("a mobile app's own scheme gets the code, as RFC 8252 §7.1 has it", async (t) => {
  const flow = await codeFlow(t);
  await readOnlyPublicApp(flow, 'CCCCCCCCCCCCCCCCCCCCCC', 'com.example.walkies:/oauth');
  const url = authorizeUrl(flow, { client_id: 'CCCCCCCCCCCCCCCCCCCCCC', redirect_uri: 'com.example.walkies:/oauth' });
  const answer = await decide(flow, url, 'allow');
  assert.equal(answer.statusCode, 302, answer.body);
  const location = new URL(answer.headers.location as string);
  assert.equal(`${location.protocol}${location.pathname}`, 'com.example.walkies:/oauth');
  assert.match(location.searchParams.get('code') ?? '', /^.{20,}$/);
  assert.equal(location.searchParams.get('state'), 'st-123');
});

test('a redirect URI stored with a character a header cannot carry is sent %-encoded, not a failure', async (t) => {
  const flow = await codeFlow(t);
  // Registered before the dashboard refused such URIs.
  await readOnlyPublicApp(flow, 'DDDDDDDDDDDDDDDDDDDDDD', 'https://app.example/a\u007fb');
  const url = authorizeUrl(flow, { client_id: 'DDDDDDDDDDDDDDDDDDDDDD', redirect_uri: 'https://app.example/a\u007fb' });
  const answer = await decide(flow, url, 'allow');
  assert.equal(answer.statusCode, 302, answer.body);
  assert.match(answer.headers.location as string, /^https:\/\/app\.example\/a%7Fb\?code=/);
});

test('a wrong method on /oauth2/authorize is a 400 page with Allow', async (t) => {
  const flow = await codeFlow(t);
  const answer = await flow.api.request({ method: 'PUT', url: '/oauth2/authorize', token: null });
  assert.equal(answer.statusCode, 400);
  assert.match(answer.headers.allow as string, /GET/);
  assert.match(answer.headers.allow as string, /POST/);
  assert.match(answer.headers['content-type'] as string, /^text\/html/);
});
