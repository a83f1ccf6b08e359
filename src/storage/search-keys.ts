// The search index's keys and tiers (SPEC §5): each searched field's folded value, its words and their edge prefixes.
//
// Every key is looked up by equality and its postings are read in creation order, so a tier is
// a range of an index that a page stops reading. Keys name their field by its place in the
// resource's searched fields and their kind by a letter: e (the whole value), p (a strict
// prefix of it), w (a word), x (a prefix of a word, the word itself included), and `ax` for a
// word prefix of any field (tier 13). Prefixes stop at PREFIX_CAP characters; longer search
// text looks up its capped prefix and the check of the item (tierOf) does the rest.
import { searchableFields, type FieldValue, type Item, type ResourceDef } from '../resources/definition.js';
import { words } from './search-words.js';

export const PREFIX_CAP = 12;
/** The tier of items whose words match only across fields. */
const ACROSS_TIER = 13;

/** Search text as the index compares it: its folded words, them joined by spaces, and the longest (rarest) word. */
export interface SearchText {
  readonly words: readonly string[];
  readonly whole: string;
  readonly lead: string;
}

/**
 * One tier's stream: the key whose postings hold every item of the tier (and maybe items of earlier tiers), and the
 * keys an item must also have (the other words of several), looked up in the index for each posting.
 */
export interface TierStream {
  readonly tier: number;
  readonly key: string;
  readonly also: readonly string[];
}

/** How many postings each key has, up to a bound: the rarest word of several drives its tiers. */
export type Postings = ReadonlyMap<string, number>;

/** The folded form of `q`; undefined when it has no word, so that nothing matches. */
export function searchText(q: string): SearchText | undefined {
  const folded = words(q);
  if (folded.length === 0) return undefined;
  let lead = folded[0]!;
  for (const word of folded) if (word.length > lead.length) lead = word;
  return { words: folded, whole: folded.join(' '), lead };
}

/** `text` cut to at most `length` UTF-16 units, never between the two halves of a surrogate pair. */
function capped(text: string, length = PREFIX_CAP): string {
  if (text.length <= length) return text;
  return text.slice(0, isHighSurrogate(text.charCodeAt(length - 1)) ? length - 1 : length);
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

function addPrefixes(keys: Set<string>, tag: string, text: string, strict: boolean): void {
  const last = Math.min(PREFIX_CAP, strict ? text.length - 1 : text.length);
  for (let length = 1; length <= last; length += 1) {
    if (!isHighSurrogate(text.charCodeAt(length - 1))) keys.add(tag + text.slice(0, length));
  }
}

/** Every key an item is found by, each once. */
export function itemKeys(def: ResourceDef, values: Readonly<Record<string, FieldValue | undefined>>): string[] {
  const keys = new Set<string>();
  const fields = searchableFields(def);
  for (let index = 0; index < fields.length; index += 1) {
    const value = values[fields[index]!];
    if (typeof value !== 'string') continue;
    const found = words(value);
    if (found.length === 0) continue;
    const whole = found.join(' ');
    keys.add(`${index}e${whole}`);
    addPrefixes(keys, `${index}p`, whole, true);
    for (const word of found) {
      keys.add(`${index}w${word}`);
      addPrefixes(keys, `${index}x`, word, false);
      addPrefixes(keys, 'ax', word, false);
    }
  }
  return [...keys];
}

/** The word keys of tiers 3 and 4 of field `index` and of tier 13 (index undefined), for one word. */
function wordKey(kind: 'w' | 'x' | 'a', index: number, word: string): string {
  return kind === 'w' ? `${index}w${word}` : kind === 'x' ? `${index}x${capped(word)}` : `ax${capped(word)}`;
}

/** The keys whose postings `tierStreams` compares for several words (none for one word). */
export function wordKeys(def: ResourceDef, text: SearchText): string[] {
  if (text.words.length < 2) return [];
  const keys = new Set<string>();
  const count = searchableFields(def).length;
  for (const word of text.words) {
    for (let index = 0; index < count; index += 1) keys.add(wordKey('w', index, word)).add(wordKey('x', index, word));
    keys.add(wordKey('a', 0, word));
  }
  return [...keys];
}

/**
 * The stream of a words tier: driven by the word with the fewest postings (else the longest word), the other words
 * looked up.
 */
function wordStream(
  tier: number,
  kind: 'w' | 'x' | 'a',
  index: number,
  text: SearchText,
  postings?: Postings,
): TierStream {
  const words = [...new Set(text.words)];
  let lead = text.lead;
  if (postings) {
    const rarity = (word: string): number => postings.get(wordKey(kind, index, word)) ?? 0;
    for (const word of words) if (rarity(word) < rarity(lead)) lead = word;
  }
  return {
    tier,
    key: wordKey(kind, index, lead),
    also: words.filter((word) => word !== lead).map((word) => wordKey(kind, index, word)),
  };
}

/** The streams of a resource's tiers, in tier order: four per searched field, then tier 13 for several words. */
export function tierStreams(def: ResourceDef, text: SearchText, postings?: Postings): TierStream[] {
  const streams: TierStream[] = [];
  const count = searchableFields(def).length;
  for (let index = 0; index < count; index += 1) {
    const base = 4 * index;
    streams.push(
      { tier: base + 1, key: `${index}e${text.whole}`, also: [] },
      { tier: base + 2, key: `${index}p${capped(text.whole)}`, also: [] },
      wordStream(base + 3, 'w', index, text, postings),
      wordStream(base + 4, 'x', index, text, postings),
    );
  }
  // One word that matches a field sits in that field's tiers: only several words can match across fields.
  if (text.words.length > 1) streams.push(wordStream(ACROSS_TIER, 'a', 0, text, postings));
  return streams;
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
