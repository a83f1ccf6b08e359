// Search (SPEC §5) on PostgreSQL: the service's folded words as tsvector and tsquery values, never through a text
// parser.
//
// The words come from search-words.ts, the same folding SQLite indexes, and are taken literally
// (a tsvector or tsquery value, not to_tsvector/to_tsquery): PostgreSQL's parser and
// dictionaries would split or change some words depending on the server's locale, and then the
// two backends would find different items.
import type { FieldValue, ResourceDef } from '../../resources/definition.js';
import { indexedWords, words } from '../search-words.js';

/** What an item is found by: its folded words as text, and as a tsvector value with their positions. */
export function searchColumns(
  def: ResourceDef,
  values: Readonly<Record<string, FieldValue | undefined>>,
): { words: string; vector: string } {
  const text = indexedWords(def, values);
  const vector =
    text === ''
      ? ''
      : text
          .split(' ')
          .map((word, index) => `${quote(word)}:${index + 1}`)
          .join(' ');
  return { words: text, vector };
}

/**
 * The tsquery value of search text: every word must match a word of the item exactly or as its
 * prefix (`rex:* & oslo:*`). Undefined when the text has no word, so nothing can match.
 */
export function searchQuery(q: string): string | undefined {
  const terms = words(q);
  return terms.length === 0 ? undefined : terms.map((term) => `${quote(term)}:*`).join(' & ');
}

/**
 * A lexeme in the tsvector/tsquery syntax. Folded words are letters and digits only, so the
 * escapes never apply; they are there so that no input could end the quotes.
 */
function quote(word: string): string {
  return `'${word.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}
