// Serves the reference page's scripts and styles from the portal itself (SPEC §12: nothing from other hosts): Swagger
// UI's bundle and stylesheet from swagger-ui-dist, and the page's own starter script and stylesheet.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';
import { sendNotModified } from '../http/compression.js';
import { etagOf, noneMatch } from '../http/conditional.js';
import { routeEveryMethod, type WrongMethodAnswer } from '../http/route-every-method.js';
import { REFERENCE_CSS, REFERENCE_SCRIPT } from './reference-script.js';

/** The files change only with a release (a new swagger-ui-dist, a new build); the ETag revalidates them after a day. */
const ASSET_CACHE = 'public, max-age=86400';

interface Asset {
  readonly url: string;
  readonly type: string;
  /** Read on first use: most apps (every test's) never serve the 1.7 MB bundle. */
  readonly load: () => string;
}

const fromSwaggerUi = (file: string) => () =>
  readFileSync(createRequire(import.meta.url).resolve(`swagger-ui-dist/${file}`), 'utf8');

const ASSETS: readonly Asset[] = [
  {
    url: '/assets/swagger-ui/swagger-ui-bundle.js',
    type: 'text/javascript; charset=utf-8',
    load: fromSwaggerUi('swagger-ui-bundle.js'),
  },
  { url: '/assets/swagger-ui/swagger-ui.css', type: 'text/css; charset=utf-8', load: fromSwaggerUi('swagger-ui.css') },
  { url: '/assets/reference.js', type: 'text/javascript; charset=utf-8', load: () => REFERENCE_SCRIPT },
  { url: '/assets/reference.css', type: 'text/css; charset=utf-8', load: () => REFERENCE_CSS },
];

export function registerReferenceAssets(app: FastifyInstance, wrongMethod: WrongMethodAnswer): void {
  for (const asset of ASSETS) {
    let loaded: { body: string; etag: string } | undefined;
    routeEveryMethod(app, {
      url: asset.url,
      method: ['GET'],
      wrongMethod,
      handler: async (request, reply) => {
        loaded ??= loadAsset(asset);
        reply.header('cache-control', ASSET_CACHE).header('etag', loaded.etag);
        if (!noneMatch(request.headers['if-none-match'], loaded.etag))
          return sendNotModified(request, reply, loaded.body);
        // Compressed on the way out, like every portal answer (http/compression.ts).
        return reply.type(asset.type).send(loaded.body);
      },
    });
  }
}

function loadAsset(asset: Asset): { body: string; etag: string } {
  const body = asset.load();
  return { body, etag: etagOf(body) };
}
