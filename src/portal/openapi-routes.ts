// Serves each API version's OpenAPI 3.1 document at {portal}/openapi/v<N>.json, open to everyone, any origin included.
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { sendNotModified } from '../http/compression.js';
import { etagOf, noneMatch } from '../http/conditional.js';
import { allowAnyOrigin } from '../http/cors.js';
import { catalogueWrongMethod, routeEveryMethod } from '../http/route-every-method.js';
import { VERSIONS } from '../http/versions.js';
import { servedDocument } from '../openapi/build-document.js';

/** The document changes only with a release; the ETag lets a viewer revalidate it cheaply after an hour. */
const DOCUMENT_CACHE = 'public, max-age=3600';

/** A wrong method is the catalogue's JSON error with CORS, not the portal's HTML page (SPEC §13: pages are never cross-origin). */
export function registerOpenApiRoutes(app: FastifyInstance, config: Config): void {
  for (const version of VERSIONS) {
    // Written on first use, then kept, from the document the API reference renders too: an app built and closed
    // without serving it (a test's, a node's that is stopped at once) does not pay for its 440 KB and their hash.
    let written: { readonly body: string; readonly etag: string } | undefined;
    const document = () => {
      if (written === undefined) {
        const body = JSON.stringify(servedDocument(config, version));
        written = { body, etag: etagOf(body) };
      }
      return written;
    };
    routeEveryMethod(app, {
      url: `/openapi/v${version}.json`,
      method: ['GET'],
      wrongMethod: catalogueWrongMethod,
      cors: true,
      handler: async (request, reply) => {
        const { body, etag } = document();
        allowAnyOrigin(reply).header('cache-control', DOCUMENT_CACHE).header('etag', etag);
        if (!noneMatch(request.headers['if-none-match'], etag)) return sendNotModified(request, reply, body);
        return reply.type('application/json; charset=utf-8').send(body);
      },
    });
  }
}
