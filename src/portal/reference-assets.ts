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
  /** Read on first use: most processes (every test file but a few) never serve the 1.7 MB bundle. */
  readonly load: () => string;
}

const require = createRequire(import.meta.url);
const read = (path: string) => () => readFileSync(path, 'utf8');

const ASSETS: readonly Asset[] = [
  {
    url: '/assets/swagger-ui/swagger-ui-bundle.js',
    type: 'text/javascript; charset=utf-8',
    load: read(require.resolve('swagger-ui-dist/swagger-ui-bundle.js')),
  },
  {
    url: '/assets/swagger-ui/swagger-ui.css',
    type: 'text/css; charset=utf-8',
    load: read(require.resolve('swagger-ui-dist/swagger-ui.css')),
  },
  { url: '/assets/reference.js', type: 'text/javascript; charset=utf-8', load: () => REFERENCE_SCRIPT },
  { url: '/assets/reference.css', type: 'text/css; charset=utf-8', load: () => REFERENCE_CSS },
];

export function registerReferenceAssets(app: FastifyInstance, wrongMethod: WrongMethodAnswer): void {
  for (const asset of ASSETS) {
    routeEveryMethod(app, {
      url: asset.url,
      method: ['GET'],
      wrongMethod,
      handler: async (request, reply) => {
        const file = loadAsset(asset);
        reply.header('cache-control', ASSET_CACHE).header('etag', file.etag);
        if (!noneMatch(request.headers['if-none-match'], file.etag)) return sendNotModified(request, reply, file.body);
        // Compressed on the way out, like every portal answer (http/compression.ts).
        return reply.type(asset.type).send(file.body);
      },
    });
  }
}

/** Each file is read and tagged once per process, whichever app serves it first. */
const loaded = new Map<Asset, { body: string; etag: string }>();

function loadAsset(asset: Asset): { body: string; etag: string } {
  let file = loaded.get(asset);
  if (file === undefined) {
    const body = asset.load();
    file = { body, etag: etagOf(body) };
    loaded.set(asset, file);
  }
  return file;
}
