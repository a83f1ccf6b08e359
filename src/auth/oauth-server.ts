// The token grants, done by @node-oauth/oauth2-server for a client already authenticated (client-auth.ts): grant, scope,
// code, PKCE, refresh and token checks.
import OAuth2Server from '@node-oauth/oauth2-server';
import type { Counter } from 'prom-client';
import type { AccessToken, AuthStore, Client } from './auth-store.js';
import { InvalidRequest, UnsupportedGrantType, type OAuthFailure } from './oauth-errors.js';
import { codeModel, type ModelUser } from './code-model.js';
import type { GrantStore, RefreshToken } from './grant-store.js';
import { randomSecret, secretHash } from './secrets.js';

export const SCOPES = ['read', 'write'] as const;
export const GRANT_TYPES = ['client_credentials', 'authorization_code', 'refresh_token'] as const;
/** A public client has no secret to prove itself with, so it may use only the code flow (with PKCE) and its refresh. */
const PUBLIC_GRANTS = ['authorization_code', 'refresh_token'];
/** A refresh token lives 30 days; rotation gives a new one at each use. */
const REFRESH_TOKEN_LIFETIME_SECONDS = 30 * 24 * 60 * 60;

/** The client as the library's model hands it around. */
export interface ModelClient {
  readonly id: string;
  readonly grants: string[];
  readonly tenantId: string;
  readonly scopes: readonly string[];
  readonly redirectUris: readonly string[];
}

/** The library's view of a client: the grants its type allows (another one is unauthorized_client). */
export function modelClientOf(client: Client): ModelClient {
  return {
    id: client.id,
    grants: client.type === 'public' ? PUBLIC_GRANTS : [...GRANT_TYPES],
    tenantId: client.tenantId,
    scopes: client.scopes,
    redirectUris: client.redirectUris,
  };
}

/** The grants this server offers; every other grant type, the library's own included, is unsupported_grant_type. */
function offeredGrant(body: Readonly<Record<string, unknown>>): string | OAuthFailure {
  const grant = body.grant_type;
  if (grant === undefined || grant === '')
    return new InvalidRequest('The grant_type parameter is missing: send grant_type=client_credentials.');
  if (typeof grant !== 'string') return new InvalidRequest('grant_type was sent more than once: send it once.');
  if (!(GRANT_TYPES as readonly string[]).includes(grant)) {
    return new UnsupportedGrantType(
      `This server does not offer the grant type ${grant.slice(0, 100)}; it offers: ${GRANT_TYPES.join(', ')}.`,
    );
  }
  return grant;
}

/**
 * Every code has a redirect URI and an S256 challenge (SPEC §12), so an exchange needs both: one left out is
 * invalid_request (RFC 6749 §5.2, a missing parameter), answered before the library looks the code up and uses it.
 */
function missingCodeParameter(body: Readonly<Record<string, unknown>>): InvalidRequest | undefined {
  const name = ['code', 'redirect_uri', 'code_verifier'].find((parameter) => body[parameter] === undefined);
  if (name === undefined) return undefined;
  return new InvalidRequest(
    `The ${name} parameter is missing. A code exchange sends the code, the redirect_uri of its authorization request and ` +
      'the PKCE code_verifier.',
  );
}

/**
 * A client gets every scope it holds unless it asks for fewer; asking for one it lacks is invalid_scope, which names
 * it. A scope asked twice (`read read`) is granted, and shown on the consent page, once.
 */
export async function validateScope(_user: unknown, client: ModelClient, scope?: string[]) {
  const asked = scope && scope.length > 0 ? [...new Set(scope)] : [...client.scopes];
  const lacking = asked.filter((name) => !client.scopes.includes(name));
  if (lacking.length === 0) return asked;
  // The library checks that each scope is printable ASCII without " and \ (RFC 6749 §3.3), so it can be quoted.
  const named = lacking.map((name) => name.slice(0, 40)).join(' ');
  throw new OAuth2Server.InvalidScopeError(
    `This client does not hold the scope ${named}: ask for some of the scopes it holds (${client.scopes.join(' ')}), ` +
      'space-separated, or leave scope out to get them all.',
  );
}

interface IssuedToken {
  accessToken: string;
  accessTokenExpiresAt: Date;
  refreshToken?: string;
  refreshTokenExpiresAt?: Date;
  scope?: string[];
}

