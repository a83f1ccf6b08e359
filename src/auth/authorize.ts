// GET and POST /oauth2/authorize (SPEC §12, the code flow): a request the app cannot be told about is a 400 page; any
// other is checked by @node-oauth/oauth2-server's authorize handler, shown as a consent page, and answered by redirect.
import { randomUUID } from 'node:crypto';
import OAuth2Server from '@node-oauth/oauth2-server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { readBody } from '../http/raw-body.js';
import { routeEveryMethod } from '../http/route-every-method.js';
import { ID_PATTERN } from '../storage/ids.js';
import type { AuthStore, Client } from './auth-store.js';
import type { Frame } from '../portal/html.js';
import {
  sendAuthorizeError,
  sendConsent,
  sendForbidden,
  sendWrongMethod,
  type PageSession,
} from './authorize-pages.js';
import type { GrantStore } from './grant-store.js';
import { libraryDescription, rfcText } from './oauth-errors.js';
import { modelClientOf, validateScope } from './oauth-server.js';
import { randomSecret, secretHash } from './secrets.js';
import { loginLocation, type SessionAccount, type SessionReader } from './session-reader.js';

/** A code lives 60 s (SPEC §12). */
const CODE_LIFETIME_SECONDS = 60;
/** The parameters of an authorization request (RFC 6749 §4.1.1, RFC 7636 §4.3), carried through login and consent. */
const PARAMETERS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
] as const;
/** An S256 challenge is the base64url of a SHA-256: 43 characters (RFC 7636 §4.2). */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export interface AuthorizeOptions {
  readonly config: Config;
  readonly store: AuthStore;
  readonly grants: GrantStore;
  readonly sessions: SessionReader;
  readonly clock: () => number;
}

export function registerAuthorize(app: FastifyInstance, options: AuthorizeOptions): void {
  routeEveryMethod(app, {
    url: '/oauth2/authorize',
    method: ['GET', 'POST'],
    wrongMethod: (_request, reply, allow) => sendWrongMethod(reply, allow),
    config: { frame: portalFrame(options.config) },
    handler: async (request, reply) => authorize(request, reply, options),
  });
}

/** Links of the pages to the portal: by path when the portal shares the API's host, else by its whole URL. */
function portalFrame(config: Config): Frame {
  const portal = new URL(config.portalUrl);
  const sameHost = portal.origin === new URL(config.publicUrl).origin;
  return { prefix: (sameHost ? portal.pathname : config.portalUrl).replace(/\/$/, '') };
}

async function authorize(request: FastifyRequest, reply: FastifyReply, options: AuthorizeOptions) {
  const posted = request.method === 'POST' ? (readBody(request) ?? {}) : undefined;
  const params = parametersOf(posted ?? (request.query as Record<string, unknown>));
  const client = await registeredClient(options.store, params);
  const account = await options.sessions.account(request);
  if (typeof client === 'string')
    return sendAuthorizeError(reply, client, account && pageSession(options.sessions, request, account));
  if (!account) {
    const next = `/oauth2/authorize?${new URLSearchParams(params as Record<string, string>)}`;
    return reply.code(303).header('cache-control', 'no-store').redirect(loginLocation(options.config.portalUrl, next));
  }
  if (posted && !options.sessions.checkCsrf(request, typeof posted.csrf_token === 'string' ? posted.csrf_token : ''))
    return sendForbidden(reply, pageSession(options.sessions, request, account));
  const decision = posted ? (posted.decision === 'allow' ? 'allow' : 'deny') : 'check';
  let outcome: { location?: string; scopes: readonly string[] };
  try {
    outcome = await runLibrary(params, client, account, decision, options);
  } catch (error) {
    if (!(error instanceof OAuth2Server.OAuthError)) throw error;
    return redirect(reply, errorLocation(client.redirect, error, params.state));
  }
  if (outcome.location !== undefined) return redirect(reply, outcome.location);
  return sendConsent(reply, {
    appName: client.client.name,
    ownerEmail: (await options.grants.accountEmail(client.client.tenantId)) ?? 'an unknown account',
    accountEmail: account.email,
    scopes: outcome.scopes,
    params: params as Record<string, string>,
    csrfToken: options.sessions.csrfToken(request),
    // Relative: the decision goes back to the host the page came from, the one the session cookie belongs to (a portal
    // with a host of its own shows this page on that host, whose cookie the API host never sees).
    action: 'authorize',
  });
}

/** Who is logged in, for a page's header. */
function pageSession(sessions: SessionReader, request: FastifyRequest, account: SessionAccount): PageSession {
  return { email: account.email, csrfToken: sessions.csrfToken(request) };
}

type Parameters = Partial<Record<(typeof PARAMETERS)[number], string>> & { repeated?: string };

