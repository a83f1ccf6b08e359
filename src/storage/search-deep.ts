// Ranked pages that end deeper than the tier streams are read for (SPEC §3: every offset is a page; §5's tiers).
//
// A page within STREAMED_DEPTH is read through the index's tier streams, which stop after it (search-tiers.ts). A
// deeper one would read every result before it, each with its item, and hold them all: here instead the seqs of every
// match are read at once (the match set, which count reads too), then their items a chunk at a time, and only each
// seq is kept, in the bucket of its tier (tierOf). The buckets in tier order are the ranking (creation order within a
// tier), the page is a slice of it, and only the page's items are read again. It costs a read of every match (what
// `sort` with a deep offset costs too); between chunks the event loop turns, so that other requests go on while
// SQLite, which blocks it, reads the next.
import type { Item, ResourceDef } from '../resources/definition.js';
import { tierOf, type SearchText } from './search-keys.js';

/** Pages that end within this many results are read through the tier streams; deeper ones rank every match. */
export const STREAMED_DEPTH = 1000;

/** Matches read at a time. */
const CHUNK = 1000;

/** The matches of one resource's search, as a backend reads them for a deep page. */
export interface DeepSource {
  /** The seqs of the items whose keys match `text`, in creation order (`items` applies the filters and relation). */
  matchingSeqs(text: SearchText): Promise<number[]>;
  /** The items of `seqs` that the filters and relation allow, in any order; with their searched fields at least. */
  items(seqs: readonly number[]): Promise<Array<{ readonly seq: number; readonly item: Item }>>;
}

/** Whether a page of a ranked search is read by ranking every match. */
export function isDeep(query: { readonly offset: number; readonly limit: number }): boolean {
  return query.offset + query.limit > STREAMED_DEPTH;
}

/** One resource's matches in rank order: seqs by tier, each tier in creation order. */
async function ranking(def: ResourceDef, text: SearchText, source: DeepSource, seqs: number[]): Promise<number[][]> {
  const byTier: number[][] = [];
  for (let start = 0; start < seqs.length; start += CHUNK) {
    if (start > 0) await new Promise((resolve) => setImmediate(resolve));
    const chunk = seqs.slice(start, start + CHUNK);
    const items = new Map((await source.items(chunk)).map((row) => [row.seq, row.item]));
    for (const seq of chunk) {
      // An item deleted since, or one whose fields no longer match, has no tier.
      const item = items.get(seq);
      const tier = item && tierOf(def, item, text);
      if (tier !== undefined) (byTier[tier] ??= []).push(seq);
    }
  }
  return byTier;
}

/**
 * The page [offset, offset + limit) of the resources' matches merged in rank order (tier, then the resources in the
 * order given, then creation order), and whether more follow. One resource is a collection's `q`; several, /search.
 */
export async function deepPage(
  parts: ReadonlyArray<{ readonly def: ResourceDef; readonly source: DeepSource }>,
  text: SearchText,
  { offset, limit }: { readonly offset: number; readonly limit: number },
): Promise<{ hits: Array<{ def: ResourceDef; item: Item }>; hasMore: boolean }> {
  const matching = await Promise.all(parts.map(({ source }) => source.matchingSeqs(text)));
  // A page that starts past every item the keys match is empty, whatever the filters: nothing to rank.
  if (matching.reduce((sum, seqs) => sum + seqs.length, 0) <= offset) return { hits: [], hasMore: false };
  const rankings = await Promise.all(parts.map(({ def, source }, part) => ranking(def, text, source, matching[part]!)));
  const tiers = Math.max(0, ...rankings.map((byTier) => byTier.length));
  // The page's place in the merged order: each hit as the index of its part and its seq.
  const page: Array<{ part: number; seq: number }> = [];
  let position = 0;
  let hasMore = false;
  for (let tier = 0; tier < tiers && !hasMore; tier += 1) {
    for (let part = 0; part < parts.length && !hasMore; part += 1) {
      const seqs = rankings[part]![tier];
      if (seqs === undefined) continue;
      const from = Math.max(0, offset - position);
      const to = Math.min(seqs.length, offset + limit - position);
      for (let at = from; at < to; at += 1) page.push({ part, seq: seqs[at]! });
      position += seqs.length;
      hasMore = position > offset + limit;
    }
  }
  const found = await Promise.all(
    parts.map(async ({ source }, part) => {
      const seqs = page.filter((hit) => hit.part === part).map((hit) => hit.seq);
      const rows = seqs.length > 0 ? await source.items(seqs) : [];
      return new Map(rows.map((row) => [row.seq, row.item]));
    }),
  );
  const hits: Array<{ def: ResourceDef; item: Item }> = [];
  for (const { part, seq } of page) {
    // An item deleted since it was ranked is left out of the page.
    const item = found[part]!.get(seq);
    if (item !== undefined) hits.push({ def: parts[part]!.def, item });
  }
  return { hits, hasMore };
}
