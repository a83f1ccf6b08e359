// The search index's keys and tiers (SPEC §5): each searched field's texts, each with the tier it gives an item.
//
// A field's texts are the prefixes of its folded value and of its words, up to PREFIX_CAP characters. Each is
// stored once, with the first tier a one-word query equal to it would put the item in (1 the value equals it, 2 the
// value starts with it, 3 a word equals it, 4 a word starts with it): key `${text}|${field}${tier}`. The keys of one
// text are then one range of the index (tenant, key, seq) in tier order — field by field, tiers 1 to 4 — and in
// creation order within a tier: a one-word query reads its page as one range and stops. The field's whole words are
// keys too (`${word}~${field}`): several words look them up for tier 3, and a word longer than the cap reads them as
// a range. Longer text looks up its capped prefix, and the check of each item (tierOf) does the rest.
import { searchableFields, type FieldValue, type Item, type ResourceDef } from '../resources/definition.js';
import { words } from './search-words.js';

export const PREFIX_CAP = 12;
/** The tier of items whose words match only across fields. */
const ACROSS_TIER = 13;

/** Search text as the index compares it: its folded words, them joined by spaces, and the longest word. */
export interface SearchText {
  readonly words: readonly string[];
  readonly whole: string;
  readonly lead: string;
}

/**
 * One tier's stream: keys whose postings, merged in creation order, hold every item of the tier (and maybe others,
 * which tierOf skips), and for each other word of several, keys of which an item must have one.
 */
export interface TierStream {
  readonly tier: number;
  readonly keys: readonly string[];
  readonly also: ReadonlyArray<readonly string[]>;
}

