// The search index's keys and tiers (SPEC §5): each searched field's texts, each with the tier it gives an item.
//
// A field's texts are the prefixes of its folded value and of its words, up to PREFIX_CAP characters. Each is
// stored once, tagged with the first tier a one-word query equal to it would put the item in (1 the value equals
// it, 2 the value starts with it, 3 a word equals it, 4 a word starts with it): key `${field}${tier}${text}`. A
// one-word query's tier is then one key, read in creation order, and no row of it belongs to another tier. The
// field's whole words are keys too (`${field}w${word}`): several words look them up for tier 3, and so does a word
// longer than the cap. Longer text looks up its capped prefix, and the check of each item (tierOf) does the rest.
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
    for (const [prefix, tier] of best) keys.push(`${index}${tier}${prefix}`);
    for (const word of new Set(found)) keys.push(`${index}w${word}`);
  }
  return keys;
}

/** The keys of field `index` whose items have a word starting with `word`. */
function prefixKeys(index: number, word: string): string[] {
  const prefix = capped(word);
  // A capped prefix is not the whole value, so never tier 1 of it.
  const tiers = prefix === word ? [1, 2, 3, 4] : [2, 3, 4];
  return tiers.map((tier) => `${index}${tier}${prefix}`);
}

/** The keys of which an item must have one for `word` in tier 3 (word keys), 4 (a field's prefixes) or 13 (any). */
function wordKeys(kind: 3 | 4 | 13, index: number, count: number, word: string): string[] {
  if (kind === 3) return [`${index}w${word}`];
  if (kind === 4) return prefixKeys(index, word);
  const keys: string[] = [];
  for (let field = 0; field < count; field += 1) keys.push(...prefixKeys(field, word));
  return keys;
}

/** How many postings each key has, up to a bound: the rarest word of several drives its tiers. */
export type Postings = ReadonlyMap<string, number>;

/** The keys whose postings `tierStreams` compares for several words (none for one word). */
export function wordKeysOf(def: ResourceDef, text: SearchText): string[] {
  if (text.words.length < 2) return [];
  const keys = new Set<string>();
  const count = searchableFields(def).length;
  for (const word of text.words) {
    for (let index = 0; index < count; index += 1) {
      keys.add(`${index}w${word}`);
      for (const key of prefixKeys(index, word)) keys.add(key);
    }
  }
  return [...keys];
}

/**
 * The stream of a words tier: driven by the word with the fewest postings in it (else the longest word), the others
 * looked up; none when a word has no posting at all, since no item can then be in the tier.
 */
function wordStream(
  tier: number,
  kind: 3 | 4 | 13,
  index: number,
  count: number,
  text: SearchText,
  postings?: Postings,
): TierStream | undefined {
  const words = [...new Set(text.words)];
  // With postings counted, a key without any is left out, and a word without any key empties the tier.
  const keysOf = (word: string): string[] => {
    const keys = wordKeys(kind, index, count, word);
    return postings ? keys.filter((key) => postings.get(key)! > 0) : keys;
  };
  const keys = new Map(words.map((word) => [word, keysOf(word)]));
  let lead = text.lead;
  if (postings) {
    const rarity = (word: string): number => keys.get(word)!.reduce((sum, key) => sum + postings.get(key)!, 0);
    for (const word of words) if (rarity(word) < rarity(lead)) lead = word;
    if (words.some((word) => keys.get(word)!.length === 0)) return undefined;
  }
  const also = words.filter((word) => word !== lead).map((word) => keys.get(word)!);
  return { tier, keys: keys.get(lead)!, also };
}

/** The streams of a resource's tiers, in tier order: four per searched field, then tier 13 for several words. */
export function tierStreams(def: ResourceDef, text: SearchText, postings?: Postings): TierStream[] {
  const streams: TierStream[] = [];
  const count = searchableFields(def).length;
  const prefix = capped(text.whole);
  const exact = prefix === text.whole;
  for (let index = 0; index < count; index += 1) {
    const base = 4 * index;
    if (text.words.length === 1 && exact) {
      // One word within the cap: each tier is exactly one key.
      for (let tier = 1; tier <= 4; tier += 1)
        streams.push({ tier: base + tier, keys: [`${index}${tier}${prefix}`], also: [] });
      continue;
    }
    streams.push(
      { tier: base + 1, keys: [`${index}${exact ? 1 : 2}${prefix}`], also: [] },
      { tier: base + 2, keys: [`${index}2${prefix}`], also: [] },
    );
    for (const kind of [3, 4] as const) {
      const stream = wordStream(base + kind, kind, index, count, text, postings);
      if (stream) streams.push(stream);
    }
  }
  // One word that matches a field sits in that field's tiers: only several words can match across fields.
  const across = text.words.length > 1 ? wordStream(ACROSS_TIER, 13, 0, count, text, postings) : undefined;
  if (across) streams.push(across);
  return streams;
}

/**
 * The match condition of search text as keys (the set that count and a sorted `q` read): for each word, the keys of
 * which an item must have one (`keys`), or, for a word longer than the cap, the ranges of word keys it starts
 * (`ranges`, [from, to) per field).
 */
export function matchKeys(
  def: ResourceDef,
  text: SearchText,
): Array<{ keys: string[] } | { ranges: Array<readonly [string, string]> }> {
  const count = searchableFields(def).length;
  return [...new Set(text.words)].map((word) => {
    if (capped(word) === word) return { keys: wordKeys(13, 0, count, word) };
    const ranges: Array<readonly [string, string]> = [];
    for (let index = 0; index < count; index += 1) ranges.push([`${index}w${word}`, `${index}w${word}\u{10ffff}`]);
    return { ranges };
  });
}

/** The first tier an item qualifies for (SPEC §5), or undefined when it does not match. */
export function tierOf(def: ResourceDef, item: Item, text: SearchText): number | undefined {
  const fields = searchableFields(def);
  const every: string[] = [];
  for (let index = 0; index < fields.length; index += 1) {
    const value = item[fields[index]!];
    if (typeof value !== 'string') continue;
    const found = words(value);
    if (found.length === 0) continue;
    const whole = found.join(' ');
    const base = 4 * index;
    if (whole === text.whole) return base + 1;
    if (whole.startsWith(text.whole)) return base + 2;
    if (text.words.every((word) => found.includes(word))) return base + 3;
    if (text.words.every((word) => found.some((own) => own.startsWith(word)))) return base + 4;
    every.push(...found);
  }
  return text.words.every((word) => every.some((own) => own.startsWith(word))) ? ACROSS_TIER : undefined;
}

/** What an item's write changes in the index: the keys it loses and the keys it gains. */
export function changedKeys(before: readonly string[], after: readonly string[]): { gone: string[]; added: string[] } {
  const added = new Set(after);
  const gone = before.filter((key) => !added.delete(key));
  return { gone, added: [...added] };
}
