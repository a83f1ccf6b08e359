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

/** One tier's stream: the key whose postings hold every item of the tier (and maybe items of earlier tiers). */
export interface TierStream {
  readonly tier: number;
  readonly key: string;
}

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

/** The streams of a resource's tiers, in tier order: four per searched field, then tier 13 for several words. */
export function tierStreams(def: ResourceDef, text: SearchText): TierStream[] {
  const streams: TierStream[] = [];
  const count = searchableFields(def).length;
  for (let index = 0; index < count; index += 1) {
    const base = 4 * index;
    streams.push(
      { tier: base + 1, key: `${index}e${text.whole}` },
      { tier: base + 2, key: `${index}p${capped(text.whole)}` },
      { tier: base + 3, key: `${index}w${text.lead}` },
      { tier: base + 4, key: `${index}x${capped(text.lead)}` },
    );
  }
  // One word that matches a field sits in that field's tiers: only several words can match across fields.
  if (text.words.length > 1) streams.push({ tier: ACROSS_TIER, key: `ax${capped(text.lead)}` });
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
