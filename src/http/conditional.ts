// Conditional requests: strong ETags from the bytes sent, If-None-Match (304) and If-Match (strong comparison), each
// taking the tag of an answer as sent or as compressed.
import { hash } from 'node:crypto';

/** A strong entity tag of a serialized answer: the same bytes, the same tag. */
export function etagOf(body: string): string {
  return `"${hash('sha1', body, 'base64url')}"`;
}

/**
 * The ETag of an answer sent with a content coding: `"tag"` becomes `"tag-gzip"` or `"tag-br"` (docs/decisions.md), so
 * that a cache never takes the compressed bytes and the plain ones for the same.
 */
export function codedTag(etag: string, coding: string): string {
  return `${etag.slice(0, -1)}-${coding}"`;
}

/** Whether a tag a client sent names the answer of `etag`: as sent, or compressed by one of the codings we use. */
function sameAnswer(tag: string, etag: string): boolean {
  return tag === etag || tag === codedTag(etag, 'br') || tag === codedTag(etag, 'gzip');
}

function tagsOf(header: string): string[] {
  return header
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
}

/**
 * If-None-Match uses weak comparison (RFC 9110 §13.1.2): `W/"x"` matches `"x"`, and `*` matches anything. The tag of
 * the compressed answer matches too: it is the same content.
 */
export function noneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return true;
  return !tagsOf(header).some((tag) => tag === '*' || sameAnswer(tag.replace(/^W\//, ''), etag));
}

/**
 * If-Match uses strong comparison (RFC 9110 §13.1.1): a weak tag never matches; `*` matches an existing item. The tag
 * of the compressed answer (`"x-gzip"`) names the same item state, so a client that read it compressed may send it.
 */
export function ifMatches(header: string, etag: string): boolean {
  return tagsOf(header).some((tag) => tag === '*' || sameAnswer(tag, etag));
}
