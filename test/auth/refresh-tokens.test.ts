// Refresh tokens beyond their rotation: revocation (RFC 7009 §2.1, the whole chain), a refused refresh that changes
// nothing, a race between two uses of one token, and introspection (RFC 7662 §2.1).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { codeFlow, codeOf, exchange, tokenRequest, type CodeFlow } from './code-flow-helper.js';

/** Whether an access token is accepted by the API now. */
async function works(flow: CodeFlow, token: string): Promise<boolean> {
  const answer = await flow.api.request({ url: '/v1/dogs', token });
  assert.ok(answer.statusCode === 200 || answer.statusCode === 401, answer.body);
  return answer.statusCode === 200;
}

function refresh(flow: CodeFlow, refreshToken: string, extra: Record<string, string> = {}) {
  return tokenRequest(flow, { grant_type: 'refresh_token', refresh_token: refreshToken, ...extra });
}

/** The client's credentials as a form: client_id alone for a public client. */
function clientForm(flow: CodeFlow): Record<string, string> {
  return flow.clientSecret
    ? { client_id: flow.clientId, client_secret: flow.clientSecret }
    : { client_id: flow.clientId };
}

function endpoint(flow: CodeFlow, url: string, form: Record<string, string>, client = clientForm(flow)) {
  return flow.api.request({ method: 'POST', url, token: null, form: { ...form, ...client } });
}

/** The tokens of a fresh consent (scope read). */
async function consent(flow: CodeFlow): Promise<{ access_token: string; refresh_token: string }> {
  const answer = await exchange(flow, await codeOf(flow));
  assert.equal(answer.statusCode, 200, answer.body);
  return answer.json();
}

for (const [type, hint] of [
  ['confidential', undefined],
  ['confidential', 'refresh_token'],
  ['public', 'refresh_token'],
  ['confidential', 'access_token'],
] as const) {
  test(`a ${type} client revokes its refresh token (hint ${hint ?? 'none'}): refused at the token endpoint, and the chain's access tokens stop`, async (t) => {
    const flow = await codeFlow(t, type);
    const first = await consent(flow);
    const rotated = (await refresh(flow, first.refresh_token)).json();
    assert.equal(await works(flow, rotated.access_token), true);

    const form: Record<string, string> = { token: rotated.refresh_token, ...(hint && { token_type_hint: hint }) };
    const revoked = await endpoint(flow, '/oauth2/revoke', form);
    assert.equal(revoked.statusCode, 200, revoked.body);
    assert.equal(revoked.body, '');
    assert.equal(revoked.headers['cache-control'], 'no-store');

    const after = await refresh(flow, rotated.refresh_token);
    assert.equal(after.statusCode, 400);
    assert.equal(after.json().error, 'invalid_grant');
    // RFC 7009 §2.1: the access tokens of the same grant go too, at once on the node that revoked them (the one in
    // use was cached by its verifier for 4 s).
    for (const token of [first.access_token, rotated.access_token]) assert.equal(await works(flow, token), false);
  });
}

test("another client's refresh token, or an unknown one, is answered 200 and stays as it was", async (t) => {
  const flow = await codeFlow(t);
  const tokens = await consent(flow);
  const owner = { client_id: flow.owner.clientId, client_secret: flow.owner.clientSecret };
  for (const form of [
    { token: tokens.refresh_token } as Record<string, string>,
    { token: tokens.refresh_token, token_type_hint: 'refresh_token' },
    { token: 'never-issued', token_type_hint: 'refresh_token' },
  ]) {
    const answer = await endpoint(flow, '/oauth2/revoke', form, owner);
    assert.equal(answer.statusCode, 200, answer.body);
  }
  const unknown = await endpoint(flow, '/oauth2/revoke', { token: 'never-issued', token_type_hint: 'refresh_token' });
  assert.equal(unknown.statusCode, 200);
  flow.advance(4_100);
  assert.equal(await works(flow, tokens.access_token), true);
  const refreshed = await refresh(flow, tokens.refresh_token);
  assert.equal(refreshed.statusCode, 200, refreshed.body);
});

test('a refresh refused for a scope the consent did not grant changes nothing: the retry works, and says what was wrong', async (t) => {
  const flow = await codeFlow(t);
  const tokens = await consent(flow);
  // The client holds write; the consent granted read only.
  const refused = await refresh(flow, tokens.refresh_token, { scope: 'write' });
  assert.equal(refused.statusCode, 400);
  assert.equal(refused.json().error, 'invalid_scope');
  assert.match(refused.json().error_description, /not granted by the consent/);
  assert.doesNotMatch(refused.json().error_description, /not one this client holds/);
  const malformed = await refresh(flow, tokens.refresh_token, { scope: '"read"' });
  assert.equal(malformed.json().error, 'invalid_scope');

  const retry = await refresh(flow, tokens.refresh_token, { scope: 'read' });
  assert.equal(retry.statusCode, 200, retry.body);
  assert.equal(retry.json().scope, 'read');
  flow.advance(4_100);
  assert.equal(await works(flow, tokens.access_token), true);
  assert.equal(await works(flow, retry.json().access_token), true);
  // Reuse is still told from a retry: the token that was exchanged, presented again, revokes the chain.
  const reuse = await refresh(flow, tokens.refresh_token);
  assert.equal(reuse.json().error, 'invalid_grant');
  flow.advance(4_100);
  assert.equal(await works(flow, retry.json().access_token), false);
  assert.equal((await refresh(flow, retry.json().refresh_token)).json().error, 'invalid_grant');
});

