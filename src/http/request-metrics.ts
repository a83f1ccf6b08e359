// Times every answer of the app by route pattern, method and status: a shared plugin, so it sees the routes of every
// surface.
import type { FastifyInstance, onResponseHookHandler } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { Registry } from 'prom-client';
import { RequestHistogram } from '../routes/request-histogram.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's own metrics (the request histogram), which /metrics serves after the process metrics. */
    readonly requestMetrics: Registry;
  }
}

/**
 * Not encapsulated (fastify-plugin): an onRoute hook sees only the routes of its own context and
 * those below it, so it must sit on the root, registered before any surface.
 */
async function requestMetrics(app: FastifyInstance): Promise<void> {
  const registry = new Registry();
  const duration = new RequestHistogram(
    'http_request_duration_seconds',
    'Time to answer HTTP requests, by route pattern, method and status.',
    [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registry,
  );
  app.decorate('requestMetrics', registry);

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
}

function toArray<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

export const requestMetricsPlugin = fastifyPlugin(requestMetrics, { name: 'request-metrics', fastify: '5.x' });
