// The code flow at the token endpoint (SPEC §12): PKCE, expiry, single use, refresh rotation and reuse, public clients,
// and the metadata that lists all of it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { secretHash } from '../../src/auth/secrets.js';
import type { Storage } from '../../src/storage/storage.js';
import { rawRun, rawValue, rowsHolding } from '../raw-sql.js';
import { codeFlow, codeOf, exchange, REDIRECT, tokenRequest, VERIFIER, type CodeFlow } from './code-flow-helper.js';

/** Whether an access token is accepted by the API now. */
async function works(flow: CodeFlow, token: string): Promise<boolean> {
  const answer = await flow.api.request({ url: '/v1/dogs', token });
  assert.ok(answer.statusCode === 200 || answer.statusCode === 401, answer.body);
  return answer.statusCode === 200;
}

function refresh(flow: CodeFlow, refreshToken: string) {
  return tokenRequest(flow, { grant_type: 'refresh_token', refresh_token: refreshToken });
}

test('a wrong code_verifier is invalid_grant, and the code is used up', async (t) => {
  const flow = await codeFlow(t);
  const code = await codeOf(flow);
  const wrong = await exchange(flow, code, `${VERIFIER}x`);
  assert.equal(wrong.statusCode, 400);
  assert.equal(wrong.json().error, 'invalid_grant');
  assert.match(wrong.json().error_description, /^The code_verifier is not the one .*code_challenge was made from/);
  const again = await exchange(flow, code);
  assert.equal(again.statusCode, 400);
  assert.equal(again.json().error, 'invalid_grant');
});

test('an exchange without the code_verifier is invalid_request (a missing parameter, RFC 6749 §5.2)', async (t) => {
  const flow = await codeFlow(t);
  const code = await codeOf(flow);
  const answer = await tokenRequest(flow, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT });
  assert.equal(answer.statusCode, 400);
  assert.equal(answer.json().error, 'invalid_request');
  assert.match(answer.json().error_description, /code_verifier/);
  assert.equal(answer.headers['cache-control'], 'no-store');
});

test('the exchange needs the same redirect_uri: another one is invalid_grant (RFC 6749 §5.2)', async (t) => {
  const flow = await codeFlow(t);
  for (const redirect of ['https://app.example/other?keep=1', 'not a uri']) {
    const code = await codeOf(flow);
    const answer = await tokenRequest(flow, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirect,
      code_verifier: VERIFIER,
    });
    assert.equal(answer.statusCode, 400, redirect);
    assert.equal(answer.json().error, 'invalid_grant', redirect);
    assert.match(answer.json().error_description, /redirect_uri is not the one of the authorization request/);
    assert.equal(answer.headers['cache-control'], 'no-store');
  }
});

test('an exchange without redirect_uri or code_verifier (or with them empty) is invalid_request, and the code stays usable', async (t) => {
  const flow = await codeFlow(t);
  const code = await codeOf(flow);
  for (const [name, form] of [
    ['redirect_uri', { grant_type: 'authorization_code', code, code_verifier: VERIFIER }],
    ['redirect_uri', { grant_type: 'authorization_code', code, redirect_uri: '', code_verifier: VERIFIER }],
    ['code_verifier', { grant_type: 'authorization_code', code, redirect_uri: REDIRECT }],
  ] as const) {
    const answer = await tokenRequest(flow, form);
    assert.equal(answer.statusCode, 400, answer.body);
    assert.equal(answer.json().error, 'invalid_request');
    assert.match(
      answer.json().error_description,
      new RegExp(`^The ${name} parameter is missing[.] A code exchange sends`),
    );
  }
  const tokens = await exchange(flow, code);
  assert.equal(tokens.statusCode, 200, tokens.body);
});

test('a code lives 60 s', async (t) => {
  const flow = await codeFlow(t);
  const code = await codeOf(flow);
  flow.advance(61_000);
  const answer = await exchange(flow, code);
  assert.equal(answer.statusCode, 400);
  assert.equal(answer.json().error, 'invalid_grant');
  assert.match(answer.json().error_description, /expired/);
});

