// Pages of search results in SPEC §5's tiers, read through the search index's streams until the page is full.
import type { Item, ResourceDef } from '../resources/definition.js';
import { perDefinition } from '../resources/per-definition.js';
import type { DeepSource } from './search-deep.js';
import {
  oneRange,
  tierOf,
  tierStreams,
  tiersRange,
  wordKeysOf,
  type Postings,
  type SearchText,
  type TierStream,
} from './search-keys.js';

/** A row of a stream: the tier of the stream it came from, the item's seq and the item. */
interface StreamRow {
  readonly tier: number;
  readonly seq: number;
  readonly item: Item;
}

/**
 * A backend's search index, for one resource, tenant and request (its filters and relation); and for a page deeper
 * than the streams are read for, the matches of the request's text (search-deep.ts).
 */
export interface StreamSource extends DeepSource {
  /**
   * For each stream in order, its first `limit` rows in creation order (its keys' postings merged, after `afterSeq`
   * when given) that have one of each of its `also` sets of keys, joined to the items the query's tenant, filters and
   * relation allow; `limit` rows at most in all. An item may come twice in a stream of several keys.
   */
  read(streams: readonly TierStream[], limit: number, afterSeq?: number): Promise<StreamRow[]>;
  /**
   * The first `limit` rows of a range of keys [from, to) in key order, then creation order, joined to the items the
   * query's tenant, filters and relation allow; each row's tier read from its key (search-keys.ts tierOfKey).
   */
  range(keys: readonly [string, string], limit: number, after?: RangeRow): Promise<Array<StreamRow & RangeRow>>;
  /**
   * How many postings each key has, counted up to POSTINGS_BOUND; PostgreSQL's estimates past it from how far the first
   * ones spread (estimatePostings), SQLite's stop at it.
   */
  postings(keys: readonly string[]): Promise<Postings>;
  /**
   * When the postings left every tier out, so that nothing is read: a source whose counts were kept from an earlier
   * search checks them now (each read does so otherwise), and fails if they no longer hold.
   */
  confirm?(): Promise<void>;
}

/** Counting postings stops here: enough to tell a rare word from a common one, and none from some. */
export const POSTINGS_BOUND = 30;

/**
 * A count of postings packs the spread of the first and last seqs it read: `count + SPREAD_UNIT × (last − first)`;
 * above POSTINGS_BOUND, so that the count is the remainder.
 */
export const SPREAD_UNIT = 32;

/**
 * Each key's postings from a count of its first POSTINGS_BOUND in creation order that also gives how far they spread
 * (PostgreSQL's postings statement): `counted` holds, for each key in order, `count + SPREAD_UNIT × (last − first)`,
 * joined by commas. Below the bound the count is exact. At the bound, the key's total is estimated from how far its
 * first postings spread against the widest spread of the query's keys: a key whose first 30 postings lie in 300 items
 * has about twice the postings of one whose first 30 lie in 600. That is what the lead word's choice needs: a stream
 * reads its lead's postings from the first in creation order, each looked up for the other words, so the word whose
 * postings lie thinnest there leads (`rex oslo` on 100,000 dogs: `rex` in 5,000 names leads, not `oslo` in 10,000
 * towns, and PostgreSQL's CPU per search fell by a fifth). An estimate is never below the bound, so a key counted in
 * full always counts as rarer. SQLite counts alone: there the spread cost more than the look-ups it saved.
 */
export function estimatePostings(keys: readonly string[], counted: string): Postings {
  const values = counted.split(',');
  let widest = 1;
  for (let at = 0; at < keys.length; at += 1) widest = Math.max(widest, spreadOf(Number(values[at] ?? 0)));
  const postings = new Map<string, number>();
  for (let at = 0; at < keys.length; at += 1) {
    const value = Number(values[at] ?? 0);
    const count = value % SPREAD_UNIT;
    postings.set(keys[at]!, count < POSTINGS_BOUND ? count : Math.round((POSTINGS_BOUND * widest) / spreadOf(value)));
  }
  return postings;
}

/** How many items, in creation order, a packed count's postings lie in. */
function spreadOf(value: number): number {
  return Math.floor(value / SPREAD_UNIT) + 1;
}

/** Where a read of a range stopped: its last row's key and seq. */
interface RangeRow {
  readonly key: string;
  readonly seq: number;
}

/** A match's place in the ranking: its tier, then its seq (creation order). */
export interface Ranked {
  readonly tier: number;
  readonly seq: number;
}

/** A ranked hit with its item. */
export interface TieredItem extends Ranked {
  readonly item: Item;
}

/**
 * What a read keeps of each match: the row itself, item and all, for a page within the streamed depth; its rank alone
 * for a deeper one, whose items are read afterwards for the page only (search-deep.ts).
 */
export type Keep<T extends Ranked> = (row: TieredItem) => T;

export const wholeRows: Keep<TieredItem> = (row) => row;

/**
 * The most rows one read asks for: a page within the streamed depth (`offset + limit` ≤ 1000) in one read, a deeper one
 * in reads of this many, so that neither a statement's answer nor SQLite's hold on the event loop grows with the depth.
 */
export const ROWS_PER_READ = 1001;

/**
 * The first `need` matches in tier order, then creation order, in the tiers before `below` (all by default), each as
 * `keep` makes it. A read takes the streams in tier order and stops after `need` rows (ROWS_PER_READ at most), so it
 * reads only the tiers the page reaches; a row whose item sits in another tier is skipped, and a tier whose rows ran
 * out that way is read on (after its last seq) before the next tier.
 */
