// The node's kept postings counts (postings-cache.ts): a search's keys in one space, fresh for a minute, the least
// recently used dropped first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PostingsCache } from '../../src/storage/postgres/postings-cache.js';

const counts = (entries: Array<[string, number]>): Map<string, number> => new Map(entries);

test('kept counts serve the same keys in the same space, and name the keys with none', () => {
  const cache = new PostingsCache(() => 7);
  assert.equal(cache.get('dogs\na', 'rex~0\noslo~2'), undefined);
  const postings = counts([
    ['rex~0', 30],
    ['oslo~2', 0],
  ]);
  cache.set('dogs\na', 'rex~0\noslo~2', postings);
  assert.deepEqual(cache.get('dogs\na', 'rex~0\noslo~2'), { postings, none: ['oslo~2'], at: 7 });
  assert.equal(cache.get('dogs\na', 'rex~0\nbergen~2'), undefined, 'other keys');
  assert.equal(cache.get('dogs\nb', 'rex~0\noslo~2'), undefined, 'another tenant');
  assert.equal(cache.get('owners\na', 'rex~0\noslo~2'), undefined, 'another resource');
  cache.set(
    'dogs\na',
    'rex~0\noslo~2',
    counts([
      ['rex~0', 30],
      ['oslo~2', 4],
    ]),
  );
  assert.deepEqual(cache.get('dogs\na', 'rex~0\noslo~2')?.none, [], 'fresh counts replace kept ones');
  assert.equal(cache.hits, 2);
  assert.equal(cache.misses, 4);
});

test('kept counts serve for a minute', () => {
  let now = 1_000;
  const cache = new PostingsCache(() => now);
  cache.set('dogs\na', 'rex~0', counts([['rex~0', 3]]));
  now += 60_000;
  assert.deepEqual(cache.get('dogs\na', 'rex~0')?.postings, counts([['rex~0', 3]]));
  now += 1;
  assert.equal(cache.get('dogs\na', 'rex~0'), undefined);
});

test('past its size the cache drops the search used longest ago', () => {
  const cache = new PostingsCache(() => 0, 3);
  for (const keys of ['a', 'b', 'c']) cache.set('s', keys, counts([[keys, 1]]));
  assert.notEqual(cache.get('s', 'a'), undefined, 'a used: b is now the oldest');
  cache.set('s', 'd', counts([['d', 1]]));
  assert.equal(cache.get('s', 'b'), undefined);
  for (const keys of ['a', 'c', 'd']) assert.notEqual(cache.get('s', keys), undefined, keys);
});
