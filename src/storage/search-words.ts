// The service's own text folding for search (SPEC §5), done before indexing and before querying on every backend.

// Letters that NFKD does not decompose into a base letter and a mark.
const SPECIAL: Readonly<Record<string, string>> = { ø: 'o', ß: 'ss', æ: 'ae', œ: 'oe', ł: 'l', đ: 'd', ı: 'i' };
const SPECIAL_RE = /[øßæœłđı]/g;
const MARKS = /\p{M}+/gu;
const WORD = /[\p{L}\p{N}]+/gu;
/** Text of printable ASCII alone: NFKD leaves it as it is and it has no marks, so lower case and ASCII words fold it. */
const ASCII = /^[\x20-\x7e]*$/;
const ASCII_WORD = /[a-z0-9]+/g;

/** NFKD, combining marks removed, lower case, then the special letters: `Tromsø` → `tromso`. */
function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(MARKS, '')
    .toLowerCase()
    .replace(SPECIAL_RE, (letter) => SPECIAL[letter]!);
}

/** The folded words of a text: maximal runs of letters and digits. */
export function words(text: string): string[] {
  // Most names, colours and towns are ASCII: the search checks each row it reads (tierOf), so they skip NFKD.
  if (ASCII.test(text)) return text.toLowerCase().match(ASCII_WORD) ?? [];
  return fold(text).match(WORD) ?? [];
}
