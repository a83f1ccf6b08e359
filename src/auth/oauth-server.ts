// The token grant, done by @node-oauth/oauth2-server for a client already authenticated (client-auth.ts): grant, scope
// and token checks.
import OAuth2Server from '@node-oauth/oauth2-server';
import type { Counter } from 'prom-client';
import type { AuthStore, Client } from './auth-store.js';
import { InvalidRequest, UnsupportedGrantType, type OAuthFailure } from './oauth-errors.js';
import { randomSecret, secretHash } from './secrets.js';

export const SCOPES = ['read', 'write'] as const;
export const GRANT_TYPES = ['client_credentials'] as const;

/** The client as the library's model hands it around. */
interface ModelClient {
  readonly id: string;
  readonly grants: string[];
  readonly tenantId: string;
  readonly scopes: readonly string[];
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

/** The library's model over our store, but for getClient, which each request supplies. */
function grantModel(store: AuthStore) {
  return {
    async getUserFromClient(client: ModelClient) {
      return { id: client.tenantId };
    },
    /** A client gets every scope it holds unless it asks for fewer; asking for one it lacks is invalid_scope. */
    async validateScope(_user: unknown, client: ModelClient, scope?: string[]) {
      const asked = scope && scope.length > 0 ? scope : [...client.scopes];
      return asked.every((name) => client.scopes.includes(name)) ? asked : false;
    },
    async generateAccessToken() {
      return randomSecret();
    },
    async saveToken(
      token: { accessToken: string; accessTokenExpiresAt: Date; scope?: string[] },
      client: ModelClient,
      user: { id: string },
    ) {
      const issuedAt = Math.floor(Date.now() / 1000);
      await store.saveToken({
        tokenHash: secretHash(token.accessToken),
        tenantId: user.id,
        clientId: client.id,
        scopes: token.scope ?? [],
        issuedAt,
        expiresAt: Math.floor(token.accessTokenExpiresAt.getTime() / 1000),
        revoked: false,
      });
      return { ...token, client, user };
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
export function createTokenIssuer(store: AuthStore, tokenTtlSeconds: number, issued?: Counter<'grant'>) {
  const model = grantModel(store);
  const options = {
    accessTokenLifetime: tokenTtlSeconds,
    refreshTokenLifetime: tokenTtlSeconds,
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
    const modelClient: ModelClient = {
      id: client.id,
      grants: [...GRANT_TYPES],
      tenantId: client.tenantId,
      scopes: client.scopes,
    };
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
    return response.body as Record<string, unknown>;
  };
}

/** The headers the library reads (the form's media type and length); the credentials were checked already. */
function withoutAuthorization(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (typeof value === 'string' && name !== 'authorization') flat[name] = value;
  return flat;
}
