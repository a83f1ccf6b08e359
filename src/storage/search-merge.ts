// The global /search (SPEC §5): each resource's first matches in tiers (one word's resources at once, several words' in
// resource order), merged into one page.
import type { ResourceDef } from '../resources/definition.js';
import { resources } from '../resources/index.js';
import { deepPage, isDeep } from './search-deep.js';
import { oneRange, type SearchText } from './search-keys.js';
import { tieredMatches, type StreamSource, type TieredItem } from './search-tiers.js';
import type { SearchHit } from './storage.js';

/** A resource's place in a tier of /search: dogs, owners, veterinarians, foods (SPEC §5). */
const resourceOrder = new Map(resources.map((def, index) => [def, index]));

/** The tiers there are: four per searched field (at most three), then 13 across fields. */
const TIERS = 14;

interface Matched {
  readonly def: ResourceDef;
  readonly matches: readonly TieredItem[];
}

/**
 * The page of /search: each resource's first `offset + limit + 1` matches. Text of one range (one word within the cap,
 * search-keys.ts) is one read per resource, and all are read at once: on PostgreSQL they leave as one statement, one
 * round trip instead of four (on the rig: /search?q=rex 4,600 -> 5,400 req/s, p99 32 -> 21 ms, in one turn; then
 * 4,150–4,390 -> 4,900–6,170 as one statement, postgres-storage.ts firstRangesTogether); on SQLite no slower. Other
 * text takes several reads per resource, and the resources are read in order: once those read hold that many hits up
 * to some tier, a later resource's hits in that tier or after would sort after them (same tier, later resource), so it
 * reads only the tiers before it, and nothing when that is tier 1 (read at once, two words were 10% slower).
 */
export async function searchResources(
  types: readonly ResourceDef[],
  text: SearchText,
  query: { readonly limit: number; readonly offset: number },
  sourceOf: (def: ResourceDef) => StreamSource,
): Promise<{ hits: SearchHit[]; hasMore: boolean }> {
  const need = query.offset + query.limit + 1;
  const ordered = types.length > 1 ? [...types].sort((a, b) => order(a) - order(b)) : types;
  if (isDeep(query))
    return deepPage(
      ordered.map((def) => ({ def, source: sourceOf(def) })),
      text,
      query,
    );
  if (oneRange(text) !== undefined) {
    const matches = await Promise.all(ordered.map((def) => tieredMatches(def, text, need, sourceOf(def))));
    return mergeTiered(
      ordered.map((def, index) => ({ def, matches: matches[index]! })),
      query,
    );
  }
  const perType: Matched[] = [];
  const byTier = new Array<number>(TIERS).fill(0);
  let below = Infinity;
  for (const def of ordered) {
    if (below <= 1) break;
    const matches = await tieredMatches(def, text, need, sourceOf(def), below);
    perType.push({ def, matches });
    for (const match of matches) byTier[Math.min(match.tier, TIERS - 1)]! += 1;
    below = cutoff(byTier, need);
  }
  return mergeTiered(perType, query);
}

function order(def: ResourceDef): number {
  return resourceOrder.get(def) ?? 0;
}

/** The tier of the `need`-th hit read so far (Infinity while fewer were read): hits from there on cannot count. */
function cutoff(byTier: readonly number[], need: number): number {
  let seen = 0;
  for (let tier = 0; tier < TIERS; tier += 1) {
    seen += byTier[tier]!;
    if (seen >= need) return tier;
  }
  return Infinity;
}

/**
 * Merges the resources' matches (each in tier, then creation order; the resources in resource order) into one page:
 * by tier, then resource, then creation order. A hit beyond the page means a next page exists.
 */
function mergeTiered(
  perType: readonly Matched[],
  query: { readonly limit: number; readonly offset: number },
): { hits: SearchHit[]; hasMore: boolean } {
  const end = query.offset + query.limit;
  const heads = new Array<number>(perType.length).fill(0);
  const hits: SearchHit[] = [];
  for (let taken = 0; ; taken += 1) {
    // The next hit: the lowest tier at the lists' heads, the earlier resource on a tie.
    let best = -1;
    let bestTier = Infinity;
    for (let index = 0; index < perType.length; index += 1) {
      const head = perType[index]!.matches[heads[index]!];
      if (head !== undefined && head.tier < bestTier) {
        best = index;
        bestTier = head.tier;
      }
    }
    if (best < 0) return { hits, hasMore: false };
    if (taken === end) return { hits, hasMore: true };
    const { def, matches } = perType[best]!;
    const match = matches[heads[best]!]!;
    heads[best]! += 1;
    if (taken >= query.offset) hits.push({ def, item: match.item });
  }
}
