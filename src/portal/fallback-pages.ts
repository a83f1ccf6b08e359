// The portal's own answers to a misrouted request (SPEC §12): an HTML 404 for a path it does not have, an HTML 400 with
// Allow for a wrong method.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import type { PortalFallback } from '../http/error-handler.js';
import { namesVersion } from '../http/versions.js';
import type { WrongMethodAnswer } from '../http/route-every-method.js';
import { escapeHtml, homeOf, page } from './html.js';
import { frameOf, sendPage, wantsPage } from './portal-context.js';
import { securityHeaders } from './security-headers.js';

/** The 404 page: the portal is not the API, so no "has no version" error, but a way back home. */
export function notFoundPage(prefix: string) {
  return (request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const path = request.url.split('?')[0] ?? '/';
    return sendPage(
      reply,
      page(
        frameOf(request, prefix),
        'Page not found',
        `<div class="card narrow">
<h1>Page not found</h1>
<p>The developer portal has no page at <code>${escapeHtml(path)}</code>.</p>
<p>Go to <a href="${homeOf(prefix)}">the portal's home page</a>, which links every page it has.</p>
</div>`,
      ),
      404,
    );
  };
}

/** The wrong-method page: a 400 (SPEC §8 allows no 405) whose Allow header lists the methods the page takes. */
export function wrongMethodPage(prefix: string): WrongMethodAnswer {
  return (request, reply, allow) => {
    const path = request.url.split('?')[0] ?? '/';
    return sendPage(
      reply.header('allow', allow),
      page(
        frameOf(request, prefix),
        'Method not offered',
        `<div class="card narrow">
<h1>Method not offered</h1>
<p>The page <code>${escapeHtml(path)}</code> does not take ${escapeHtml(request.method)} requests; it takes ${escapeHtml(allow)}.</p>
<p>Go to <a href="${homeOf(prefix)}">the portal's home page</a>.</p>
</div>`,
      ),
      400,
    );
  };
}

/**
 * The portal's paths as the answers outside its surface see them (error-handler.ts): under its prefix, or on a host of
 * its own every path but the API's (`/v<N>/…` stays the API's, whatever the host).
 */
export function portalFallback(config: Config): PortalFallback {
  const portal = new URL(config.portalUrl);
  const prefix = portal.pathname.replace(/\/+$/, '');
  const host = portal.host;
  const page = notFoundPage(prefix);
  const headers = securityHeaders(config);
  return {
    owns: (request) => {
      const path = request.url.split('?')[0] ?? '/';
      if (prefix !== '') return path === prefix || path.startsWith(`${prefix}/`);
      return request.headers.host?.toLowerCase() === host && !namesVersion(path);
    },
    notFound: (request, reply) => page(request, headers.add(reply)),
    failed: (request, reply, error) => {
      if (!wantsPage(request)) return undefined;
      reply.header('cache-control', 'no-store');
      return sendPage(
        headers.add(reply),
        failurePage(request, prefix, error.message, error.entry.code, error.entry.title),
        error.status,
      );
    },
  };
}

/** A request the portal could not take (a form too large, bytes that are not UTF-8): what went wrong, and a way back. */
function failurePage(request: FastifyRequest, prefix: string, message: string, code: number, title: string): string {
  return page(
    frameOf(request, prefix),
    title,
    `<div class="card narrow">
<h1>${escapeHtml(title)}</h1>
<p class="alert" role="alert">${escapeHtml(message)}</p>
<p>Go back, change what you sent, and try again; or go to <a href="${homeOf(prefix)}">the portal's home page</a>.
What this error means: <a href="${prefix}/errors/${code}">error ${code}</a>.</p>
</div>`,
  );
}
