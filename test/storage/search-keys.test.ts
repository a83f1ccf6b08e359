// The search index's keys and tiers (SPEC §5): edge prefixes up to a cap, and text longer than the cap.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dogs } from '../../src/resources/dogs.js';
import { foods } from '../../src/resources/foods.js';
import { itemKeys, matchKeys, PREFIX_CAP, searchText, tierOf, tierStreams } from '../../src/storage/search-keys.js';
import { build, createItem as create, dogNames } from '../helper.js';

test("an item's keys: each prefix of its value and words once, with the tier it gives; its words", () => {
  assert.deepEqual(itemKeys(foods, { name: 'Ab Cd', brand: 'Øl' }).sort(), [
    '01ab cd',
    '02a',
    '02ab',
    '02ab c',
    '03cd',
    '04c',
    '0wab',
    '0wcd',
    '11ol',
    '12o',
    '1wol',
  ]);
  // The tier of a word equal to the text beats a longer word's prefix; a repeated word is one key.
  assert.deepEqual(itemKeys(foods, { name: 'Rexford Rex Rex' }).sort(), [
    '02r',
    '02re',
    '02rex',
    '02rexf',
    '02rexfo',
    '02rexfor',
    '02rexford',
    '02rexford r',
    '02rexford re',
    '02rexford rex',
    '0wrex',
    '0wrexford',
  ]);
  // Prefixes stop at the cap, and never between the halves of a surrogate pair.
  const long = `${'a'.repeat(PREFIX_CAP - 1)}\u{20000}b`;
  const prefixes = itemKeys(foods, { name: long }).filter((key) => /^\d\d/.test(key));
  assert.equal(Math.max(...prefixes.map((key) => key.length)), PREFIX_CAP + 1);
  assert.ok(prefixes.every((key) => !/[\uD800-\uDBFF]$/.test(key)));
  assert.ok(prefixes.includes(`02${'a'.repeat(PREFIX_CAP - 1)}`));
});

test('the streams of a query: one key per tier for one word; four per field and a thirteenth for several', () => {
  assert.deepEqual(
    tierStreams(dogs, searchText('Rex')!).map((stream) => `${stream.tier}:${stream.keys.join('|')}`),
    [
      '1:01rex',
      '2:02rex',
      '3:03rex',
      '4:04rex',
      '5:11rex',
      '6:12rex',
      '7:13rex',
      '8:14rex',
      '9:21rex',
      '10:22rex',
      '11:23rex',
      '12:24rex',
    ],
  );
  const text = searchText('Rex  Tromsø')!;
  assert.deepEqual(text, { words: ['rex', 'tromso'], whole: 'rex tromso', lead: 'tromso' });
  const streams = tierStreams(dogs, text);
  assert.deepEqual(
    streams.slice(0, 4).map((stream) => `${stream.tier}:${stream.keys.join('|')}`),
    ['1:01rex tromso', '2:02rex tromso', '3:0wtromso', '4:01tromso|02tromso|03tromso|04tromso'],
  );
  // The longest word drives a words tier; the others are looked up.
  assert.deepEqual(streams[10], { tier: 11, keys: ['2wtromso'], also: [['2wrex']] });
  assert.deepEqual(streams[11]!.also, [['21rex', '22rex', '23rex', '24rex']]);
  assert.equal(streams[12]!.tier, 13);
  assert.equal(streams[12]!.keys.length, 12);
  assert.equal(searchText('!!'), undefined);
  assert.equal(tierOf(dogs, { name: 'Rex', location: 'Tromsø' }, text), 13);
  assert.equal(tierOf(dogs, { name: 'Max', location: 'Tromsø Rex' }, text), 11);
  assert.equal(tierOf(dogs, { name: 'Max' }, text), undefined);
});

test('text longer than the cap: its tiers read the capped prefix, never tier 1 of it; tier 3 the whole word', () => {
  const word = 'supercalifragilistic';
  const streams = tierStreams(foods, searchText(word)!);
  assert.deepEqual(
    streams.slice(0, 4).map((stream) => stream.keys),
    [['02supercalifra'], ['02supercalifra'], [`0w${word}`], ['02supercalifra', '03supercalifra', '04supercalifra']],
  );
  // A capped prefix never ends in a space.
  assert.deepEqual(tierStreams(foods, searchText('abcdefghijk lmn')!)[1]!.keys, ['02abcdefghijk']);
  assert.deepEqual(matchKeys(foods, searchText(`${word} ol`)!), [
    {
      ranges: [
        [`0w${word}`, `0w${word}\u{10ffff}`],
        [`1w${word}`, `1w${word}\u{10ffff}`],
      ],
    },
    { keys: ['01ol', '02ol', '03ol', '04ol', '11ol', '12ol', '13ol', '14ol'] },
  ]);
});

test('search text longer than the cap finds by its capped prefix and then the whole word', async (t) => {
  const api = await build(t);
  await create(api, 'dogs', { name: 'Supercalifragilistic' });
  await create(api, 'dogs', { name: 'Supercalifragilisticexpialidocious Junior' });
  await create(api, 'dogs', { name: 'Supercalifragile' });
  assert.deepEqual(await dogNames(api, '/v2/dogs?q=supercalifragilistic'), [
    'Supercalifragilistic',
    'Supercalifragilisticexpialidocious Junior',
  ]);
  assert.deepEqual(await dogNames(api, '/v2/dogs?q=supercalifragilistic%20jun'), [
    'Supercalifragilisticexpialidocious Junior',
  ]);
  assert.deepEqual(await dogNames(api, '/v2/dogs?q=supercalifragilisticx'), []);
  assert.deepEqual(await dogNames(api, '/v2/dogs?q=supercalifragil'), [
    'Supercalifragilistic',
    'Supercalifragilisticexpialidocious Junior',
    'Supercalifragile',
  ]);
});
