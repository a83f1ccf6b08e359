// The search index's keys and tiers (SPEC §5): edge prefixes up to a cap, and text longer than the cap.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dogs } from '../../src/resources/dogs.js';
import { foods } from '../../src/resources/foods.js';
import { itemKeys, PREFIX_CAP, searchText, tierOf, tierStreams } from '../../src/storage/search-keys.js';
import { build, createItem as create, dogNames } from '../helper.js';

test("an item's keys: its folded value, its strict prefixes, its words and their prefixes, per field", () => {
  assert.deepEqual(itemKeys(foods, { name: 'Ab Cd', brand: 'Øl' }).sort(), [
    '0eab cd',
    '0pa',
    '0pab',
    '0pab ',
    '0pab c',
    '0wab',
    '0wcd',
    '0xa',
    '0xab',
    '0xc',
    '0xcd',
    '1eol',
    '1po',
    '1wol',
    '1xo',
    '1xol',
    'axa',
    'axab',
    'axc',
    'axcd',
    'axo',
    'axol',
  ]);
  // Prefixes stop at the cap, and never between the halves of a surrogate pair.
  const long = `${'a'.repeat(PREFIX_CAP - 1)}\u{20000}b`;
  const prefixes = itemKeys(foods, { name: long }).filter((key) => /^(\dp|\dx|ax)/.test(key));
  assert.equal(Math.max(...prefixes.map((key) => key.length)), PREFIX_CAP + 1);
  assert.ok(prefixes.every((key) => !/[\uD800-\uDBFF]$/.test(key)));
  assert.ok(prefixes.includes(`0p${'a'.repeat(PREFIX_CAP - 1)}`));
});

test('the streams of a query: four per field, a thirteenth across fields for several words', () => {
  const text = searchText('Rex  Tromsø')!;
  assert.deepEqual(text, { words: ['rex', 'tromso'], whole: 'rex tromso', lead: 'tromso' });
  assert.deepEqual(
    tierStreams(dogs, text).map((stream) => `${stream.tier}:${stream.key}`),
    [
      '1:0erex tromso',
      '2:0prex tromso',
      '3:0wtromso',
      '4:0xtromso',
      '5:1erex tromso',
      '6:1prex tromso',
      '7:1wtromso',
      '8:1xtromso',
      '9:2erex tromso',
      '10:2prex tromso',
      '11:2wtromso',
      '12:2xtromso',
      '13:axtromso',
    ],
  );
  // The other words are looked up; the word with the fewest postings drives its tier.
  assert.deepEqual(tierStreams(dogs, text)[10], { tier: 11, key: '2wtromso', also: ['2wrex'] });
  assert.deepEqual(
    tierStreams(
      dogs,
      text,
      new Map([
        ['2wtromso', 1000],
        ['2wrex', 3],
      ]),
    )[10],
    {
      tier: 11,
      key: '2wrex',
      also: ['2wtromso'],
    },
  );
  assert.deepEqual(tierStreams(dogs, searchText('rex')!)[3], { tier: 4, key: '0xrex', also: [] });
  assert.equal(searchText('!!'), undefined);
  assert.equal(tierOf(dogs, { name: 'Rex', location: 'Tromsø' }, text), 13);
  assert.equal(tierOf(dogs, { name: 'Max', location: 'Tromsø Rex' }, text), 11);
  assert.equal(tierOf(dogs, { name: 'Max' }, text), undefined);
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
