// Conditional requests: strong ETags from the bytes sent, If-None-Match (304) and If-Match (strong comparison).
import { hash } from 'node:crypto';

/** A strong entity tag of a serialized answer: the same bytes, the same tag. */
export function etagOf(body: string): string {
  return `"${hash('sha1', body, 'base64url')}"`;
}

function tagsOf(header: string): string[] {
  return header
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
}

/** If-None-Match uses weak comparison (RFC 9110 §13.1.2): `W/"x"` matches `"x"`, and `*` matches anything. */
export function noneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return true;
  return !tagsOf(header).some((tag) => tag === '*' || tag.replace(/^W\//, '') === etag);
}

/** If-Match uses strong comparison (RFC 9110 §13.1.1): a weak tag never matches; `*` matches an existing item. */
export function ifMatches(header: string, etag: string): boolean {
  return tagsOf(header).some((tag) => tag === '*' || tag === etag);
}
