// The deprecation stage: with V1_SUNSET set, every answer under /v1 announces it (Deprecation, Sunset, Link
// rel="deprecation").
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';

export interface DeprecationHeaders {
  /** RFC 9745: `@` and the Unix time (seconds) of V1_DEPRECATED, 00:00 UTC. */
  readonly deprecation: string;
  /** RFC 8594: the HTTP-date of V1_SUNSET, 00:00 UTC. */
  readonly sunset: string;
  /** The link to the portal's versions page, with rel="deprecation" (RFC 9745 §3). */
  readonly link: string;
}

/** The headers v1 answers carry, or undefined while no sunset is announced (V1_SUNSET unset). */
export function deprecationHeaders(
  config: Pick<Config, 'v1Sunset' | 'v1Deprecated' | 'portalUrl'>,
): DeprecationHeaders | undefined {
  if (config.v1Sunset === undefined) return undefined;
  return {
    deprecation: `@${midnightUtc(config.v1Deprecated) / 1000}`,
    sunset: new Date(midnightUtc(config.v1Sunset)).toUTCString(),
    link: `<${config.portalUrl}/versions>; rel="deprecation"`,
  };
}

/** Adds the headers to an answer when it is a v1 one; the stage is undefined while V1_SUNSET is unset. */
export type DeprecationStage = (request: FastifyRequest, reply: FastifyReply) => void;

export function deprecationStage(
  config: Pick<Config, 'v1Sunset' | 'v1Deprecated' | 'portalUrl'>,
): DeprecationStage | undefined {
  const headers = deprecationHeaders(config);
  if (!headers) return undefined;
  return (request, reply) => {
    if (!isV1(request.url)) return;
    reply.header('deprecation', headers.deprecation);
    reply.header('sunset', headers.sunset);
    const link = reply.getHeader('link');
    const existing = Array.isArray(link) ? link.join(', ') : link;
    reply.header('link', existing === undefined || existing === '' ? headers.link : `${existing}, ${headers.link}`);
  };
}

/**
 * Runs the stage in an onSend hook, so that no routed answer escapes it: successes, errors,
 * 304s, suppressed codes, and the 404s of unknown paths under /v1. onSend comes after the
 * handler, so a Link header the answer already has (the paging links) is kept and the
 * deprecation link appended. (Errors raised before routing skip the hooks; the framework
 * error handler runs the same stage itself.)
 */
export function registerDeprecation(app: FastifyInstance, stage: DeprecationStage | undefined): void {
  if (!stage) return;
  app.addHook(
    'onSend',
    (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void) => {
      stage(request, reply);
      done(null, payload);
    },
  );
}

/** `/v1`, `/v1/…` or `/v1?…` (the URL after the format suffix is cut: `/v1/dogs.xml` is `/v1/dogs`). */
function isV1(url: string): boolean {
  return url.startsWith('/v1') && (url.length === 3 || url[3] === '/' || url[3] === '?');
}

function midnightUtc(date: string): number {
  return Date.parse(`${date}T00:00:00Z`);
}
