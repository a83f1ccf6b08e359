// CORS (SPEC §13): the API, OAuth and OpenAPI paths answer scripts of any origin, never with credentials.
import type { FastifyReply, FastifyRequest } from 'fastify';

/** What a browser script on another origin may read of an answer. */
const EXPOSED_HEADERS =
  'ETag, Link, Location, X-Request-Id, X-Total-Count, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, ' +
  'Retry-After, Deprecation, Sunset';

/** The request headers a cross-origin script may send (SPEC §13). */
const ALLOWED_HEADERS = 'Authorization, Content-Type, Accept, If-Match, If-None-Match, Idempotency-Key';

/** Two constant headers: cheap enough for every answer of the hot paths. */
export function allowAnyOrigin(reply: FastifyReply): FastifyReply {
  return reply.header('access-control-allow-origin', '*').header('access-control-expose-headers', EXPOSED_HEADERS);
}

/**
 * Whether the request's route answers any origin (routeEveryMethod's `cors` in its config): its errors, some sent
 * before its handler runs, carry the CORS headers too.
 */
export function isCorsRoute(request: FastifyRequest): boolean {
  return (request.routeOptions.config as { cors?: boolean } | undefined)?.cors === true;
}

/**
 * A preflight (OPTIONS) answers 200 with the methods of the path, before any token check: a browser sends it without
 * credentials. It says `Vary: Accept` as every API answer does (SPEC §2), so that no cache tells one from the others.
 */
export function answerPreflight(reply: FastifyReply, allow: string): FastifyReply {
  return allowAnyOrigin(reply)
    .code(200)
    .headers({
      'access-control-allow-methods': allow,
      'access-control-allow-headers': ALLOWED_HEADERS,
      'access-control-max-age': '86400',
      allow,
      vary: 'Accept',
    })
    .send();
}
