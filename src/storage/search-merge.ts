// Merges the ranked hits of several resources into one page of a global search, the same way on every backend.
import type { SearchHit, SearchQuery } from './storage.js';

/** A hit with its backend's rank, where lower is better, and its resource's place in the query's types. */
export interface RankedHit extends SearchHit {
  readonly rank: number;
  readonly order: number;
}

/**
 * Each resource gave its best `offset + limit + 1` hits (by rank, then creation order): together they
 * hold the best of all. Equal ranks go to the older item, then the earlier type; the sort is stable,
 * so one resource's equal hits keep their creation order.
 */
export function mergeSearchHits(
  ranked: RankedHit[],
  query: Pick<SearchQuery, 'limit' | 'offset'>,
): { hits: SearchHit[]; hasMore: boolean } {
  ranked.sort(
    (a, b) => a.rank - b.rank || String(a.item.createdAt).localeCompare(String(b.item.createdAt)) || a.order - b.order,
  );
  const page = ranked.slice(query.offset, query.offset + query.limit);
  return { hits: page.map(({ def, item }) => ({ def, item })), hasMore: ranked.length > query.offset + query.limit };
}

/** How many hits each resource must give so that the merged page and `hasMore` are right. */
export function searchWindow(query: Pick<SearchQuery, 'limit' | 'offset'>): number {
  return query.offset + query.limit + 1;
}
