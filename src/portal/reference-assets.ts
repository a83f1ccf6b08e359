// Serves the reference page's own script and stylesheet from the portal (SPEC §12: nothing from other hosts, and the
// script is a file, never inline), as the portal serves its other files (assets.ts).
import type { FastifyInstance } from 'fastify';
import type { WrongMethodAnswer } from '../http/route-every-method.js';
import { assetVersion, serveAsset } from './assets.js';
import { REFERENCE_CSS } from './reference-css.js';
import { REFERENCE_SCRIPT } from './reference-script.js';

/** The pages link `?v=<this>`, so a day's cache is safe: a new file is a new URL. */
export const REFERENCE_ASSET_VERSION = assetVersion(REFERENCE_CSS, REFERENCE_SCRIPT);

const ASSETS = [
  { url: '/assets/reference.js', type: 'text/javascript; charset=utf-8', body: REFERENCE_SCRIPT },
  { url: '/assets/reference.css', type: 'text/css; charset=utf-8', body: REFERENCE_CSS },
] as const;

export function registerReferenceAssets(app: FastifyInstance, wrongMethod: WrongMethodAnswer): void {
  for (const asset of ASSETS) serveAsset(app, asset, wrongMethod);
}
