// Times and counts every answer of the app (by route pattern, and by API operation, version and status), and holds the
// business counters: a shared plugin, so it sees the routes of every surface.
import type { FastifyInstance, onResponseHookHandler } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { Counter, Registry } from 'prom-client';
import type { Endpoint } from './endpoint.js';
import { endpointCounter, RequestCounter } from './request-counter.js';
import { RequestHistogram } from '../routes/request-histogram.js';
import type { RequestRecorder } from './request-recorder.js';

/** What the service counts beside its requests. */
interface BusinessMetrics {
  readonly tokensIssued: Counter<'grant'>;
  readonly signups: Counter;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's own metrics (requests and business counters), which /metrics serves after the process metrics. */
    readonly requestMetrics: Registry;
    readonly businessMetrics: BusinessMetrics;
  }
}

/**
 * Not encapsulated (fastify-plugin): an onRoute hook sees only the routes of its own context and
 * those below it, so it must sit on the root, registered before any surface.
 */
async function requestMetrics(app: FastifyInstance, { recorder }: { recorder: RequestRecorder }): Promise<void> {
  const registry = new Registry();
  registry.registerMetric(recorder.batches);
  registry.registerMetric(recorder.dropped);
  // Off, the API's hook records nothing and has no branch for it.
  const record = recorder.enabled ? recorder : undefined;
  const duration = new RequestHistogram(
    'http_request_duration_seconds',
    'Time to answer HTTP requests, by route pattern, method and status.',
    [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registry,
  );
  const requests = new RequestCounter(
    'http_requests_total',
    'HTTP requests answered, by API operation (the route pattern outside the API), version and status.',
    registry,
  );
  app.decorate('requestMetrics', registry);
  app.decorate('businessMetrics', {
    tokensIssued: new Counter({
      name: 'oauth_tokens_issued_total',
      help: 'Access tokens issued, by grant type.',
      labelNames: ['grant'] as const,
      registers: [registry],
    }),
    signups: new Counter({ name: 'portal_signups_total', help: 'Accounts created by sign-up.', registers: [registry] }),
  });

  // Each route gets its own onResponse hook with its pattern and counters in a closure (reading the
  // pattern back from the request builds an options object per request); unmatched requests are one series.
  app.addHook('onRoute', (route) => {
    const observe = duration.observerFor(route.url);
    const api = route.config as { endpoint?: Endpoint; version?: number } | undefined;
    const hook: onResponseHookHandler =
      api?.endpoint && api.version !== undefined
        ? apiHook(observe, endpointCounter(requests, api.endpoint, api.version), record, api.version)
        : otherHook(observe, requests.counterFor(route.url, ''));
    route.onResponse = [...toArray(route.onResponse), hook];
  });
  const observeUnmatched = duration.observerFor('unmatched');
  const countUnmatched = requests.counterFor('unmatched', '');
  app.addHook('onResponse', (request, reply, done) => {
    if (request.is404) {
      observeUnmatched(request.method, reply.statusCode, reply.elapsedTime / 1000);
      countUnmatched(reply.statusCode);
    }
    done();
  });
}

/** The API's hook: one reading of the elapsed time serves the histogram and the request log. */
function apiHook(
  observe: ReturnType<RequestHistogram['observerFor']>,
  count: ReturnType<typeof endpointCounter>,
  recorder: RequestRecorder | undefined,
  version: number,
): onResponseHookHandler {
  if (!recorder) {
    return (request, reply, done) => {
      const status = reply.statusCode;
      observe(request.method, status, reply.elapsedTime / 1000);
      count(request, status);
      done();
    };
  }
  return (request, reply, done) => {
    const status = reply.statusCode;
    const elapsed = reply.elapsedTime;
    observe(request.method, status, elapsed / 1000);
    count(request, status);
    recorder.record(request, status, elapsed, version);
    done();
  };
}

function otherHook(
  observe: ReturnType<RequestHistogram['observerFor']>,
  count: ReturnType<RequestCounter['counterFor']>,
): onResponseHookHandler {
  return (request, reply, done) => {
    const status = reply.statusCode;
    observe(request.method, status, reply.elapsedTime / 1000);
    count(status);
    done();
  };
}

function toArray<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

export const requestMetricsPlugin = fastifyPlugin(requestMetrics, { name: 'request-metrics', fastify: '5.x' });
