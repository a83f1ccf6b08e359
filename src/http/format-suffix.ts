// Strips a format suffix (`/dogs.xml`) from an API path before routing, and remembers it on the request.
import type { IncomingMessage } from 'node:http';
import { namesApiWithoutVersion } from './versions.js';

const SUFFIX = Symbol('formatSuffix');

type WithSuffix = IncomingMessage & { [SUFFIX]?: string };

/** A request target in absolute form: a scheme, `://`, and an authority up to the path. */
const ABSOLUTE_FORM = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/;

type WithOriginalUrl = IncomingMessage & { originalUrl?: string };

/**
 * Fastify's rewriteUrl: `/v1/dogs/abc.xml?x` → `/v1/dogs/abc?x`, with `xml` kept for negotiation; an API path without
 * its version too (`/dogs.xml`), so that its 400 (SPEC §8) answers in the suffix's format. A target in absolute
 * form (`GET http://api.example.com/v2/dogs`, which RFC 9112 §3.2.2 asks a server to accept) is taken as its path and
 * query, also as the URL the answer's links are built from (Fastify kept the target as sent in `originalUrl`).
 */
export function rewriteUrl(request: IncomingMessage): string {
  let url = request.url ?? '/';
  if (url.charCodeAt(0) !== 47 /* / */ && ABSOLUTE_FORM.test(url)) {
    url = url.replace(ABSOLUTE_FORM, '');
    if (url.charCodeAt(0) !== 47) url = `/${url}`;
    (request as WithOriginalUrl).originalUrl = url;
  }
  if (url.charCodeAt(1) !== 118 /* v */ && !namesApiWithoutVersion(url)) return url;
  const queryAt = url.indexOf('?');
  let pathname = queryAt === -1 ? url : url.slice(0, queryAt);
  // A trailing slash is tolerated (SPEC §4), after a suffix too: /v2/dogs.xml/ is /v2/dogs.xml.
  if (pathname.length > 1 && pathname.endsWith('/')) pathname = pathname.slice(0, -1);
  const lastSlash = pathname.lastIndexOf('/');
  const dot = pathname.indexOf('.', lastSlash);
  // A single segment (`/v1.2`) is a version, not a name with a suffix; `/dogs.xml` is.
  if (dot === -1 || (lastSlash === 0 && !namesApiWithoutVersion(pathname))) return url;
  (request as WithSuffix)[SUFFIX] = pathname.slice(dot + 1);
  return pathname.slice(0, dot) + (queryAt === -1 ? '' : url.slice(queryAt));
}

export function formatSuffixOf(request: IncomingMessage): string | undefined {
  return (request as WithSuffix)[SUFFIX];
}
