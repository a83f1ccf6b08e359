// Ranked pages (SPEC §5), of a collection's `q` and of the global /search: each resource's first matches in tiers (one
// word's resources at once, several words' in resource order), merged into one page.
import type { ResourceDef } from '../resources/definition.js';
import { resources } from '../resources/index.js';
import { deepMatches, isDeep, pageItems } from './search-deep.js';
import { oneRange, type SearchText } from './search-keys.js';
import { tieredMatches, wholeRows, type Ranked, type StreamSource, type TieredItem } from './search-tiers.js';
import type { SearchHit } from './storage.js';

/** A resource's place in a tier of /search: dogs, owners, veterinarians, foods (SPEC §5). */
const resourceOrder = new Map(resources.map((def, index) => [def, index]));

/** The tiers there are: four per searched field (at most three), then 13 across fields. */
const TIERS = 14;

/** A resource searched, with its source. */
interface Part {
  readonly def: ResourceDef;
  readonly source: StreamSource;
}

/** A resource's first matches, in rank order. */
interface Matched<T extends Ranked> {
  readonly part: Part;
  readonly matches: readonly T[];
}

/** How one resource's first `need` matches are read, in the tiers before `below`. */
type Matcher<T extends Ranked> = (part: Part, text: SearchText, need: number, below?: number) => Promise<T[]>;

const withItems: Matcher<TieredItem> = ({ def, source }, text, need, below) =>
  tieredMatches(def, text, need, source, wholeRows, below);

const ranksOnly: Matcher<Ranked> = ({ def, source }, text, need, below) => deepMatches(def, text, need, source, below);

/**
 * A page of ranked results: a collection's `q` (one resource) or /search (several), each resource's first
 * `offset + limit + 1` matches merged by tier, then resource, then creation order. A page within the streamed depth
 * keeps its matches' items as read; a deeper one ranks first and reads its page's items after (search-deep.ts).
 */
export async function searchResources(
  types: readonly ResourceDef[],
  text: SearchText,
  query: { readonly limit: number; readonly offset: number },
  sourceOf: (def: ResourceDef) => StreamSource,
): Promise<{ hits: SearchHit[]; hasMore: boolean }> {
  const ordered = types.length > 1 ? [...types].sort((a, b) => order(a) - order(b)) : types;
  const parts = ordered.map((def) => ({ def, source: sourceOf(def) }));
  if (parts.length === 1 && !isDeep(query)) {
    // A collection's `q`: its own matches are the page, with nothing to merge.
    const [part] = parts as [Part];
    const end = query.offset + query.limit;
    const matches = await withItems(part, text, end + 1);
    const hits = matches.slice(query.offset, end).map((match) => ({ def: part.def, item: match.item }));
    return { hits, hasMore: matches.length > end };
  }
  if (!isDeep(query)) {
    const { page, hasMore } = mergeTiered(await matchesOf(parts, text, query, withItems), query);
    return { hits: page.map(({ part, match }) => ({ def: part.def, item: match.item })), hasMore };
  }
  const { page, hasMore } = mergeTiered(await matchesOf(parts, text, query, ranksOnly), query);
  const found = await pageItems(page.map(({ part, match }) => ({ part, seq: match.seq })));
  return { hits: found.map(({ part, item }) => ({ def: part.def, item })), hasMore };
}

/**
 * Each resource's first `offset + limit + 1` matches. Text of one range (one word within the cap, search-keys.ts) is
 * one read per resource, and all are read at once: on PostgreSQL they leave as one statement, one round trip instead of
 * four (on the rig: /search?q=rex 4,600 -> 5,400 req/s, p99 32 -> 21 ms, in one turn; then 4,150–4,390 -> 4,900–6,170
 * as one statement, postgres-storage.ts firstRangesTogether); on SQLite no slower. Other text takes several reads per
 * resource, and the resources are read in order: once those read hold that many hits up to some tier, a later
 * resource's hits in that tier or after would sort after them (same tier, later resource), so it reads only the tiers
 * before it, and nothing when that is tier 1 (read at once, two words were 10% slower).
 */
async function matchesOf<T extends Ranked>(
  parts: readonly Part[],
  text: SearchText,
  query: { readonly limit: number; readonly offset: number },
  match: Matcher<T>,
): Promise<Array<Matched<T>>> {
  const need = query.offset + query.limit + 1;
  if (oneRange(text) !== undefined) {
    const matches = await Promise.all(parts.map((part) => match(part, text, need)));
    return parts.map((part, index) => ({ part, matches: matches[index]! }));
  }
  const perType: Array<Matched<T>> = [];
  const byTier = new Array<number>(TIERS).fill(0);
  let below = Infinity;
  for (const part of parts) {
    if (below <= 1) break;
    const matches = await match(part, text, need, below);
    perType.push({ part, matches });
    for (const found of matches) byTier[Math.min(found.tier, TIERS - 1)]! += 1;
    below = cutoff(byTier, need);
  }
  return perType;
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
function mergeTiered<T extends Ranked>(
  perType: ReadonlyArray<Matched<T>>,
  query: { readonly limit: number; readonly offset: number },
): { page: Array<{ part: Part; match: T }>; hasMore: boolean } {
  const end = query.offset + query.limit;
  const heads = new Array<number>(perType.length).fill(0);
  const page: Array<{ part: Part; match: T }> = [];
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
    if (best < 0) return { page, hasMore: false };
    if (taken === end) return { page, hasMore: true };
    const { part, matches } = perType[best]!;
    const match = matches[heads[best]!]!;
    heads[best]! += 1;
    if (taken >= query.offset) page.push({ part, match });
  }
}
