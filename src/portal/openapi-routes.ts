// Serves each API version's OpenAPI 3.1 document at {portal}/openapi/v<N>.json, open to everyone.
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { routeEveryMethod, type WrongMethodAnswer } from '../http/route-every-method.js';
import { VERSIONS } from '../http/versions.js';
import { buildDocument } from '../openapi/build-document.js';

export function registerOpenApiRoutes(app: FastifyInstance, config: Config, wrongMethod: WrongMethodAnswer): void {
  for (const version of VERSIONS) {
    // Built once: the definitions do not change while the service runs.
    const body = JSON.stringify(buildDocument(config, version));
    routeEveryMethod(app, {
      url: `/openapi/v${version}.json`,
      method: ['GET'],
      wrongMethod,
      handler: async (_request, reply) => reply.type('application/json; charset=utf-8').send(body),
    });
  }
}
