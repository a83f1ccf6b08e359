// The OAuth surface: the authorization server's endpoints (token, revoke, introspect, RFC 8414 metadata), answering in
// RFC 6749's error shape.
import type { FastifyInstance } from 'fastify';
import type { AuthStore } from '../auth/auth-store.js';
import { registerOAuthRoutes } from '../auth/oauth-routes.js';
import type { TokenVerifier } from '../auth/token-verifier.js';
import type { Config } from '../config.js';

export interface OAuthSurfaceOptions {
  readonly config: Config;
  readonly store: AuthStore;
  readonly verifier: TokenVerifier;
}

export async function oauthSurface(
  app: FastifyInstance,
  { config, store, verifier }: OAuthSurfaceOptions,
): Promise<void> {
  registerOAuthRoutes(app, config, store, verifier);
}
