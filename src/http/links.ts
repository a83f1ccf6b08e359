// Collection paging headers: RFC 8288 Link (first, prev, next, last) and opt-in totals with Prefer: count=exact.
export interface PageInfo {
  readonly limit: number;
  readonly offset: number;
  readonly hasMore: boolean;
  /** Present only when the client asked for `Prefer: count=exact`. */
  readonly total?: number;
  /** How many items there are, when known without `total`: counted for an empty page after the first (pageCounts). */
  readonly end?: number;
}

/**
 * The counts a page's headers need, counted once with `count`: `total` when the client asked for it (Prefer:
 * count=exact), `end` when `prev` does — an empty page after the first may lie past the end, where the page before it
 * is empty too (SPEC §3: prev "where such a page exists").
 */
export async function pageCounts(
  exactCount: boolean,
  offset: number,
  size: number,
  count: () => Promise<number>,
): Promise<{ total?: number; end?: number }> {
  if (exactCount) {
    const total = await count();
    return { total, end: total };
  }
  return size === 0 && offset > 0 ? { end: await count() } : {};
}

/** Whether a Prefer header (RFC 7240) says `count=exact`, among any other preferences. */
export function prefersExactCount(header: string | readonly string[]): boolean {
  const values = typeof header === 'string' ? [header] : header;
  return values.some((value) =>
    value.split(',').some((preference) => {
      const [token = ''] = preference.split(';');
      const [name = '', raw = ''] = token.split('=').map((part) => part.trim().toLowerCase());
      return name === 'count' && raw.replace(/^"|"$/g, '') === 'exact';
    }),
  );
}

/**
 * The headers of one page: Link always (first, and prev/next/last where they exist), totals if asked.
 * `original` is the URL as sent, so the links keep its format suffix and its other parameters.
 */
export function pagingHeaders(original: string, publicUrl: string, page: PageInfo): Record<string, string> {
  const queryAt = original.indexOf('?');
  const path = queryAt === -1 ? original : original.slice(0, queryAt);
  const params = new URLSearchParams(queryAt === -1 ? '' : original.slice(queryAt + 1));
  params.delete('access_token');
  const link = (offset: number, limit: number, rel: string): string => {
    params.set('limit', String(limit));
    params.set('offset', String(offset));
    return `<${publicUrl}${path}?${params.toString()}>; rel="${rel}"`;
  };
  const { limit, offset } = page;
  const links = [link(0, limit, 'first')];
  const end = page.total ?? page.end;
  if (offset > 0) {
    const previous = Math.max(0, offset - limit);
    // Past the end, prev is the last page that has items (none when there is no item at all).
    if (end === undefined || previous < end) links.push(link(previous, offset - previous, 'prev'));
    else if (end > 0) links.push(link(Math.floor((end - 1) / limit) * limit, limit, 'prev'));
  }
  if (page.hasMore) links.push(link(offset + limit, limit, 'next'));
  const headers: Record<string, string> = {};
  if (page.total !== undefined) {
    links.push(link(lastOffset(page.total, limit, offset), limit, 'last'));
    headers['x-total-count'] = String(page.total);
    headers['preference-applied'] = 'count=exact';
  }
  headers.link = links.join(', ');
  // Prefer: count=exact changes the answer's headers, so a cache must key it by Prefer too (RFC 7240 §2).
  headers.vary = 'Accept, Prefer';
  return headers;
}

/** The start of the last page, in the same phase as the current offset when it is inside the collection. */
function lastOffset(total: number, limit: number, offset: number): number {
  if (total === 0) return 0;
  if (offset < total) return offset + Math.floor((total - 1 - offset) / limit) * limit;
  return Math.floor((total - 1) / limit) * limit;
}