test('a code used twice is refused, and every token issued from it is revoked', async (t) => {
  const flow = await codeFlow(t);
  const code = await codeOf(flow);
  const first = (await exchange(flow, code)).json();
  assert.equal(await works(flow, first.access_token), true);
  const replay = await exchange(flow, code);
  assert.equal(replay.statusCode, 400);
  assert.equal(replay.json().error, 'invalid_grant');
  assert.match(replay.json().error_description, /^The authorization code is unknown, expired .*already used/);
  // At once on this node, though its verifier had the token's verdict cached (for 4 s).
  assert.equal(await works(flow, first.access_token), false);
  const refreshed = await refresh(flow, first.refresh_token);
  assert.equal(refreshed.statusCode, 400);
  assert.equal(refreshed.json().error, 'invalid_grant');
});

test('a replay that comes while the first exchange is saving its tokens revokes them: none is saved', async (t) => {
  const flow = await codeFlow(t);
  const code = await codeOf(flow);
  const { grants } = flow.api.storage;
  // The first exchange has won the code (useCode) and is about to save its tokens when the replay arrives and ends.
  const save = grants.saveTokens.bind(grants);
  let replay: Awaited<ReturnType<typeof exchange>> | undefined;
  grants.saveTokens = async (...args) => {
    replay = await exchange(flow, code);
    return save(...args);
  };
  const first = await exchange(flow, code);
  assert.equal(replay?.statusCode, 400);
  assert.equal(replay.json().error, 'invalid_grant');
  assert.equal(first.statusCode, 400, first.body);
  assert.equal(first.json().error, 'invalid_grant');
  assert.match(first.json().error_description, /^The authorization code is unknown, expired .*already used/);
  assert.equal(await rowsHolding(flow.api.storage, 'access_tokens', 'client_id', flow.clientId), 0);
  assert.equal(await rowsHolding(flow.api.storage, 'refresh_tokens', 'client_id', flow.clientId), 0);
});

test('a code exchanged twice at once: one exchange at most, and no token of it works', async (t) => {
  const flow = await codeFlow(t);
  for (let round = 0; round < 5; round += 1) {
    const code = await codeOf(flow);
    const answers = await Promise.all([exchange(flow, code), exchange(flow, code), exchange(flow, code)]);
    const won = answers.filter((answer) => answer.statusCode === 200);
    assert.ok(won.length <= 1, `round ${round}: ${won.length} exchanges won`);
    for (const answer of answers.filter((each) => each.statusCode !== 200))
      assert.equal(answer.json().error, 'invalid_grant', answer.body);
    for (const answer of won) {
      assert.equal(await works(flow, answer.json().access_token), false, `round ${round}: the winner's token works`);
      assert.equal((await refresh(flow, answer.json().refresh_token)).statusCode, 400);
    }
  }
});

/** Makes every INSERT into refresh_tokens fail inside the database, as a crash or a full disk would. */
async function refuseRefreshTokens(storage: Storage): Promise<void> {
  if (storage.kind === 'sqlite') {
    await rawRun(
      storage,
      "CREATE TRIGGER refuse_refresh BEFORE INSERT ON refresh_tokens BEGIN SELECT RAISE(ABORT, 'refused'); END",
    );
    return;
  }
  await rawRun(
    storage,
    "CREATE FUNCTION refuse_refresh() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$",
  );
  await rawRun(
    storage,
    'CREATE TRIGGER refuse_refresh BEFORE INSERT ON refresh_tokens FOR EACH ROW EXECUTE FUNCTION refuse_refresh()',
  );
}

test('a code exchange saves its access token and its refresh token, of one chain', async (t) => {
  const flow = await codeFlow(t);
  const answer = await exchange(flow, await codeOf(flow));
  assert.equal(answer.statusCode, 200, answer.body);
  assert.equal(answer.headers['cache-control'], 'no-store');
  const tokens = answer.json();
  assert.equal(tokens.token_type, 'Bearer');
  const { storage } = flow.api;
  const saved = await storage.auth.findToken(secretHash(tokens.access_token));
  const savedRefresh = await storage.grants.findRefreshToken(secretHash(tokens.refresh_token));
  assert.ok(saved && savedRefresh, 'both tokens are stored');
  assert.equal(saved.tenantId, flow.user.tenantId);
  assert.equal(savedRefresh.accountId, flow.user.tenantId);
  const chain = await rawValue(storage, 'SELECT chain_id FROM access_tokens WHERE token_hash = ?', [saved.tokenHash]);
  assert.equal(chain, savedRefresh.chainId);
});

