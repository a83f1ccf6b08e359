// The authorization server's endpoints: RFC 8414 metadata, authorization and token (RFC 6749), revocation (RFC 7009),
// introspection (RFC 7662).
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { ApiError } from '../errors.js';
import { allowAnyOrigin } from '../http/cors.js';
import { toApiError } from '../http/error-handler.js';
import { readBody } from '../http/raw-body.js';
import { routeEveryMethod } from '../http/route-every-method.js';
import type { AuthStore, Client } from './auth-store.js';
import { registerAuthorize } from './authorize.js';
import { authenticateClient } from './client-auth.js';
import type { GrantStore } from './grant-store.js';
import { InvalidRequest, OAuthError, oauthFailureOf, sendOAuth, sendOAuthError } from './oauth-errors.js';
import { createTokenIssuer, GRANT_TYPES, SCOPES } from './oauth-server.js';
import { secretHash } from './secrets.js';
import type { SessionReader } from './session-reader.js';
import type { TokenVerifier } from './token-verifier.js';

const CLIENT_AUTH_METHODS = ['client_secret_basic', 'client_secret_post'];
/** A public client sends only its client_id (RFC 8414's "none"), at the token and revocation endpoints. */
const PUBLIC_AUTH_METHODS = [...CLIENT_AUTH_METHODS, 'none'];

export interface OAuthRouteOptions {
  readonly config: Config;
  readonly store: AuthStore;
  readonly grants: GrantStore;
  readonly verifier: TokenVerifier;
  readonly sessions: SessionReader;
  readonly clock: () => number;
}
/** The metadata changes only with a release (SPEC §13: only token, revoke and introspect answers are no-store). */
const METADATA_CACHE = 'public, max-age=3600';

export function registerOAuthRoutes(app: FastifyInstance, options: OAuthRouteOptions): void {
  const { config, store, verifier, clock } = options;
  const grants = forgettingChains(options.grants, verifier);
  const base = config.publicUrl;
  const issue = createTokenIssuer(store, grants, config.tokenTtlSeconds, app.businessMetrics.tokensIssued, clock);
  const metadata = serverMetadata(config);
  registerAuthorize(app, options);
  // A failure before the handler runs (a body over 16 KiB, a Content-Length that lies, a hook's refusal) answers in the
  // RFC shape too; the authorization endpoint's pages and redirects keep the service's own handler.
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (!RFC_SHAPED.has(request.routeOptions.url ?? '') || (request.raw.destroyed && reply.raw.destroyed)) throw error;
    const failure = oauthFailureOf(toApiError(error, request), request);
    if (error instanceof ApiError) reply.headers(error.headers);
    return sendOAuthError(allowAnyOrigin(reply), failure);
  });

  oauthRoute(app, 'GET', '/.well-known/oauth-authorization-server', async (_request, reply) =>
    reply.header('cache-control', METADATA_CACHE).send(metadata),
  );

  oauthRoute(app, 'POST', '/oauth2/token', async (request, reply) => {
    // RFC 6749 §4.4.2: a form, checked before the client so that a JSON body is told what to send.
    if (!(request.headers['content-type'] ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded')) {
      throw new InvalidRequest(
        'The token request must be a form: send Content-Type application/x-www-form-urlencoded (RFC 6749 §4.4.2).',
      );
    }
    const body = formOf(request);
    const client = await authenticated(store, request, body, true);
    const answer = await issue(client, request.headers, body);
    if (answer instanceof OAuthError) throw answer;
    return sendOAuth(reply, 200, answer);
  });

  oauthRoute(app, 'POST', '/oauth2/revoke', async (request, reply) => {
    const body = formOf(request);
    const client = await authenticated(store, request, body, true);
    const token = tokenParameter(body);
    const hash = secretHash(token);
    // RFC 7009 §2.1: the hint only orders the search. A refresh token takes its whole chain with it (its access
    // tokens too); an unknown token, or one of another client, is answered 200 all the same (§2.2).
    const kinds = inHintOrder(
      body,
      () => store.revokeToken(hash, client.id),
      () => grants.revokeRefreshToken(hash, client.id),
    );
    for (const revoke of kinds) if (await revoke()) break;
    verifier.forget(token);
    return reply.code(200).send();
  });

  oauthRoute(app, 'POST', '/oauth2/introspect', async (request, reply) => {
    const body = formOf(request);
    const client = await authenticated(store, request, body);
    const hash = secretHash(tokenParameter(body));
    const kinds = inHintOrder(
      body,
      () => accessTokenInfo(store, hash, client, clock),
      () => refreshTokenInfo(grants, hash, client, clock),
    );
    for (const describe of kinds) {
      const info = await describe();
      if (info) return sendOAuth(reply, 200, { active: true, ...info, iss: base });
    }
    return sendOAuth(reply, 200, { active: false });
  });
}

/** RFC 7009 §2.1, RFC 7662 §2.1: `token_type_hint` only orders the two look-ups, access tokens first unless it says refresh_token. */
function inHintOrder<T>(body: Readonly<Record<string, string>>, access: T, refresh: T): T[] {
  return body.token_type_hint === 'refresh_token' ? [refresh, access] : [access, refresh];
}

/**
 * RFC 7662 §2.2 of an access token that is live and that the client may learn about: its own account's tokens and those
 * issued to it (a code-flow token acts for the account that consented). Anything else is simply not active.
 */
