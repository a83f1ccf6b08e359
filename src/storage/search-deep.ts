// Ranked pages that end deep in the results (SPEC §3: every offset is a page; §5's tiers).
//
// Every ranked page is read through the index's tier streams, which stop after `offset + limit + 1` matches
// (search-tiers.ts). A page within STREAMED_DEPTH keeps each match read with its item, in one read per stream. A deeper
// one keeps only each match's rank (tier and seq), reads ROWS_PER_READ rows at a time with a turn of the event loop
// before each (SQLite's reads block it), and reads the items of its own page afterwards. So its cost grows with its
// depth, not with the number of matches: `q=b&offset=1000` reads about 1,000 rows, not the 67,500 that `b` prefixes.
import type { Item, ResourceDef } from '../resources/definition.js';
import type { SearchText } from './search-keys.js';
import { ROWS_PER_READ, tieredMatches, type Ranked, type StreamSource } from './search-tiers.js';

/** Pages that end within this many results keep their matches' items as they are read; deeper ones their ranks only. */
export const STREAMED_DEPTH = ROWS_PER_READ - 1;

/** The items of a deep page, read after its ranking. */
export interface DeepSource {
  /** The items of `seqs` that the filters and relation allow, in any order; with their searched fields at least. */
  items(seqs: readonly number[]): Promise<Array<{ readonly seq: number; readonly item: Item }>>;
}

/** Whether a page of a ranked search keeps only its matches' ranks while reading them. */
export function isDeep(query: { readonly offset: number; readonly limit: number }): boolean {
  return query.offset + query.limit > STREAMED_DEPTH;
}

const rankOnly = ({ tier, seq }: Ranked): Ranked => ({ tier, seq });

/** The first `need` matches of a deep page's resource, as ranks, read a chunk at a time with the event loop turning. */
export function deepMatches(
  def: ResourceDef,
  text: SearchText,
  need: number,
  source: StreamSource,
  below?: number,
): Promise<Ranked[]> {
  return tieredMatches(def, text, need, paced(source), rankOnly, below);
}

/** The source with a turn of the event loop before each read of the streams, so that other requests go on between. */
function paced(source: StreamSource): StreamSource {
  const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
  return {
    ...source,
    read: async (...args) => (await turn(), source.read(...args)),
    range: async (...args) => (await turn(), source.range(...args)),
  };
}

/**
 * The items of a deep page's hits, given in page order as their resource's part and seq: one read per resource; an item
 * deleted since it was ranked is left out.
 */
export async function pageItems<Part extends { readonly source: DeepSource }>(
  page: ReadonlyArray<{ readonly part: Part; readonly seq: number }>,
): Promise<Array<{ part: Part; item: Item }>> {
  const parts = [...new Set(page.map((hit) => hit.part))];
  const found = await Promise.all(
    parts.map(async (part) => {
      const rows = await part.source.items(page.filter((hit) => hit.part === part).map((hit) => hit.seq));
      return new Map(rows.map((row) => [row.seq, row.item]));
    }),
  );
  const items: Array<{ part: Part; item: Item }> = [];
  for (const { part, seq } of page) {
    const item = found[parts.indexOf(part)]!.get(seq);
    if (item !== undefined) items.push({ part, item });
  }
  return items;
}
