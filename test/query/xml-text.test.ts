// The character rule of SPEC §13 and the echo escape, as tables.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../src/errors.js';
import { checkXmlText, escapeEcho } from '../../src/query/xml-text.js';

const refused: Array<[string, string, string]> = [
  ['NUL', 'a\u0000', 'U+0000 at position 2'],
  ['a C0 control', '\u0008', 'U+0008 at position 1'],
  ['a vertical tab', 'x\u000b', 'U+000B'],
  ['a form feed', 'x\u000c', 'U+000C'],
  ['unit separator', 'x\u001f', 'U+001F'],
  ['U+FFFE', 'ab\ufffe', 'U+FFFE at position 3'],
  ['U+FFFF', '\uffff', 'U+FFFF'],
  ['a lone high surrogate', 'a\ud800b', 'U+D800 at position 2'],
  ['a high surrogate at the end', 'a\udbff', 'U+DBFF'],
  ['a lone low surrogate', '\udc00', 'U+DC00'],
  ['two high surrogates', '\ud800\ud800\udc00', 'U+D800 at position 1'],
  // Positions count characters, as the length limit does: an emoji is one.
  ['a control after two emoji', '\u{1f415}\u{1f415}\u0001', 'U+0001 at position 3'],
  ['a lone low surrogate after an emoji', '\u{1f415}\udc00', 'U+DC00 at position 2'],
];
for (const [what, text, named] of refused) {
  test(`${what} is refused with code 2010, naming the character and where`, () => {
    assert.throws(
      () => checkXmlText(text, 'The field "name"'),
      (error: unknown) =>
        error instanceof ApiError &&
        error.code === 2010 &&
        error.message.startsWith('The field "name" contains the character ') &&
        error.message.includes(named),
    );
  });
}

const allowed: Array<[string, string]> = [
  ['plain text', 'Rex'],
  ['tab, line feed, carriage return', '\t\n\r'],
  ['DEL and C1 controls', '\u007f\u0080\u0085\u009f'],
  ['other noncharacters', '\ufdd0\ufdef\u{1fffe}\u{10ffff}'],
  ['a surrogate pair', '🐕'],
  ['the empty string', ''],
];
for (const [what, text] of allowed) {
  test(`${what} is allowed`, () => {
    assert.doesNotThrow(() => checkXmlText(text, 'q'));
  });
}

const echoes: Array<[string, string]> = [
  ['Rex', 'Rex'],
  ['a\u0000b', 'a\\u0000b'],
  ['tab\there', 'tab\\u0009here'],
  ['\u0085\u007f', '\\u0085\\u007F'],
  ['\ufffe\uffff', '\\uFFFE\\uFFFF'],
  ['x\ud800', 'x\\uD800'],
  ['🐕\udc00', '🐕\\uDC00'],
  ['\ufdd0', '\ufdd0'],
];
for (const [text, escaped] of echoes) {
  test(`an echo of ${JSON.stringify(text)} is ${JSON.stringify(escaped)}`, () => {
    assert.equal(escapeEcho(text), escaped);
  });
}

test('every ApiError message is escaped, so no handler can echo raw control characters', () => {
  assert.equal(new ApiError('itemNotFound', 'no "\u0001\ud800"').message, 'no "\\u0001\\uD800"');
});