test('a code exchange whose refresh token cannot be saved saves no access token either', async (t) => {
  const flow = await codeFlow(t);
  const code = await codeOf(flow);
  await refuseRefreshTokens(flow.api.storage);
  const answer = await exchange(flow, code);
  assert.equal(answer.statusCode, 500, answer.body);
  assert.equal(answer.headers['cache-control'], 'no-store');
  assert.equal(answer.json().error, 'server_error');
  assert.equal(await rowsHolding(flow.api.storage, 'refresh_tokens', 'client_id', flow.clientId), 0);
  assert.equal(await rowsHolding(flow.api.storage, 'access_tokens', 'client_id', flow.clientId), 0);
});

test('refresh rotates: a new refresh token each time, the old one retired; reusing a retired one revokes the chain', async (t) => {
  const flow = await codeFlow(t);
  const first = (await exchange(flow, await codeOf(flow))).json();
  const second = await refresh(flow, first.refresh_token);
  assert.equal(second.statusCode, 200, second.body);
  const rotated = second.json();
  assert.notEqual(rotated.refresh_token, first.refresh_token);
  assert.equal(rotated.scope, 'read');
  const third = (await refresh(flow, rotated.refresh_token)).json();
  assert.equal(typeof third.refresh_token, 'string');
  assert.equal(await works(flow, third.access_token), true);

  const reuse = await refresh(flow, first.refresh_token);
  assert.equal(reuse.statusCode, 400);
  assert.equal(reuse.json().error, 'invalid_grant');
  assert.match(reuse.json().error_description, /^The refresh token is unknown, expired, revoked, or already used/);
  flow.advance(4_100);
  for (const token of [first.access_token, rotated.access_token, third.access_token])
    assert.equal(await works(flow, token), false);
  const latest = await refresh(flow, third.refresh_token);
  assert.equal(latest.json().error, 'invalid_grant');
});

test('a public client exchanges with its client_id and no secret; client_credentials is unauthorized_client', async (t) => {
  const flow = await codeFlow(t, 'public');
  const tokens = await exchange(flow, await codeOf(flow));
  assert.equal(tokens.statusCode, 200, tokens.body);
  assert.equal(await works(flow, tokens.json().access_token), true);
  const refreshed = await refresh(flow, tokens.json().refresh_token);
  assert.equal(refreshed.statusCode, 200, refreshed.body);

  const credentials = await tokenRequest(flow, { grant_type: 'client_credentials' });
  assert.equal(credentials.statusCode, 400);
  assert.equal(credentials.json().error, 'unauthorized_client');
  assert.match(
    credentials.json().error_description,
    /a public client \(one without a secret\) uses authorization_code/,
  );
  const unknown = await tokenRequest(flow, { grant_type: 'password' });
  assert.equal(unknown.json().error, 'unsupported_grant_type');
  const withSecret = await flow.api.request({
    method: 'POST',
    url: '/oauth2/token',
    token: null,
    form: { grant_type: 'client_credentials', client_id: flow.clientId, client_secret: 'guess' },
  });
  assert.equal(withSecret.statusCode, 401);
  assert.equal(withSecret.json().error, 'invalid_client');
});

test('a public client may name itself as Basic with an empty secret (curl -u id:), for its grants only', async (t) => {
  const flow = await codeFlow(t, 'public');
  const emptySecret = { authorization: `Basic ${Buffer.from(`${flow.clientId}:`).toString('base64')}` };
  const send = (form: Record<string, string>) =>
    flow.api.request({ method: 'POST', url: '/oauth2/token', headers: emptySecret, token: null, form });
  const code = await codeOf(flow);
  const tokens = await send({
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT,
    code_verifier: VERIFIER,
  });
  assert.equal(tokens.statusCode, 200, tokens.body);
  assert.equal(await works(flow, tokens.json().access_token), true);
  const credentials = await send({ grant_type: 'client_credentials' });
  assert.equal(credentials.statusCode, 400);
  assert.equal(credentials.json().error, 'unauthorized_client');
  // Another client's id in the body is not this Basic's.
  const mixed = await send({ grant_type: 'client_credentials', client_id: 'AAAAAAAAAAAAAAAAAAAAAA' });
  assert.equal(mixed.statusCode, 400);
  assert.equal(mixed.json().error, 'invalid_request');
});

