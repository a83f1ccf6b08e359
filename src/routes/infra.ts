// Infrastructure endpoints outside the API: liveness, readiness (the database answers) and Prometheus metrics.
import type { FastifyInstance, FastifyReply, onResponseHookHandler } from 'fastify';
import { Registry, collectDefaultMetrics } from 'prom-client';
import { ApiError } from '../errors.js';
import type { Storage } from '../storage/storage.js';
import { RequestHistogram } from './request-histogram.js';

const ALLOW = 'GET, HEAD';

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

export function registerInfraRoutes(app: FastifyInstance, storage: Storage): void {
  const registry = new Registry();
  const duration = new RequestHistogram(
    'http_request_duration_seconds',
    'Time to answer HTTP requests, by route pattern, method and status.',
    [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registry,
  );

  // Each route gets its own onResponse hook with its pattern in a closure (reading the pattern
  // back from the request builds an options object per request); unmatched requests are one series.
  app.addHook('onRoute', (route) => {
    const observe = duration.observerFor(route.url);
    const hook: onResponseHookHandler = (request, reply, done) => {
      observe(request.method, reply.statusCode, reply.elapsedTime / 1000);
      done();
    };
    route.onResponse = [...toArray(route.onResponse), hook];
  });
  const observeUnmatched = duration.observerFor('unmatched');
  app.addHook('onResponse', (request, reply, done) => {
    if (request.is404) observeUnmatched(request.method, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });

  infraRoute(app, '/healthz', async (reply) => reply.send({ status: 'ok' }));

  infraRoute(app, '/readyz', async (reply) => {
    try {
      await storage.ping();
      return reply.send({ status: 'ready', database: storage.kind });
    } catch (error) {
      reply.request.log.error({ err: error }, 'readiness check failed: database unreachable');
      return reply.code(500).send({ status: 'unavailable', database: storage.kind });
    }
  });

  infraRoute(app, '/metrics', async (reply) => {
    const text = (await processMetrics().metrics()) + (await registry.metrics());
    return reply.header('content-type', registry.contentType).send(text);
  });
}

/** GET (and HEAD) answers uncached; any other method is the API's 400 with Allow, not a 404. */
function infraRoute(app: FastifyInstance, url: string, answer: (reply: FastifyReply) => Promise<FastifyReply>): void {
  app.route({
    method: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'],
    url,
    exposeHeadRoute: false,
    handler: async (request, reply) => {
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        throw new ApiError('methodNotAllowed', `${request.method} is not offered on ${url}. It offers: ${ALLOW}.`, { allow: ALLOW });
      }
      reply.header('cache-control', 'no-store');
      return answer(reply);
    },
  });
}

function toArray<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}
