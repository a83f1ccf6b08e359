// The portal's static files: its stylesheet and icons, cacheable (an ETag to revalidate, a version in their links).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendNotModified } from '../http/compression.js';
import { etagOf, noneMatch } from '../http/conditional.js';
import { routeEveryMethod, type WrongMethodAnswer } from '../http/route-every-method.js';
import { ICON_SVG, iconIco } from './icons.js';
import { NO_SESSION } from './portal-context.js';
import { PORTAL_CSS } from './portal-css.js';

/** A version of some files' contents for their links (`?v=`): a new file is a new URL, so a day's cache is safe. */
export function assetVersion(...bodies: string[]): string {
  return etagOf(bodies.join('')).replace(/\W/g, '').slice(0, 12);
}

export const ASSET_VERSION = assetVersion(PORTAL_CSS, ICON_SVG);
const ASSET_CACHE = 'public, max-age=86400';

export interface Asset {
  readonly url: string;
  readonly type: string;
  readonly body: string | Buffer;
}

const ICO = iconIco();
const ICO_ASSET = { url: '/favicon.ico', type: 'image/x-icon', body: ICO };

/**
 * The portal's files, relative to its prefix. `/favicon.ico` is left to the root (`registerRootFavicon`) when the
 * portal has no prefix: it is the same path there.
 */
export function registerAssets(app: FastifyInstance, prefix: string, wrongMethod: WrongMethodAnswer): void {
  const assets: Asset[] = [
    { url: '/assets/portal.css', type: 'text/css; charset=utf-8', body: PORTAL_CSS },
    { url: '/favicon.svg', type: 'image/svg+xml', body: ICON_SVG },
  ];
  if (prefix !== '') assets.push(ICO_ASSET);
  for (const asset of assets) serveAsset(app, asset, wrongMethod);
}

/** `/favicon.ico` at the root, which browsers ask for on any page of the host (the API's included). */
export function registerRootFavicon(app: FastifyInstance, wrongMethod: WrongMethodAnswer): void {
  serveAsset(app, ICO_ASSET, wrongMethod);
}

/** One file of the portal: a day's cache, revalidated by its ETag, compressed on the way out like every answer. */
export function serveAsset(app: FastifyInstance, asset: Asset, wrongMethod: WrongMethodAnswer): void {
  const etag = etagOf(typeof asset.body === 'string' ? asset.body : asset.body.toString('base64'));
  routeEveryMethod(app, {
    url: asset.url,
    method: ['GET'],
    wrongMethod,
    config: NO_SESSION,
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      reply.header('cache-control', ASSET_CACHE).header('etag', etag);
      if (!noneMatch(request.headers['if-none-match'], etag))
        // The stylesheet leaves compressed, with its own tag and Vary; the 304 says the same (the ICO never is).
        return typeof asset.body === 'string' ? sendNotModified(request, reply, asset.body) : reply.code(304).send();
      return reply.type(asset.type).send(asset.body);
    },
  });
}