/** The request's parameters, each as text; one sent twice is named in `repeated` (RFC 6749 §3.1: invalid_request). */
function parametersOf(source: Readonly<Record<string, unknown>>): Parameters {
  const params: Parameters = {};
  for (const name of PARAMETERS) {
    const value = source[name];
    if (typeof value === 'string' && value !== '') params[name] = value;
    else if (value !== undefined && value !== '') params.repeated ??= name;
  }
  return params;
}

/** The client and the redirect URI to answer to, or what the 400 page says (never a redirect: §4.1.2.1). */
async function registeredClient(
  store: AuthStore,
  params: Parameters,
): Promise<{ client: Client; redirect: string } | string> {
  if (params.repeated === 'client_id' || params.repeated === 'redirect_uri')
    return `The ${params.repeated} parameter was sent more than once; the link must carry it once.`;
  const id = params.client_id;
  if (id === undefined) return 'The link has no client_id: it must name the app asking for access.';
  const client = ID_PATTERN.test(id) ? await store.findClient(id) : undefined;
  if (!client) return `No app has the client_id ${id.slice(0, 100)}.`;
  const uri = params.redirect_uri;
  if (uri === undefined) return 'The link has no redirect_uri: it must say where to send you back to the app.';
  if (!client.redirectUris.includes(uri))
    return `The redirect_uri ${uri.slice(0, 300)} is not one the app registered (they must match character for character).`;
  return { client, redirect: uri };
}

/**
 * Runs the library's authorize handler: `check` validates the request as the consent page is shown (nothing saved),
 * `allow` saves the code and answers the app's redirect, `deny` answers access_denied. Errors are thrown.
 */
async function runLibrary(
  params: Parameters,
  { client }: { client: Client },
  account: SessionAccount,
  decision: 'check' | 'allow' | 'deny',
  options: AuthorizeOptions,
): Promise<{ location?: string; scopes: readonly string[] }> {
  let scopes: readonly string[] = [];
  const model = {
    getClient: async () => modelClientOf(client),
    validateScope,
    generateAuthorizationCode: async () => randomSecret(),
    saveAuthorizationCode: async (code: SavedCode, _client: unknown, user: { id: string }) => {
      requirePkce(params);
      scopes = code.scope;
      if (decision === 'allow') await saveCode(options, code, client, user.id);
      return code;
    },
    getAccessToken: async () => false,
  };
  const server = new OAuth2Server({ model: model as unknown as OAuth2Server.ServerOptions['model'] });
  const { repeated: _repeated, ...query } = params;
  const request = new OAuth2Server.Request({
    method: 'GET',
    headers: {},
    query,
    body: decision === 'deny' ? { allowed: 'false' } : {},
  });
  const response = new OAuth2Server.Response({ headers: {} });
  if (params.repeated) throw new OAuth2Server.InvalidRequestError(`${params.repeated} was sent more than once.`);
  await server.authorize(request, response, {
    authenticateHandler: { handle: async () => ({ id: account.accountId }) },
    authorizationCodeLifetime: CODE_LIFETIME_SECONDS,
    allowEmptyState: true,
  });
  return { location: decision === 'allow' ? (response.headers?.location as string) : undefined, scopes };
}

interface SavedCode {
  authorizationCode: string;
  redirectUri: string;
  scope: string[];
  codeChallenge?: string;
}

/** SPEC §12: PKCE S256 only, and required (the library would take a request without a challenge). */
function requirePkce(params: Parameters): void {
  if (params.code_challenge_method !== 'S256' || !S256_CHALLENGE.test(params.code_challenge ?? ''))
    throw new OAuth2Server.InvalidRequestError(
      'PKCE is required: send code_challenge (43 characters, base64url of SHA-256) and code_challenge_method=S256.',
    );
}

/** The code is stored as a hash, with a new chain (this consent) that its tokens will carry. */
async function saveCode(options: AuthorizeOptions, code: SavedCode, client: Client, accountId: string) {
  await options.grants.saveCode({
    codeHash: secretHash(code.authorizationCode),
    chainId: randomUUID(),
    clientId: client.id,
    accountId,
    redirectUri: code.redirectUri,
    scopes: code.scope,
    codeChallenge: code.codeChallenge!,
    expiresAt: Math.floor(options.clock() / 1000) + CODE_LIFETIME_SECONDS,
    used: false,
  });
}

/** RFC 6749 §4.1.2.1: the error and the state added to the registered URI, keeping any query it has. */
function errorLocation(redirectUri: string, error: OAuth2Server.OAuthError, state: string | undefined): string {
  const url = new URL(redirectUri);
  url.searchParams.set('error', error.name);
  url.searchParams.set('error_description', rfcText(libraryDescription(error.name, error.message)));
  if (state !== undefined) url.searchParams.set('state', state);
  return url.toString();
}

function redirect(reply: FastifyReply, location: string): FastifyReply {
  // As a URL writes itself: a character a header cannot carry (a URI registered before they were refused) %-encoded.
  const href = URL.canParse(location) ? new URL(location).href : location;
  return reply.code(302).header('cache-control', 'no-store').header('location', href).send();
}