/** The folded form of `q`; undefined when it has no word, so that nothing matches. */
export function searchText(q: string): SearchText | undefined {
  const folded = words(q);
  if (folded.length === 0) return undefined;
  let lead = folded[0]!;
  for (const word of folded) if (word.length > lead.length) lead = word;
  return { words: folded, whole: folded.join(' '), lead };
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

/** `text` cut to at most PREFIX_CAP UTF-16 units, never between the halves of a surrogate pair nor before a space. */
function capped(text: string): string {
  if (text.length <= PREFIX_CAP) return text;
  const cut = isHighSurrogate(text.charCodeAt(PREFIX_CAP - 1)) ? PREFIX_CAP - 1 : PREFIX_CAP;
  return text.slice(0, cut).trimEnd();
}

/** Notes `text`'s prefixes up to the cap with their tier: `whole` for the value's own (1 or 2), else 3 or 4. */
function notePrefixes(best: Map<string, number>, text: string, whole: boolean): void {
  const last = Math.min(PREFIX_CAP, text.length);
  for (let length = 1; length <= last; length += 1) {
    const unit = text.charCodeAt(length - 1);
    // No query ends in a space or half a character.
    if (isHighSurrogate(unit) || unit === 0x20) continue;
    const tier = (length === text.length ? 1 : 2) + (whole ? 0 : 2);
    const prefix = text.slice(0, length);
    const had = best.get(prefix);
    if (had === undefined || tier < had) best.set(prefix, tier);
  }
}

/** The key of `text` in tier `tier` (1–4) of field `index`. */
function tierKey(index: number, tier: number, text: string): string {
  return `${text}|${index}${tier}`;
}

/** The key of a whole word of field `index`. */
function wordKey(index: number, word: string): string {
  return `${word}~${index}`;
}

/**
 * The range [from, to) of the keys of one text: its tiers in order (`}` follows `|`), or those before tier `below`
 * (tier 4 × field + n is key `${text}|${field}${n}`).
 */
export function tiersRange(text: string, below = Infinity): readonly [string, string] {
  if (below === Infinity) return [`${text}|`, `${text}}`];
  return [`${text}|`, tierKey(Math.floor((below - 1) / 4), ((below - 1) % 4) + 1, text)];
}

/** The tier of a row of `tiersRange` from its key: four per field, then the tier within the field. */
export function tierOfKey(key: string): number {
  return 4 * (key.charCodeAt(key.length - 2) - 48) + key.charCodeAt(key.length - 1) - 48;
}

/** Every key an item is found by, each once. */
export function itemKeys(def: ResourceDef, values: Readonly<Record<string, FieldValue | undefined>>): string[] {
  const keys: string[] = [];
  const fields = searchableFields(def);
  const best = new Map<string, number>();
  for (let index = 0; index < fields.length; index += 1) {
    const value = values[fields[index]!];
    if (typeof value !== 'string') continue;
    const found = words(value);
    if (found.length === 0) continue;
    best.clear();
    notePrefixes(best, found.join(' '), true);
    for (const word of found) notePrefixes(best, word, false);
    for (const [prefix, tier] of best) keys.push(tierKey(index, tier, prefix));
    for (const word of new Set(found)) keys.push(wordKey(index, word));
  }
  return keys;
}

/**
 * The keys of field `index` of tier 1 (the value equals the text) and tier 2 (it starts with it): past the cap, both
 * the capped text's tier-2 key, which the check of each item (tierOf) sorts.
 */
function wholeKeys(index: number, text: SearchText): readonly [string, string] {
  const prefix = capped(text.whole);
  return [tierKey(index, prefix === text.whole ? 1 : 2, prefix), tierKey(index, 2, prefix)];
}

/** The keys of field `index` whose items have a word starting with `word`. */
function prefixKeys(index: number, word: string): string[] {
  const prefix = capped(word);
  // A capped prefix is not the whole value, so never tier 1 of it.
  const tiers = prefix === word ? [1, 2, 3, 4] : [2, 3, 4];
  return tiers.map((tier) => tierKey(index, tier, prefix));
}

/**
 * How many postings each key has (search-tiers.ts estimatePostings: exact up to a bound, estimated past it; 0 only when
 * it has none): the rarest word of several drives its tiers.
 */
export type Postings = ReadonlyMap<string, number>;

/**
 * The keys whose postings `tierStreams` counts for several words (none for one word): each field's keys of the whole
 * text (tiers 1 and 2, mostly without any), then each word's.
 */
export function wordKeysOf(def: ResourceDef, text: SearchText): string[] {
  if (text.words.length < 2) return [];
  const keys = new Set<string>();
  const count = searchableFields(def).length;
  for (let index = 0; index < count; index += 1) for (const key of wholeKeys(index, text)) keys.add(key);
  for (const word of text.words) {
    for (let index = 0; index < count; index += 1) {
      keys.add(wordKey(index, word));
      for (const key of prefixKeys(index, word)) keys.add(key);
    }
  }
  return [...keys];
}

/**
 * A word's keys, each field's and every field's (built once per query, not once per tier): for tier 3 its whole-word
 * keys, for tier 4 its four tier keys, for tier 13 those of every field. With postings counted, a key without any is
 * left out, and `postings` is the sum of the rest.
 */
interface WordKeys {
  readonly word: string;
  readonly whole: Array<readonly string[]>;
  readonly prefix: Array<readonly string[]>;
  readonly any: readonly string[];
}

function wordKeySets(text: SearchText, count: number, postings?: Postings): WordKeys[] {
  const kept = (keys: string[]): string[] => (postings ? keys.filter((key) => postings.get(key)! > 0) : keys);
  const sets: WordKeys[] = [];
  for (const word of text.words) {
    if (sets.some((set) => set.word === word)) continue;
    const set: WordKeys = { word, whole: [], prefix: [], any: [] };
    for (let index = 0; index < count; index += 1) {
      set.whole.push(kept([wordKey(index, word)]));
      const prefix = kept(prefixKeys(index, word));
      set.prefix.push(prefix);
      (set.any as string[]).push(...prefix);
    }
    sets.push(set);
  }
  return sets;
}

/** The keys of which an item must have one for a word in tier 3 (word keys), 4 (a field's prefixes) or 13 (any). */
function keysOf(set: WordKeys, kind: 3 | 4 | 13, index: number): readonly string[] {
  return kind === 3 ? set.whole[index]! : kind === 4 ? set.prefix[index]! : set.any;
}

function rarity(keys: readonly string[], postings: Postings): number {
  let sum = 0;
  for (const key of keys) sum += postings.get(key)!;
  return sum;
}

/**
 * The stream of a words tier: driven by the word with the fewest postings in it (else the longest word), the others
 * looked up; none when a word has no posting at all, since no item can then be in the tier.
 */
function wordStream(
  tier: number,
  kind: 3 | 4 | 13,
  index: number,
  sets: readonly WordKeys[],
  text: SearchText,
  postings?: Postings,
): TierStream | undefined {
  let lead = sets.find((set) => set.word === text.lead)!;
  if (postings) {
    let least = rarity(keysOf(lead, kind, index), postings);
    for (const set of sets) {
      const keys = keysOf(set, kind, index);
      if (keys.length === 0) return undefined;
      const count = rarity(keys, postings);
      if (count < least) {
        lead = set;
        least = count;
      }
    }
  }
  const also: Array<readonly string[]> = [];
  for (const set of sets) if (set !== lead) also.push(keysOf(set, kind, index));
  return { tier, keys: keysOf(lead, kind, index), also };
}

/** One word within the cap: its page is the one range of its keys (tiersRange), with nothing to check. */
export function oneRange(text: SearchText): string | undefined {
  return text.words.length === 1 && capped(text.whole) === text.whole ? text.whole : undefined;
}

/** The streams of a resource's tiers for text that is not oneRange's, in tier order. */
export function tierStreams(def: ResourceDef, text: SearchText, postings?: Postings): TierStream[] {
  const streams: TierStream[] = [];
  const count = searchableFields(def).length;
  const sets = wordKeySets(text, count, postings);
  for (let index = 0; index < count; index += 1) {
    const base = 4 * index;
    const [equal, starts] = wholeKeys(index, text);
    // With postings counted, a key without any is no stream: in the field, no value equals or starts with the text.
    if (!postings || postings.get(equal)! > 0) streams.push({ tier: base + 1, keys: [equal], also: [] });
    if (!postings || postings.get(starts)! > 0) streams.push({ tier: base + 2, keys: [starts], also: [] });
    for (const kind of [3, 4] as const) {
      const stream = wordStream(base + kind, kind, index, sets, text, postings);
      if (stream) streams.push(stream);
    }
  }
  // One word that matches a field sits in that field's tiers: only several words can match across fields.
  const across = text.words.length > 1 ? wordStream(ACROSS_TIER, 13, 0, sets, text, postings) : undefined;
  if (across) streams.push(across);
  return streams;
}

/**
 * The match condition of search text (the set that count and a sorted `q` read): for each word, a range [from, to) of
 * keys of which an item must have one — the keys of the word as a text of any field and tier, or for a word longer
 * than the cap, the whole words that start with it.
 */
export function matchRanges(text: SearchText): Array<readonly [string, string]> {
  return [...new Set(text.words)].map((word) =>
    capped(word) === word ? tiersRange(word) : ([word, `${word}\u{10ffff}`] as const),
  );
}

/**
 * The SQL of the seqs of `table`'s items that match search text, for count and a sorted `q`: each word's range of keys
 * (matchRanges), in the tenant's keys when `tenantId` is given, intersected. As one `IN` per word, SQLite looked the
 * rows up by both lists at once, every seq of one word with every seq of the other (7 s for `rex oslo` and a colour
 * at 100,000 dogs). `bind` records a parameter and gives its placeholder, in the order the text reads them. Within one
 * word's range an item may have several keys (one per field and tier it is found in): only an INTERSECT keeps each
 * item once.
 */
export function matchSet(
  table: string,
  ranges: ReadonlyArray<readonly [string, string]>,
  tenantId: string | undefined,
  bind: (value: string) => string,
): string {
  return ranges
    .map(([from, to]) => {
      const owner = tenantId === undefined ? '' : `m.tenant_id = ${bind(tenantId)} AND `;
      return `SELECT m.seq FROM ${table}_search_keys m WHERE ${owner}m.key >= ${bind(from)} AND m.key < ${bind(to)}`;
    })
    .join(' INTERSECT ');
}

/** The first tier an item qualifies for (SPEC §5), or undefined when it does not match. */
export function tierOf(def: ResourceDef, item: Item, text: SearchText): number | undefined {
  // Run on each row a multi-word search reads: loops rather than closures, and no copy of the fields' words.
  const fields = searchableFields(def);
  let across: string[][] | undefined;
  for (let index = 0; index < fields.length; index += 1) {
    const value = item[fields[index]!];
    if (typeof value !== 'string') continue;
    const found = words(value);
    if (found.length === 0) continue;
    const whole = found.length === 1 ? found[0]! : found.join(' ');
    const base = 4 * index;
    if (whole === text.whole) return base + 1;
    if (whole.startsWith(text.whole)) return base + 2;
    if (everyWord(text.words, found, false)) return base + 3;
    if (everyWord(text.words, found, true)) return base + 4;
    (across ??= []).push(found);
  }
  if (across === undefined) return undefined;
  for (const word of text.words) if (!across.some((found) => hasWord(found, word, true))) return undefined;
  return ACROSS_TIER;
}

/** Whether each query word equals (or with `prefix`, starts) one of `own`. */
function everyWord(query: readonly string[], own: readonly string[], prefix: boolean): boolean {
  for (const word of query) if (!hasWord(own, word, prefix)) return false;
  return true;
}

function hasWord(own: readonly string[], word: string, prefix: boolean): boolean {
  for (const candidate of own) if (prefix ? candidate.startsWith(word) : candidate === word) return true;
  return false;
}

/** What an item's write changes in the index: the keys it loses and the keys it gains. */
export function changedKeys(before: readonly string[], after: readonly string[]): { gone: string[]; added: string[] } {
  const added = new Set(after);
  const gone = before.filter((key) => !added.delete(key));
  return { gone, added: [...added] };
}
