// The token endpoint's protocol work, done by @node-oauth/oauth2-server: client authentication, grant and scope checks, RFC errors.
import OAuth2Server from '@node-oauth/oauth2-server';
import type { AuthStore } from './auth-store.js';
import { basicCredentials } from './client-auth.js';
import { randomSecret, secretHash, secretMatches } from './secrets.js';

export const SCOPES = ['read', 'write'] as const;
export const GRANT_TYPES = ['client_credentials'] as const;

export interface TokenAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Record<string, unknown>;
}

/** The library compares a Basic header's id and secret undecoded: it gets them decoded (client-auth.ts). */
function decodedBasic(authorization: string): string {
  const credentials = basicCredentials(authorization);
  return credentials ? `Basic ${Buffer.from(`${credentials.id}:${credentials.secret}`).toString('base64')}` : authorization;
}

/** Builds the library's server over our store: it asks the model for clients and hands it tokens to save. */
export function createTokenIssuer(store: AuthStore, tokenTtlSeconds: number) {
  const server = new OAuth2Server({
    accessTokenLifetime: tokenTtlSeconds,
    refreshTokenLifetime: tokenTtlSeconds,
    model: {
      async getClient(clientId: string, clientSecret: string) {
        const client = await store.findClient(clientId);
        if (!client || !clientSecret || !secretMatches(clientSecret, client.secretHash)) return false;
        return { id: client.id, grants: [...GRANT_TYPES], tenantId: client.tenantId, scopes: client.scopes };
      },
      async getUserFromClient(client: { tenantId: string }) {
        return { id: client.tenantId };
      },
      /** A client gets every scope it holds unless it asks for fewer; asking for one it lacks is invalid_scope. */
      async validateScope(_user: unknown, client: { scopes: string[] }, scope?: string[]) {
        const asked = scope && scope.length > 0 ? scope : client.scopes;
        return asked.every((name) => client.scopes.includes(name)) ? asked : false;
      },
      async generateAccessToken() {
        return randomSecret();
      },
      async saveToken(token: { accessToken: string; accessTokenExpiresAt: Date; scope?: string[] }, client: { id: string; tenantId: string }, user: { id: string }) {
        const issuedAt = Math.floor(Date.now() / 1000);
        await store.saveToken({
          tokenHash: secretHash(token.accessToken), tenantId: user.id, clientId: client.id, scopes: token.scope ?? [],
          issuedAt, expiresAt: Math.floor(token.accessTokenExpiresAt.getTime() / 1000), revoked: false,
        });
        return { ...token, client, user };
      },
      // Required by the library's model check, never reached: only client_credentials is enabled.
      async getAccessToken() {
        return false;
      },
    } as unknown as OAuth2Server.ServerOptions['model'],
  });

  /** Runs one token request; the answer is the RFC 6749 §5.1 token or §5.2 error, never throwing. */
  return async function issue(method: string, headers: Record<string, string | string[] | undefined>, body: Record<string, unknown>): Promise<TokenAnswer> {
    const flat: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) if (typeof value === 'string') flat[name] = value;
    if (flat.authorization) flat.authorization = decodedBasic(flat.authorization);
    const request = new OAuth2Server.Request({ method, query: {}, headers: flat, body });
    const response = new OAuth2Server.Response({ headers: {} });
    try {
      await server.token(request, response);
    } catch (error) {
      // Errors inside the grant are already written into the response (status, body, WWW-Authenticate);
      // those the library raises before (a request that is not a form POST) are written here.
      const written = (response.body as { error?: unknown } | undefined)?.error !== undefined;
      if (!written) {
        const oauth = error instanceof OAuth2Server.OAuthError ? error : new OAuth2Server.ServerError('The token request failed.');
        return { status: oauth.code, headers: {}, body: { error: oauth.name, error_description: oauth.message } };
      }
    }
    return { status: response.status ?? 500, headers: (response.headers ?? {}) as Record<string, string>, body: (response.body ?? {}) as Record<string, unknown> };
  };
}
