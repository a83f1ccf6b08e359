// The infrastructure surface, outside the API: `/`, liveness, readiness (the database answers) and Prometheus metrics.
import { createHash, timingSafeEqual } from 'node:crypto';
import { bearerToken } from '../auth/access.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Counter, Registry, collectDefaultMetrics } from 'prom-client';
import type { Config } from '../config.js';
import { ApiError } from '../errors.js';
import { catalogueWrongMethod, routeEveryMethod } from '../http/route-every-method.js';
import { versionMissingError } from '../http/versions.js';
import { registerRootFavicon } from '../portal/assets.js';
import type { Storage } from '../storage/storage.js';

export interface InfraSurfaceOptions {
  readonly config: Config;
  readonly storage: Storage;
}

/**
 * Process metrics (CPU, memory, event loop, GC) describe the process, not an app: they are
 * collected once, because each collection installs observers that are never removed.
 */
let processRegistry: Registry | undefined;

function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

export async function infraSurface(app: FastifyInstance, { config, storage }: InfraSurfaceOptions): Promise<void> {
  // `/` on the API host: a browser goes to the portal (SPEC §8); a client is shown where the API is.
  routeEveryMethod(app, {
    url: '/',
    method: ['GET'],
    wrongMethod: catalogueWrongMethod,
    handler: async (request, reply) => {
      if ((request.headers.accept ?? '').includes('text/html')) return reply.redirect(config.portalUrl, 302);
      throw versionMissingError('/');
    },
  });

  // Browsers ask every host for /favicon.ico; the portal's icon spares them (and the logs) a 404.
  registerRootFavicon(app, catalogueWrongMethod);

  infraRoute(app, '/healthz', async (reply) => reply.send({ status: 'ok' }));

  infraRoute(app, '/readyz', async (reply) => {
    try {
      await withinReadyWait(storage.ping());
      return reply.send({ status: 'ready', database: storage.kind });
    } catch (error) {
      reply.request.log.error({ err: error }, 'readiness check failed: database unreachable');
      return reply.code(500).send({ status: 'unavailable', database: storage.kind });
    }
  });

  const requestMetrics = app.requestMetrics;
  new Counter({
    name: 'search_answers_total',
    help: 'Searches of a tenant (q, /search) answered, by where from: kept (an answer the node kept, or was reading, under the same write stamp) or read (from the search index).',
    labelNames: ['from'] as const,
    registers: [requestMetrics],
    collect() {
      this.reset();
      this.inc({ from: 'kept' }, storage.searchCache.hits);
      this.inc({ from: 'read' }, storage.searchCache.misses);
    },
  });
  const allowed = metricsAccess(config.metricsToken);
  infraRoute(app, '/metrics', async (reply) => {
    allowed(reply.request);
    const text = (await processMetrics().metrics()) + (await requestMetrics.metrics());
    return reply.header('content-type', requestMetrics.contentType).send(text);
  });
}

/**
 * The check of /metrics: none when METRICS_TOKEN is unset, else its bearer token, compared in
 * constant time (both sides hashed first, so neither the content nor the length leaks through timing).
 */
function metricsAccess(token: string | undefined): (request: FastifyRequest) => void {
  if (token === undefined) return () => {};
  const expected = createHash('sha256').update(token).digest();
  return (request) => {
    const sent = bearerToken(request.headers.authorization) ?? '';
    if (timingSafeEqual(createHash('sha256').update(sent).digest(), expected) && sent !== '') return;
    throw new ApiError(
      'metricsTokenInvalid',
      sent === ''
        ? '/metrics needs the token set in METRICS_TOKEN: send Authorization: Bearer <METRICS_TOKEN>.'
        : 'The bearer token sent is not the one set in METRICS_TOKEN: send Authorization: Bearer <METRICS_TOKEN>.',
      { 'www-authenticate': 'Bearer realm="metrics"' },
    );
  };
}

/** GET (and HEAD) answers uncached. */
function infraRoute(app: FastifyInstance, url: string, answer: (reply: FastifyReply) => Promise<FastifyReply>): void {
  routeEveryMethod(app, {
    url,
    method: ['GET'],
    wrongMethod: catalogueWrongMethod,
    handler: async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return answer(reply);
    },
  });
}

/**
 * How long /readyz waits for the database to answer: a probe with a timeout of a few seconds gets the 500 it can act
 * on, not a timeout of its own, when PostgreSQL accepts connections and then says nothing.
 */
const READY_WAIT_MS = 2000;

function withinReadyWait(ping: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`the database did not answer within ${READY_WAIT_MS} ms`)),
      READY_WAIT_MS,
    );
  });
  return Promise.race([ping, late]).finally(() => clearTimeout(timer));
}
