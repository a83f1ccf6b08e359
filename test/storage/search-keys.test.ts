// The search index's keys and tiers (SPEC §5): edge prefixes up to a cap, and text longer than the cap.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dogs } from '../../src/resources/dogs.js';
import { foods } from '../../src/resources/foods.js';
import {
  itemKeys,
  matchRanges,
  oneRange,
  PREFIX_CAP,
  searchText,
  tierOf,
  tierOfKey,
  tierStreams,
  tiersRange,
  wordKeysOf,
  type Postings,
  type TierStream,
} from '../../src/storage/search-keys.js';
import {
  estimatePostings,
  POSTINGS_BOUND,
  SPREAD_UNIT,
  tieredMatches,
  wholeRows,
  type StreamSource,
} from '../../src/storage/search-tiers.js';
import { build, createItem as create, dogNames } from '../helper.js';

test("an item's keys: each prefix of its value and words once, with the tier it gives; its words", () => {
  assert.deepEqual(itemKeys(foods, { name: 'Ab Cd', brand: 'Øl' }).sort(), [
    'ab cd|01',
    'ab c|02',
    'ab|02',
    'ab~0',
    'a|02',
    'cd|03',
    'cd~0',
    'c|04',
    'ol|11',
    'ol~1',
    'o|12',
  ]);
  // The tier of the value's start beats a word's; a repeated word is one key.
  assert.deepEqual(itemKeys(foods, { name: 'Rexford Rex Rex' }).sort(), [
    'rexford rex|02',
    'rexford re|02',
    'rexford r|02',
    'rexford|02',
    'rexford~0',
    'rexfor|02',
    'rexfo|02',
    'rexf|02',
    'rex|02',
    'rex~0',
    're|02',
    'r|02',
  ]);
  // Prefixes stop at the cap, and never between the halves of a surrogate pair.
  const long = `${'a'.repeat(PREFIX_CAP - 1)}\u{20000}b`;
  const prefixes = itemKeys(foods, { name: long })
    .filter((key) => key.includes('|'))
    .map((key) => key.slice(0, key.indexOf('|')));
  assert.equal(Math.max(...prefixes.map((prefix) => prefix.length)), PREFIX_CAP - 1);
  assert.ok(prefixes.every((prefix) => !/[\uD800-\uDBFF]$/.test(prefix)));
});

test("one word within the cap is one range of keys, in tier order; its key gives a row's tier", () => {
  const text = searchText('Rex')!;
  assert.equal(oneRange(text), 'rex');
  assert.deepEqual(tiersRange('rex'), ['rex|', 'rex}']);
  const keys = ['rex|24', 'rex|01', 'rexford|02', 'rex|13', 'rex~0', 're|02', 'rex 1|02'];
  const [from, to] = tiersRange('rex');
  assert.deepEqual(keys.filter((key) => key >= from && key < to).sort(), ['rex|01', 'rex|13', 'rex|24']);
  assert.deepEqual(['rex|01', 'rex|13', 'rex|24'].map(tierOfKey), [1, 7, 12]);
  assert.equal(oneRange(searchText('rex oslo')!), undefined);
  assert.equal(oneRange(searchText('supercalifragilistic')!), undefined);
});