test('a refresh that narrows its access token keeps the refresh token whole (RFC 6749 §6)', async (t) => {
  const flow = await codeFlow(t);
  const granted = await exchange(flow, await codeOf(flow, { scope: 'read write' }));
  assert.equal(granted.json().scope, 'read write');
  const narrowed = await refresh(flow, granted.json().refresh_token, { scope: 'read' });
  assert.equal(narrowed.statusCode, 200, narrowed.body);
  assert.equal(narrowed.json().scope, 'read');
  const { refresh_token: next } = narrowed.json();
  const introspected = await endpoint(flow, '/oauth2/introspect', { token: next });
  assert.equal(introspected.json().scope, 'read write');
  // The next refresh may ask for write again, and without scope gets the whole consent.
  const widened = await refresh(flow, next, { scope: 'write' });
  assert.equal(widened.statusCode, 200, widened.body);
  assert.equal(widened.json().scope, 'write');
  const whole = await refresh(flow, widened.json().refresh_token);
  assert.equal(whole.json().scope, 'read write');
  assert.equal(
    (
      await flow.api.request({
        method: 'POST',
        url: '/v2/dogs',
        json: { name: 'Rex' },
        token: whole.json().access_token,
      })
    ).statusCode,
    201,
  );
});

test('two uses of one refresh token at once: one is answered, the other is reuse and revokes the chain', async (t) => {
  const flow = await codeFlow(t);
  const tokens = await consent(flow);
  const answers = await Promise.all([refresh(flow, tokens.refresh_token), refresh(flow, tokens.refresh_token)]);
  const statuses = answers.map((answer) => answer.statusCode).sort();
  assert.deepEqual(statuses, [200, 400], answers.map((answer) => answer.body).join('\n'));
  const winner = answers.find((answer) => answer.statusCode === 200)!.json();
  assert.equal(answers.find((answer) => answer.statusCode === 400)!.json().error, 'invalid_grant');
  flow.advance(4_100);
  assert.equal(await works(flow, winner.access_token), false);
  assert.equal((await refresh(flow, winner.refresh_token)).json().error, 'invalid_grant');
});

test('introspection of a live refresh token: active, with its scope, client, account and expiry; a rotated one is not', async (t) => {
  const flow = await codeFlow(t);
  const tokens = await consent(flow);
  const now = Math.floor(Date.now() / 1000);
  for (const hint of [undefined, 'refresh_token', 'access_token']) {
    const form: Record<string, string> = { token: tokens.refresh_token, ...(hint && { token_type_hint: hint }) };
    const answer = await endpoint(flow, '/oauth2/introspect', form);
    assert.equal(answer.statusCode, 200, answer.body);
    const body = answer.json();
    assert.equal(body.active, true, `hint ${hint}`);
    // RFC 7662 §2.2's token_type is an access token's type (Bearer): a refresh token has none.
    assert.equal(body.token_type, undefined);
    assert.equal(body.scope, 'read');
    assert.equal(body.client_id, flow.clientId);
    assert.equal(body.sub, flow.user.tenantId);
    assert.equal(body.iss, flow.api.config.publicUrl);
    assert.ok(Math.abs(body.exp - (now + 30 * 24 * 3600)) < 60, String(body.exp));
  }
  // An access token is still told as one, whatever the hint.
  const access = await endpoint(flow, '/oauth2/introspect', {
    token: tokens.access_token,
    token_type_hint: 'refresh_token',
  });
  assert.equal(access.json().token_type, 'Bearer');
  // The owner's other client learns nothing about a token it neither holds nor acts for.
  const owner = { client_id: flow.owner.clientId, client_secret: flow.owner.clientSecret };
  const other = await endpoint(flow, '/oauth2/introspect', { token: tokens.refresh_token }, owner);
  assert.deepEqual(other.json(), { active: false });

  assert.equal((await refresh(flow, tokens.refresh_token)).statusCode, 200);
  const rotated = await endpoint(flow, '/oauth2/introspect', { token: tokens.refresh_token });
  assert.deepEqual(rotated.json(), { active: false });
});

test('an expired refresh token is not active, and refreshing with it changes nothing', async (t) => {
  const flow = await codeFlow(t);
  const tokens = await consent(flow);
  flow.advance(31 * 24 * 3600 * 1000);
  const introspected = await endpoint(flow, '/oauth2/introspect', { token: tokens.refresh_token });
  assert.deepEqual(introspected.json(), { active: false });
  const refreshed = await refresh(flow, tokens.refresh_token);
  assert.equal(refreshed.json().error, 'invalid_grant');
});