export async function tieredMatches<T extends Ranked>(
  def: ResourceDef,
  text: SearchText,
  need: number,
  source: StreamSource,
  keep: Keep<T>,
  below = Infinity,
): Promise<T[]> {
  const per = Math.min(need, ROWS_PER_READ);
  // One word within the cap: its keys are one range in tier order, then creation order.
  const one = oneRange(text);
  if (one !== undefined) return rangeMatches(tiersRange(one, below), need, per, source, keep);
  // Postings serve the words tiers (3, 4, 13 and later), not the first two.
  const kept = below > 3 ? keptText(def, text) : undefined;
  const postings = kept && kept.keys.length > 0 ? await source.postings(kept.keys) : undefined;
  let pending = kept ? keptStreams(def, text, kept, postings) : tierStreams(def, text, postings);
  if (below !== Infinity) pending = pending.filter((stream) => stream.tier < below);
  if (pending.length === 0) await source.confirm?.();
  const found: T[] = [];
  while (pending.length > 0) {
    const { byTier, cut } = await readInOrder(source, pending, per);
    let next: TierStream[] = [];
    for (let index = 0; index < pending.length; index += 1) {
      const stream = pending[index]!;
      // The tiers after the one the read stopped in are read next time round.
      if (cut !== undefined && stream.tier > cut) {
        next = pending.slice(index);
        break;
      }
      let rows = byTier.get(stream.tier) ?? [];
      let more = rows.length === per || stream.tier === cut;
      for (;;) {
        rows.sort((a, b) => a.seq - b.seq);
        for (let at = 0; at < rows.length; at += 1) {
          const row = rows[at]!;
          // Keys of several fields may give the same item twice.
          if (at > 0 && rows[at - 1]!.seq === row.seq) continue;
          if (tierOf(def, row.item, text) !== stream.tier) continue;
          found.push(keep(row));
          if (found.length === need) return found;
        }
        if (!more) break;
        rows = await source.read([stream], per, rows[rows.length - 1]!.seq);
        more = rows.length === per;
      }
    }
    pending = next;
  }
  return found;
}

/** How many texts' keys and streams a node keeps per resource (about 3 KB each for two words). */
const MOST_KEPT_TEXTS = 256;

/** A multi-word text's keys whose postings are counted, and its streams for the last postings they were made from. */
interface KeptText {
  readonly keys: readonly string[];
  made?: { readonly postings: Postings | undefined; readonly streams: TierStream[] };
}

/**
 * The keys and streams of the texts searched last, per resource: they follow from the text alone and from its postings,
 * which PostgreSQL's nodes keep for a minute (postings-cache.ts), so that a search asked again (a next page, a popular
 * query, autocomplete) makes neither again. The oldest go first.
 */
const keptTexts = perDefinition((_def: ResourceDef) => new Map<string, KeptText>());

function keptText(def: ResourceDef, text: SearchText): KeptText {
  const kept = keptTexts(def);
  let entry = kept.get(text.whole);
  if (entry === undefined) {
    entry = { keys: wordKeysOf(def, text) };
    if (kept.size >= MOST_KEPT_TEXTS) kept.delete(kept.keys().next().value!);
    kept.set(text.whole, entry);
  }
  return entry;
}

/** The text's streams for `postings`: those made last when made from the same counts (the same kept object). */
function keptStreams(def: ResourceDef, text: SearchText, kept: KeptText, postings: Postings | undefined): TierStream[] {
  const made = kept.made;
  if (made !== undefined && made.postings === postings) return made.streams;
  const streams = tierStreams(def, text, postings);
  kept.made = { postings, streams };
  return streams;
}

/**
 * The first `need` items of a range of keys, read `per` rows at a time. An item found by several fields or tiers comes
 * once for each, first in its own tier (the first it qualifies for): later rows of it are skipped, and the range read
 * on after the last row.
 */
async function rangeMatches<T extends Ranked>(
  range: readonly [string, string],
  need: number,
  per: number,
  source: StreamSource,
  keep: Keep<T>,
): Promise<T[]> {
  const found: T[] = [];
  // The rows of one key are distinct items: the seqs are kept only from the second key read on.
  let firstKey: string | undefined;
  let seen: Set<number> | undefined;
  let after: RangeRow | undefined;
  for (;;) {
    const rows = await source.range(range, per, after);
    for (const row of rows) {
      firstKey ??= row.key;
      if (seen === undefined && row.key !== firstKey) seen = new Set(found.map((match) => match.seq));
      if (seen !== undefined) {
        if (seen.has(row.seq)) continue;
        seen.add(row.seq);
      }
      found.push(keep(row));
      if (found.length === need) return found;
    }
    if (rows.length < per) return found;
    after = rows[rows.length - 1]!;
  }
}

/**
 * The rows of `streams` by tier, and the tier the read stopped in when it gave `need` rows. Both databases give a
 * UNION ALL's members in order; should one not, each stream is read on its own (and none was cut).
 */
async function readInOrder(
  source: StreamSource,
  streams: readonly TierStream[],
  need: number,
): Promise<{ byTier: Map<number, StreamRow[]>; cut?: number }> {
  let rows = await source.read(streams, need);
  let cut = rows.length === need ? rows[need - 1]!.tier : undefined;
  if (rows.some((row, index) => index > 0 && row.tier < rows[index - 1]!.tier)) {
    rows = (await Promise.all(streams.map((stream) => source.read([stream], need)))).flat();
    cut = undefined;
  }
  const byTier = new Map<number, StreamRow[]>();
  for (const row of rows) {
    const list = byTier.get(row.tier);
    if (list) list.push(row);
    else byTier.set(row.tier, [row]);
  }
  return { byTier, cut };
}
