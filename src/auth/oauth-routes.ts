// The authorization server's endpoints: RFC 8414 metadata, token (RFC 6749), revocation (RFC 7009), introspection (RFC 7662).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { ApiError } from '../errors.js';
import { readBody } from '../http/body.js';
import { routeEveryMethod } from '../http/route-every-method.js';
import type { AuthStore } from './auth-store.js';
import { authenticateClient } from './client-auth.js';
import { createTokenIssuer, GRANT_TYPES, SCOPES } from './oauth-server.js';
import { secretHash } from './secrets.js';
import type { TokenVerifier } from './token-verifier.js';

const ALLOWED = new Set([200, 201, 304, 400, 401, 403, 404, 500]);
const CLIENT_AUTH_METHODS = ['client_secret_basic', 'client_secret_post'];

export function registerOAuthRoutes(app: FastifyInstance, config: Config, store: AuthStore, verifier: TokenVerifier): void {
  const base = config.publicUrl;
  const issue = createTokenIssuer(store, config.tokenTtlSeconds);
  const metadata = {
    issuer: base,
    token_endpoint: `${base}/oauth2/token`,
    revocation_endpoint: `${base}/oauth2/revoke`,
    introspection_endpoint: `${base}/oauth2/introspect`,
    grant_types_supported: [...GRANT_TYPES],
    response_types_supported: [],
    scopes_supported: [...SCOPES],
    token_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
    revocation_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
    introspection_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
    service_documentation: config.portalUrl,
  };

  oauthRoute(app, 'GET', '/.well-known/oauth-authorization-server', async (_request, reply) => reply.send(metadata));

  oauthRoute(app, 'POST', '/oauth2/token', async (request, reply) => {
    const answer = await issue('POST', request.headers, readBody(request) ?? {});
    reply.headers(answer.headers);
    // The library's challenge names its own realm; the service has one name everywhere.
    if (answer.headers['www-authenticate']) reply.header('www-authenticate', 'Basic realm="Dog Registry"');
    return sendOAuth(reply, answer.status, answer.body);
  });

  oauthRoute(app, 'POST', '/oauth2/revoke', async (request, reply) => {
    const body = readBody(request) ?? {};
    const auth = await authenticateClient(store, request.headers.authorization, body);
    if (!auth.ok) return invalidClient(reply, auth.viaHeader);
    if (typeof body.token !== 'string' || body.token === '') return oauthError(reply, 400, 'invalid_request', 'The token parameter is required.');
    // RFC 7009 §2.2: an unknown token, or one of another client, is answered 200 all the same.
    await store.revokeToken(secretHash(body.token), auth.client.id);
    verifier.forget(body.token);
    return reply.code(200).send();
  });

  oauthRoute(app, 'POST', '/oauth2/introspect', async (request, reply) => {
    const body = readBody(request) ?? {};
    const auth = await authenticateClient(store, request.headers.authorization, body);
    if (!auth.ok) return invalidClient(reply, auth.viaHeader);
    if (typeof body.token !== 'string' || body.token === '') return oauthError(reply, 400, 'invalid_request', 'The token parameter is required.');
    const token = await store.findToken(secretHash(body.token));
    const now = Math.floor(Date.now() / 1000);
    // A client learns only about its own account's tokens; anything else is simply not active.
    if (!token || token.revoked || token.expiresAt <= now || token.tenantId !== auth.client.tenantId) return sendOAuth(reply, 200, { active: false });
    return sendOAuth(reply, 200, {
      active: true, scope: token.scopes.join(' '), client_id: token.clientId, token_type: 'Bearer',
      exp: token.expiresAt, iat: token.issuedAt, sub: token.tenantId, iss: base,
    });
  });
}

type Handler = (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;

/** Every method is routed so that a wrong one gets the RFC error shape with Allow, not a framework 404. */
function oauthRoute(app: FastifyInstance, method: 'GET' | 'POST', url: string, handler: Handler): void {
  routeEveryMethod(app, {
    method: [method],
    url,
    wrongMethod: (_request, reply, allow) => {
      reply.header('cache-control', 'no-store').header('allow', allow);
      return oauthError(reply, 400, 'invalid_request', `This endpoint takes ${method}.`);
    },
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      try {
        return await handler(request, reply);
      } catch (error) {
        if (error instanceof ApiError && error.status === 400) return oauthError(reply, 400, 'invalid_request', error.message);
        request.log.error({ err: error }, 'OAuth endpoint failed');
        return oauthError(reply, 500, 'server_error', `The server failed; quote the request id ${request.id} if you report it.`);
      }
    },
  });
}

function sendOAuth(reply: FastifyReply, status: number, body: Record<string, unknown>): FastifyReply {
  reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
  return reply.code(ALLOWED.has(status) ? status : 500).type('application/json; charset=utf-8').send(body);
}

function oauthError(reply: FastifyReply, status: number, error: string, description: string): FastifyReply {
  return sendOAuth(reply, status, { error, error_description: description });
}

/** RFC 6749 §5.2: 401 with a Basic challenge when the client tried the Authorization header. */
function invalidClient(reply: FastifyReply, viaHeader: boolean): FastifyReply {
  if (viaHeader) reply.header('www-authenticate', 'Basic realm="Dog Registry"');
  return oauthError(reply, viaHeader ? 401 : 400, 'invalid_client', 'Client authentication failed: check the client id and secret.');
}