test('a confidential client must authenticate to exchange a code; another client cannot use it', async (t) => {
  const flow = await codeFlow(t);
  const code = await codeOf(flow);
  const idOnly = await flow.api.request({
    method: 'POST',
    url: '/oauth2/token',
    token: null,
    form: {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      code_verifier: VERIFIER,
      client_id: flow.clientId,
    },
  });
  assert.equal(idOnly.statusCode, 401);
  assert.equal(idOnly.json().error, 'invalid_client');
  const other = await flow.api.request({
    method: 'POST',
    url: '/oauth2/token',
    token: null,
    form: {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      code_verifier: VERIFIER,
      client_id: flow.owner.clientId,
      client_secret: flow.owner.clientSecret,
    },
  });
  assert.equal(other.statusCode, 400);
  assert.equal(other.json().error, 'invalid_grant');
});

test('the metadata lists the code flow', async (t) => {
  const flow = await codeFlow(t);
  const answer = await flow.api.request({ url: '/.well-known/oauth-authorization-server', token: null });
  assert.equal(answer.statusCode, 200);
  const metadata = answer.json();
  assert.equal(metadata.authorization_endpoint, `${flow.api.config.publicUrl}/oauth2/authorize`);
  assert.deepEqual(metadata.grant_types_supported, ['client_credentials', 'authorization_code', 'refresh_token']);
  assert.deepEqual(metadata.response_types_supported, ['code']);
  assert.deepEqual(metadata.code_challenge_methods_supported, ['S256']);
  assert.ok(metadata.token_endpoint_auth_methods_supported.includes('none'));
  assert.ok(metadata.token_endpoint_auth_methods_supported.includes('client_secret_basic'));
});

test('the app introspects a code-flow token it was issued: active, for the consenting account', async (t) => {
  const flow = await codeFlow(t);
  const tokens = (await exchange(flow, await codeOf(flow))).json();
  const answer = await flow.api.request({
    method: 'POST',
    url: '/oauth2/introspect',
    token: null,
    form: { token: tokens.access_token, client_id: flow.clientId, client_secret: flow.clientSecret },
  });
  assert.equal(answer.statusCode, 200);
  assert.equal(answer.json().active, true);
  assert.equal(answer.json().sub, flow.user.tenantId);
  assert.equal(answer.json().client_id, flow.clientId);
  // The owner's other client is not told about it.
  const other = await flow.api.request({
    method: 'POST',
    url: '/oauth2/introspect',
    token: null,
    form: { token: tokens.access_token, client_id: flow.owner.clientId, client_secret: flow.owner.clientSecret },
  });
  assert.deepEqual(other.json(), { active: false });
});

test('a public client revokes its own token with its client_id alone', async (t) => {
  const flow = await codeFlow(t, 'public');
  const tokens = (await exchange(flow, await codeOf(flow))).json();
  assert.equal(await works(flow, tokens.access_token), true);
  const answer = await flow.api.request({
    method: 'POST',
    url: '/oauth2/revoke',
    token: null,
    form: { token: tokens.access_token, client_id: flow.clientId },
  });
  assert.equal(answer.statusCode, 200);
  assert.equal(await works(flow, tokens.access_token), false);
});

test('the code flow sweeps access tokens a day past their expiry, as a client_credentials token does', async (t) => {
  const flow = await codeFlow(t);
  const { storage } = flow.api;
  const now = Math.floor(Date.now() / 1000);
  const save = (hash: string, expiresAt: number) =>
    rawRun(
      storage,
      'INSERT INTO access_tokens (token_hash, tenant_id, client_id, scopes, issued_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)',
      [hash, flow.user.tenantId, flow.clientId, 'read', expiresAt - 3600, expiresAt],
    );
  await save('long-expired', now - 2 * 24 * 60 * 60);
  await save('just-expired', now - 60);
  // Saving a code is the code flow's first write: its housekeeping is due in a new process.
  await codeOf(flow);
  const left = (hash: string) => rawValue(storage, 'SELECT count(*) FROM access_tokens WHERE token_hash = ?', [hash]);
  assert.equal(Number(await left('long-expired')), 0);
  assert.equal(Number(await left('just-expired')), 1, 'kept a day, as AuthStore keeps them');
});

test("the library's terse words for a missing parameter are said with what to send", async (t) => {
  const flow = await codeFlow(t);
  const answer = await tokenRequest(flow, { grant_type: 'refresh_token' });
  assert.equal(answer.statusCode, 400);
  assert.equal(answer.json().error, 'invalid_request');
  assert.match(
    answer.json().error_description,
    /^The refresh_token parameter is missing: send it \(the refresh_token of/,
  );
});
