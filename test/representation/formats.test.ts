import { test } from 'node:test';
import assert from 'node:assert/strict';
import { XMLValidator } from 'fast-xml-parser';
import { serialize } from '../../src/representation/document.js';
import { formatFromAccept, formatFromSuffix } from '../../src/representation/formats.js';

const accepts: Array<[string | undefined, 'json' | 'xml']> = [
  [undefined, 'json'],
  ['*/*', 'json'],
  ['application/json', 'json'],
  ['application/xml', 'xml'],
  ['text/xml', 'xml'],
  ['text/html', 'json'],
  ['application/yaml', 'json'],
  ['application/xml;q=0.5, application/json', 'json'],
  ['application/json;q=0.1, text/xml', 'xml'],
  ['TEXT/XML; charset=utf-8', 'xml'],
  // RFC 9110 §12.5.1: a type's q is the most specific range's; a wildcard rates JSON too.
  ['*/*, application/xml;q=0.1', 'json'],
  ['application/*, application/xml;q=0.1', 'json'],
  ['application/json;q=0.9, */*;q=0.1, text/xml', 'xml'],
  ['application/xml, */*', 'xml'],
  ['*/*, application/xml', 'xml'],
  ['application/xml, application/json', 'xml'],
  ['application/json, application/xml', 'json'],
  ['application/xml;q=0, */*', 'json'],
  // A wildcard rates XML as well as JSON.
  ['*/*, application/json;q=0.1', 'xml'],
  ['application/json;q=0, */*', 'xml'],
  ['text/*', 'xml'],
  ['image/*', 'json'],
  // A q that is not a qvalue leaves its range out.
  ['application/xml;q=2', 'json'],
  ['application/xml;q=abc, text/xml;q=0.5', 'xml'],
];
for (const [accept, format] of accepts) {
  test(`Accept ${JSON.stringify(accept)} selects ${format}`, () => assert.equal(formatFromAccept(accept), format));
}

test('suffixes json and xml are formats in any case; others are a 400 naming the offered formats', () => {
  assert.equal(formatFromSuffix('json'), 'json');
  assert.equal(formatFromSuffix('XML'), 'xml');
  assert.throws(() => formatFromSuffix('yaml'), /\.yaml" is not offered.*\.json or \.xml/);
});

test('XML escapes markup characters and renders null as an empty element', () => {
  const xml = serialize('xml', { dog: { name: 'A <b> & "c" \'d\'', location: null } });
  assert.equal(XMLValidator.validate(xml), true);
  assert.match(xml, /^<\?xml version="1.0" encoding="UTF-8"\?><dog><name>A &lt;b&gt; &amp; /);
  assert.match(xml, /<location><\/location><\/dog>$/);
});

test('XML renders arrays as sibling elements, keeping their order', () => {
  const xml = serialize('xml', { results: [{ dog: { name: 'a' } }, { owner: { name: 'b' } }, { dog: { name: 'c' } }] });
  assert.match(
    xml,
    /<results><dog><name>a<\/name><\/dog><owner><name>b<\/name><\/owner><dog><name>c<\/name><\/dog><\/results>$/,
  );
  assert.match(serialize('xml', { dogs: [] }), /<dogs><\/dogs>$/);
  assert.match(serialize('xml', { count: 42 }), /<count>42<\/count>$/);
});

test('JSON is the document as it is', () => {
  assert.equal(
    serialize('json', { dogs: [{ dog: { name: 'Rex', ownerId: null } }] }),
    '{"dogs":[{"dog":{"name":"Rex","ownerId":null}}]}',
  );
});
