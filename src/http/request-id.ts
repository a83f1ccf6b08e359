// The request id of every answer: the client's X-Request-Id when it is a sane token, else a fresh UUID.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** What a request id may be: the client's X-Request-Id is kept only when it matches (the portal checks its filter too). */
export const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Fastify's genReqId; also used for the answers Node's server gives before Fastify sees a request. */
export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}
