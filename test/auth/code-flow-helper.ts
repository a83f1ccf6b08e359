// The code flow's test set-up: an app with a test session (a header names the logged-in account), a clock the test
// advances, an app (client) of one account, and the steps of the flow as a client would make them.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { TestContext } from 'node:test';
import type { FastifyRequest } from 'fastify';
import type { ClientType } from '../../src/auth/auth-store.js';
import { randomSecret, secretHash } from '../../src/auth/secrets.js';
import type { SessionReader } from '../../src/auth/session-reader.js';
import { newId } from '../../src/storage/ids.js';
import { build, newAccount, type Credentials, type TestApp } from '../helper.js';

export const REDIRECT = 'https://app.example/callback';
export const VERIFIER = 'a-code-verifier-of-more-than-43-characters-0123456789';
export const CHALLENGE = createHash('sha256').update(VERIFIER).digest('base64url');

/** The test session: `x-test-session: <accountId> <email>`; the CSRF token is derived from the account id. */
const testSessions: SessionReader = {
  async account(request: FastifyRequest) {
    const header = request.headers['x-test-session'];
    if (typeof header !== 'string') return undefined;
    const [accountId, email] = header.split(' ');
    return { accountId: accountId!, email: email! };
  },
  csrfToken: (request) => `csrf-${String(request.headers['x-test-session']).split(' ')[0]}`,
  checkCsrf: (request, token) => token === `csrf-${String(request.headers['x-test-session']).split(' ')[0]}`,
};

export interface CodeFlow {
  api: TestApp;
  /** The account that owns the app. */
  owner: Credentials;
  /** The account that consents (a person using the app). */
  user: Credentials;
  clientId: string;
  clientSecret: string;
  session: Record<string, string>;
  advance(ms: number): void;
}

export async function codeFlow(t: TestContext, type: ClientType = 'confidential'): Promise<CodeFlow> {
  let offset = 0;
  const api = await build(t, {}, undefined, { sessions: testSessions, clock: () => Date.now() + offset });
  const owner = api.credentials;
  const user = await newAccount(api.app, api.storage);
  const clientId = newId();
  const clientSecret = type === 'public' ? '' : randomSecret();
  await api.storage.grants.createClient({
    id: clientId,
    tenantId: owner.tenantId,
    name: 'Walkies',
    secretHash: type === 'public' ? '' : secretHash(clientSecret),
    scopes: ['read', 'write'],
    type,
    redirectUris: [REDIRECT, 'https://app.example/other?keep=1'],
  });
  const session = { 'x-test-session': `${user.tenantId} ${user.tenantId}@example.test` };
  return { api, owner, user, clientId, clientSecret, session, advance: (ms) => (offset += ms) };
}

/** The query of an authorization request for `clientId` as an app sends it (PKCE S256, a state). */
export function authorizeQuery(clientId: string, overrides: Record<string, string | undefined> = {}): URLSearchParams {
  const params: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    scope: 'read',
    state: 'st-123',
    code_challenge: CHALLENGE,
    code_challenge_method: 'S256',
    ...overrides,
  };
  return new URLSearchParams(Object.entries(params).filter((entry): entry is [string, string] => !!entry[1]));
}

export function authorizeUrl(flow: CodeFlow, overrides: Record<string, string | undefined> = {}): string {
  return `/oauth2/authorize?${authorizeQuery(flow.clientId, overrides)}`;
}

/** Posts the consent page's decision, with every hidden field the page carries. */
export async function decide(flow: CodeFlow, url: string, decision: 'allow' | 'deny', csrf?: string) {
  const query = Object.fromEntries(new URL(url, 'http://x').searchParams);
  return flow.api.request({
    method: 'POST',
    url: '/oauth2/authorize',
    headers: flow.session,
    token: null,
    form: { ...query, csrf_token: csrf ?? `csrf-${flow.user.tenantId}`, decision },
  });
}

/** Allows the request and answers the code of the redirect. */
export async function codeOf(flow: CodeFlow, overrides: Record<string, string | undefined> = {}): Promise<string> {
  const answer = await decide(flow, authorizeUrl(flow, overrides), 'allow');
  assert.equal(answer.statusCode, 302, answer.body);
  const location = new URL(answer.headers.location as string);
  assert.equal(location.searchParams.get('state'), 'st-123');
  return location.searchParams.get('code')!;
}

/** A token request of the flow's client (Basic for a confidential client, client_id alone for a public one). */
export async function tokenRequest(flow: CodeFlow, form: Record<string, string>) {
  const auth: Record<string, string> = flow.clientSecret
    ? { authorization: `Basic ${Buffer.from(`${flow.clientId}:${flow.clientSecret}`).toString('base64')}` }
    : {};
  return flow.api.request({
    method: 'POST',
    url: '/oauth2/token',
    headers: auth,
    token: null,
    form: flow.clientSecret ? form : { ...form, client_id: flow.clientId },
  });
}

export async function exchange(flow: CodeFlow, code: string, verifier = VERIFIER) {
  return tokenRequest(flow, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT,
    code_verifier: verifier,
  });
}