async function accessTokenInfo(store: AuthStore, hash: string, client: Client, clock: () => number) {
  const token = await store.findToken(hash);
  const known = token !== undefined && (token.tenantId === client.tenantId || token.clientId === client.id);
  if (!token || !known || token.revoked || token.expiresAt <= Math.floor(clock() / 1000)) return undefined;
  return {
    scope: token.scopes.join(' '),
    client_id: token.clientId,
    token_type: 'Bearer',
    exp: token.expiresAt,
    iat: token.issuedAt,
    sub: token.tenantId,
  };
}

/**
 * The same of a refresh token (RFC 7662 §2.1 lets one be introspected), by the same rule; a retired one is not live.
 * No token_type: RFC 7662 §2.2's is an access token's type (RFC 6749 §5.1, `Bearer`), which a refresh token has not.
 */
async function refreshTokenInfo(grants: GrantStore, hash: string, client: Client, clock: () => number) {
  const token = await grants.findRefreshToken(hash);
  const known = token !== undefined && (token.accountId === client.tenantId || token.clientId === client.id);
  if (!token || !known || token.revoked || token.retired || token.expiresAt <= Math.floor(clock() / 1000))
    return undefined;
  return {
    scope: token.scopes.join(' '),
    client_id: token.clientId,
    exp: token.expiresAt,
    sub: token.accountId,
  };
}

/** RFC 8414: what an OAuth client library discovers about this server. */
function serverMetadata(config: Config): Record<string, unknown> {
  const base = config.publicUrl;
  return {
    issuer: base,
    authorization_endpoint: `${base}/oauth2/authorize`,
    token_endpoint: `${base}/oauth2/token`,
    revocation_endpoint: `${base}/oauth2/revoke`,
    introspection_endpoint: `${base}/oauth2/introspect`,
    grant_types_supported: [...GRANT_TYPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    code_challenge_methods_supported: ['S256'],
    scopes_supported: [...SCOPES],
    token_endpoint_auth_methods_supported: PUBLIC_AUTH_METHODS,
    revocation_endpoint_auth_methods_supported: PUBLIC_AUTH_METHODS,
    introspection_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
    service_documentation: config.portalUrl,
  };
}

/** The client of a request at any of the three endpoints, or the typed error thrown for the route to render. */
async function authenticated(
  store: AuthStore,
  request: FastifyRequest,
  body: Readonly<Record<string, unknown>>,
  publicAllowed = false,
): Promise<Client> {
  const client = await authenticateClient(store, request.headers.authorization, body, publicAllowed);
  if (client instanceof OAuthError) throw client;
  return client;
}

/**
 * The parameters of a request to the three endpoints. RFC 6749 §3.2: none may be sent more than once, and one sent
 * without a value is treated as omitted.
 */
function formOf(request: FastifyRequest): Readonly<Record<string, string>> {
  const body = readBody(request) ?? {};
  const form: Record<string, string> = Object.create(null);
  for (const [name, value] of Object.entries(body)) {
    if (typeof value !== 'string')
      throw new InvalidRequest(
        `${name.slice(0, 100)} was sent more than once, or not as text: send each parameter once.`,
      );
    if (value !== '') form[name] = value;
  }
  return form;
}

/** The token parameter of revocation and introspection (RFC 7009 §2.1, RFC 7662 §2.1): required, once. */
function tokenParameter(body: Readonly<Record<string, unknown>>): string {
  const token = body.token;
  if (typeof token === 'string' && token !== '') return token;
  throw new InvalidRequest('The token parameter is required: send token=<the token>.');
}

/** The paths of oauthRoute: every answer of theirs is in the RFCs' shape. */
const RFC_SHAPED = new Set<string>();

type Handler = (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;

/**
 * Every method is routed so that a wrong one gets the RFC error shape with Allow, not a framework 404; any origin may
 * call (SPEC §13).
 */
function oauthRoute(app: FastifyInstance, method: 'GET' | 'POST', url: string, handler: Handler): void {
  RFC_SHAPED.add(url);
  routeEveryMethod(app, {
    method: [method],
    url,
    cors: true,
    wrongMethod: (_request, reply, allow) => {
      reply.header('cache-control', 'no-store').header('allow', allow);
      return sendOAuthError(reply, new InvalidRequest(`This endpoint takes ${method}.`));
    },
    handler: async (request, reply) => {
      allowAnyOrigin(reply).header('cache-control', 'no-store');
      try {
        return await handler(request, reply);
      } catch (error) {
        return sendOAuthError(reply, oauthFailureOf(error, request));
      }
    },
  });
}

/**
 * The grant store, whose revocations of a chain also drop this node's cached token verdicts: the node that revokes a
 * refresh token, or sees a code or a retired refresh token replayed, refuses the chain's access tokens at once, as it
 * does a token revoked directly; other nodes within SPEC §7's 5 s.
 */
function forgettingChains(grants: GrantStore, verifier: TokenVerifier): GrantStore {
  const forgetting: Partial<GrantStore> = {
    async revokeChain(chainId, codeHash) {
      await grants.revokeChain(chainId, codeHash);
      verifier.forgetAll();
    },
    async revokeRefreshToken(tokenHash, clientId) {
      const revoked = await grants.revokeRefreshToken(tokenHash, clientId);
      if (revoked) verifier.forgetAll();
      return revoked;
    },
  };
  // The other methods are the store's own, reached through the prototype (and `this` is the store's state there).
  return Object.assign(Object.create(grants) as GrantStore, forgetting);
}
