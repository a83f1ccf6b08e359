// Serves the reference page's own script and stylesheet from the portal (SPEC §12: nothing from other hosts, and the
// script is a file, never inline), cacheable, with a version in their links that changes with them.
import type { FastifyInstance } from 'fastify';
import { sendNotModified } from '../http/compression.js';
import { etagOf, noneMatch } from '../http/conditional.js';
import { routeEveryMethod, type WrongMethodAnswer } from '../http/route-every-method.js';
import { NO_SESSION } from './portal-context.js';
import { REFERENCE_CSS } from './reference-css.js';
import { REFERENCE_SCRIPT } from './reference-script.js';

/** The pages link `?v=<this>`, so a day's cache is safe: a new file is a new URL. */
export const REFERENCE_ASSET_VERSION = etagOf(REFERENCE_CSS + REFERENCE_SCRIPT)
  .replace(/\W/g, '')
  .slice(0, 12);
const ASSET_CACHE = 'public, max-age=86400';

const ASSETS = [
  { url: '/assets/reference.js', type: 'text/javascript; charset=utf-8', body: REFERENCE_SCRIPT },
  { url: '/assets/reference.css', type: 'text/css; charset=utf-8', body: REFERENCE_CSS },
] as const;

export function registerReferenceAssets(app: FastifyInstance, wrongMethod: WrongMethodAnswer): void {
  for (const asset of ASSETS) {
    const etag = etagOf(asset.body);
    routeEveryMethod(app, {
      url: asset.url,
      method: ['GET'],
      wrongMethod,
      config: NO_SESSION,
      handler: async (request, reply) => {
        reply.header('cache-control', ASSET_CACHE).header('etag', etag);
        if (!noneMatch(request.headers['if-none-match'], etag)) return sendNotModified(request, reply, asset.body);
        // Compressed on the way out, like every portal answer (http/compression.ts).
        return reply.type(asset.type).send(asset.body);
      },
    });
  }
}