/** The library's model over our stores, but for getClient, which each request supplies. */
function grantModel(store: AuthStore, grants: GrantStore, clock: () => number, tokenTtlSeconds: number) {
  return {
    ...codeModel(grants, clock),
    async getUserFromClient(client: ModelClient): Promise<ModelUser> {
      return { id: client.tenantId };
    },
    validateScope,
    async generateAccessToken() {
      return randomSecret();
    },
    async generateRefreshToken() {
      return randomSecret();
    },
    /**
     * The user is the account the token acts for: the client's own, or (code flow) the one that consented. At a refresh
     * the presented token is retired in the same transaction; losing that race to another use of it is a reuse.
     */
    async saveToken(token: IssuedToken, client: ModelClient, user: ModelUser) {
      // A scope is a set (RFC 6749 §3.3): `read read` is read, once, in the answer too.
      const scopes = [...new Set(token.scope ?? [])];
      // Issued and expiring by the app's clock, like every check of them (the library dates its answer by its own).
      const issuedAt = Math.floor(clock() / 1000);
      const access: AccessToken = {
        tokenHash: secretHash(token.accessToken),
        tenantId: user.id,
        clientId: client.id,
        scopes,
        issuedAt,
        expiresAt: issuedAt + tokenTtlSeconds,
        revoked: false,
        ...(user.chainId !== undefined && { chainId: user.chainId }),
      };
      if (token.refreshToken === undefined || user.chainId === undefined) {
        await store.saveToken(access);
        return { ...token, scope: scopes, client, user };
      }
      const refresh: RefreshToken = {
        tokenHash: secretHash(token.refreshToken),
        chainId: user.chainId,
        clientId: client.id,
        accountId: user.id,
        // A refresh that narrowed its access token leaves the refresh token's scope as it was (RFC 6749 §6).
        scopes: user.refreshScopes !== undefined ? [...user.refreshScopes] : scopes,
        expiresAt: Math.floor(clock() / 1000) + REFRESH_TOKEN_LIFETIME_SECONDS,
        retired: false,
        revoked: false,
      };
      if (user.rotating !== undefined) {
        if (!(await grants.rotateRefreshToken(user.rotating, access, refresh))) {
          await grants.revokeChain(user.chainId);
          throw new OAuth2Server.InvalidGrantError('Invalid grant: refresh token is invalid');
        }
      } else if (!(await grants.saveTokens(user.codeHash ?? '', access, refresh))) {
        // A replay of the code revoked its chain before these were saved: none is, and this exchange fails too.
        throw new OAuth2Server.InvalidGrantError('Invalid grant: authorization code is invalid');
      }
      return { ...token, scope: scopes, client, user };
    },
    // Required by the library's model check, never reached: only the token endpoint is used.
    async getAccessToken() {
      return false;
    },
  };
}

/**
 * Builds the library's server over our store. The client is authenticated before the library sees
 * the request, so the library takes it from the model as it is (requireClientAuthentication off):
 * one code path authenticates clients at every OAuth endpoint.
 */
export function createTokenIssuer(
  store: AuthStore,
  grants: GrantStore,
  tokenTtlSeconds: number,
  issued?: Counter<'grant'>,
  clock: () => number = Date.now,
) {
  const model = grantModel(store, grants, clock, tokenTtlSeconds);
  const options = {
    accessTokenLifetime: tokenTtlSeconds,
    refreshTokenLifetime: REFRESH_TOKEN_LIFETIME_SECONDS,
    requireClientAuthentication: Object.fromEntries(GRANT_TYPES.map((grant) => [grant, false])),
  };

  /**
   * Runs one token request of an authenticated client: the RFC 6749 §5.1 token, or the error to
   * send. The library's own errors (invalid_scope, unauthorized_client, …) are thrown as they
   * are; the OAuth routes map them (oauth-errors.ts).
   */
  return async function issue(
    client: Client,
    headers: Record<string, string | string[] | undefined>,
    body: Readonly<Record<string, unknown>>,
  ): Promise<Record<string, unknown> | OAuthFailure> {
    const grant = offeredGrant(body);
    if (typeof grant !== 'string') return grant;
    const missing = grant === 'authorization_code' ? missingCodeParameter(body) : undefined;
    if (missing) return missing;
    const modelClient = modelClientOf(client);
    const { client_secret: _secret, ...rest } = body;
    const request = new OAuth2Server.Request({
      method: 'POST',
      query: {},
      headers: withoutAuthorization(headers),
      body: { ...rest, client_id: client.id },
    });
    const response = new OAuth2Server.Response({ headers: {} });
    // A server of this one request (the library keeps nothing else in it), whose model hands the library the client
    // authenticated already.
    const server = new OAuth2Server({
      ...options,
      model: { ...model, getClient: async () => modelClient } as unknown as OAuth2Server.ServerOptions['model'],
    });
    await server.token(request, response);
    issued?.inc({ grant });
    const answer = response.body as Record<string, unknown>;
    // The library counts expires_in from the expiry back to its own clock a moment later, so that it could read one
    // second short (3599): the token was issued just now, with the whole lifetime.
    if (typeof answer.expires_in === 'number') answer.expires_in = tokenTtlSeconds;
    return answer;
  };
}

/** The headers the library reads (the form's media type and length); the credentials were checked already. */
function withoutAuthorization(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (typeof value === 'string' && name !== 'authorization') flat[name] = value;
  return flat;
}
