// The one lower-casing of text filters and sorts (SPEC §3: a case-insensitive exact match), the same on both backends.

/** The two letters whose lower case in JavaScript is not their own simple lower-case mapping. */
const CONTEXTUAL = /[\u0130\u03a3]/;

/**
 * Each character's simple lower-case mapping (Unicode's UnicodeData), as PostgreSQL's `lower()` gives it under the libc
 * and builtin providers: the query's values here, SQLite's `ci()` and PostgreSQL's `lower()` of the column then agree,
 * so that a stored value always matches itself. JavaScript's `toLowerCase` differs in two letters: Σ at the end of a
 * word becomes ς (final sigma), which PostgreSQL makes σ, and İ becomes i and a combining dot (two characters), which
 * PostgreSQL makes i.
 */
export function lowerCase(text: string): string {
  if (!CONTEXTUAL.test(text)) return text.toLowerCase();
  let lowered = '';
  for (const character of text) lowered += character === '\u0130' ? 'i' : character.toLowerCase();
  return lowered;
}
