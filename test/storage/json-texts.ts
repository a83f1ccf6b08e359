// Texts every JSON writer of the service is checked against, and what JSON.stringify writes for an item's fields.
import type { Item } from '../../src/resources/definition.js';

/** Every character JSON escapes or might: all control characters, quote, backslash, slash, DEL, non-ASCII, line separators, a lone surrogate. */
const CONTROLS = Array.from({ length: 32 }, (_, code) => String.fromCharCode(code)).join('');
export const AWKWARD = [
  `a${CONTROLS}b`,
  'quote " backslash \\ slash / del \u007f',
  'Åsa Ødegård — ß 漢字 🐕 \u2028 \u2029 \ufeff',
  'lone \ud800 surrogate',
  "<xml>&amp;</xml> 'single'",
  '',
];

/** JSON.stringify of the item's `fields`, in that order. */
export function picked(item: Item, fields: readonly string[]): string {
  return JSON.stringify(Object.fromEntries(fields.map((name) => [name, item[name]])));
}
