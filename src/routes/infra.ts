// Infrastructure endpoints outside the API: liveness, readiness (the database answers) and Prometheus metrics.
import type { FastifyInstance } from 'fastify';
import { Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Storage } from '../storage/storage.js';

export function registerInfraRoutes(app: FastifyInstance, storage: Storage): void {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer HTTP requests, by route pattern, method and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });

  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    duration.observe({ method: request.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });

  app.get('/healthz', async (_request, reply) => reply.header('cache-control', 'no-store').send({ status: 'ok' }));

  app.get('/readyz', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    try {
      await storage.ping();
      return reply.send({ status: 'ready', database: storage.kind });
    } catch (error) {
      request.log.error({ err: error }, 'readiness check failed: database unreachable');
      return reply.code(500).send({ status: 'unavailable', database: storage.kind });
    }
  });

  app.get('/metrics', async (_request, reply) => {
    reply.header('content-type', registry.contentType);
    return reply.send(await registry.metrics());
  });
}
