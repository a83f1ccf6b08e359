// The OAuth surface: the authorization server's endpoints (authorize, token, revoke, introspect, RFC 8414 metadata),
// answering in RFC 6749's error shape (authorize: in pages and redirects).
import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance } from 'fastify';
import { registerOAuthRoutes, type OAuthRouteOptions } from '../auth/oauth-routes.js';

export async function oauthSurface(app: FastifyInstance, options: OAuthRouteOptions): Promise<void> {
  // The portal's session cookie reaches /oauth2/authorize (Path=/); parsed on this surface only, not on the API's.
  await app.register(fastifyCookie);
  registerOAuthRoutes(app, options);
}
