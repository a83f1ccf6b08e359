// Search folding (SPEC §5): printable ASCII takes a shorter path that must fold exactly as the full one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { words } from '../../src/storage/search-words.js';

/** The full folding, written out: NFKD, marks removed, lower case, the special letters, runs of letters and digits. */
function folded(text: string): string[] {
  const special: Record<string, string> = { ø: 'o', ß: 'ss', æ: 'ae', œ: 'oe', ł: 'l', đ: 'd', ı: 'i' };
  const plain = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[øßæœłđı]/g, (letter) => special[letter]!);
  return plain.match(/[\p{L}\p{N}]+/gu) ?? [];
}

test('printable ASCII folds as the full folding does, character by character', () => {
  for (let first = 0x20; first < 0x7f; first += 1) {
    for (let second = 0x20; second < 0x7f; second += 1) {
      const text = `Ab${String.fromCharCode(first)}Z${String.fromCharCode(second)}9`;
      assert.deepEqual(words(text), folded(text), JSON.stringify(text));
    }
  }
  assert.deepEqual(words('Ann@Example.COM'), ['ann', 'example', 'com']);
  assert.deepEqual(words('Rex_9-b'), ['rex', '9', 'b']);
  assert.deepEqual(words('  '), []);
});

test('text with any other character takes the full folding', () => {
  assert.deepEqual(words('Tromsø'), ['tromso']);
  assert.deepEqual(words('Ærø Straße'), ['aero', 'strasse']);
  assert.deepEqual(words('Rex\tCafé'), ['rex', 'cafe']);
  assert.deepEqual(words('ﬁdo ①'), folded('ﬁdo ①'));
  assert.deepEqual(words('Łódź'), ['lodz']);
});