test('the streams of several words: four per field and a thirteenth across fields', () => {
  const text = searchText('Rex  Tromsø')!;
  assert.deepEqual(text, { words: ['rex', 'tromso'], whole: 'rex tromso', lead: 'tromso' });
  const streams = tierStreams(dogs, text);
  assert.deepEqual(
    streams.slice(0, 4).map((stream) => `${stream.tier}:${stream.keys.join(',')}`),
    ['1:rex tromso|01', '2:rex tromso|02', '3:tromso~0', '4:tromso|01,tromso|02,tromso|03,tromso|04'],
  );
  // The longest word drives a words tier; the others are looked up.
  assert.deepEqual(streams[10], { tier: 11, keys: ['tromso~2'], also: [['rex~2']] });
  assert.deepEqual(streams[11]!.also, [['rex|21', 'rex|22', 'rex|23', 'rex|24']]);
  assert.equal(streams[12]!.tier, 13);
  assert.equal(streams[12]!.keys.length, 12);
  // With postings counted, the rarer word drives, keys without postings go, and a tier no item can be in is left out:
  // the whole text's tiers too, when no value equals or starts with it.
  const keys = wordKeysOf(dogs, text);
  assert.deepEqual(keys.slice(0, 6), [
    'rex tromso|01',
    'rex tromso|02',
    'rex tromso|11',
    'rex tromso|12',
    'rex tromso|21',
    'rex tromso|22',
  ]);
  const postings = new Map(keys.map((key) => [key, 0]));
  postings.set('rex~2', 3).set('tromso~2', 30).set('rex|21', 3).set('tromso|21', 30).set('rex tromso|12', 1);
  const counted = tierStreams(dogs, text, postings);
  assert.deepEqual(
    counted.map((stream) => stream.tier),
    [6, 11, 12, 13],
  );
  assert.deepEqual(counted[0], { tier: 6, keys: ['rex tromso|12'], also: [] });
  assert.deepEqual(counted[1], { tier: 11, keys: ['rex~2'], also: [['tromso~2']] });
  assert.deepEqual(counted[2], { tier: 12, keys: ['rex|21'], also: [['tromso|21']] });
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
    [
      ['supercalifra|02'],
      ['supercalifra|02'],
      [`${word}~0`],
      ['supercalifra|02', 'supercalifra|03', 'supercalifra|04'],
    ],
  );
  // A capped prefix never ends in a space.
  assert.deepEqual(tierStreams(foods, searchText('abcdefghijk lmn')!)[1]!.keys, ['abcdefghijk|02']);
  // The match set: a range of whole words for a long word, the word's tiers for a short one.
  assert.deepEqual(matchRanges(searchText(`${word} ol`)!), [
    [word, `${word}\u{10ffff}`],
    ['ol|', 'ol}'],
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

test("postings past the count's bound are estimated from how far the first ones spread", () => {
  const packed = (count: number, spread: number): number => count + SPREAD_UNIT * (spread - 1);
  const counted = [packed(30, 600), packed(30, 300), packed(5, 100), 0].join(',');
  // Against the widest spread (600): 30 in 300 items are about 60; a count below the bound is exact; none stays 0.
  assert.deepEqual(
    [...estimatePostings(['a', 'b', 'c', 'd'], counted)],
    [
      ['a', 30],
      ['b', 60],
      ['c', 5],
      ['d', 0],
    ],
  );
  // A key counted in full is always the rarer: no estimate falls below the bound.
  assert.deepEqual(
    [...estimatePostings(['a', 'b'], [packed(30, 40), packed(29, 2000)].join(','))],
    [
      ['a', 1500],
      ['b', 29],
    ],
  );
  assert.equal(estimatePostings([], '').size, 0);
});

test('a packed count leaves room for every count up to the bound', () => {
  assert.ok(SPREAD_UNIT > POSTINGS_BOUND);
  assert.equal(estimatePostings(['a'], String(POSTINGS_BOUND - 1 + SPREAD_UNIT * 5)).get('a'), POSTINGS_BOUND - 1);
});

test('a text searched again reuses its keys, and its streams while its postings are the same counts', async () => {
  const text = searchText('rex oslo')!;
  const counted: Array<readonly string[]> = [];
  const read: Array<readonly TierStream[]> = [];
  const source = (postings: Postings): StreamSource => ({
    items: () => Promise.resolve([]),
    postings: (keys) => {
      counted.push(keys);
      return Promise.resolve(postings);
    },
    read: (streams) => {
      read.push(streams);
      return Promise.resolve([]);
    },
    range: () => Promise.reject(new Error('one word only')),
  });
  const kept = new Map(wordKeysOf(dogs, text).map((key) => [key, key === 'rex|02' || key === 'oslo|21' ? 3 : 0]));
  await tieredMatches(dogs, text, 11, source(kept), wholeRows);
  await tieredMatches(dogs, text, 11, source(kept), wholeRows);
  assert.equal(counted.length, 2);
  assert.equal(counted[1], counted[0], 'the same keys, not made again');
  assert.deepEqual(counted[0], wordKeysOf(dogs, text));
  assert.equal(read.length, 2);
  assert.equal(read[1]![0], read[0]![0], 'the same streams for the same counts');
  // Fresh counts (another object, as after the kept ones expire) make the streams again, from those counts.
  const fresh = new Map(kept);
  fresh.set('rex|01', 5);
  await tieredMatches(dogs, text, 11, source(fresh), wholeRows);
  assert.notEqual(read[2]![0], read[0]![0]);
  assert.deepEqual(read[2], tierStreams(dogs, text, fresh));
  assert.notDeepEqual(read[2], read[0]);
});
