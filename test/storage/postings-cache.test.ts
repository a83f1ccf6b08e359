// The node's kept postings counts (postings-cache.ts): all of a search's keys or none, fresh for a minute, the least
// recently used dropped first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PostingsCache } from '../../src/storage/postgres/postings-cache.js';

const counts = (entries: Array<[string, number]>): Map<string, number> => new Map(entries);

test('kept counts serve a search only when each of its keys is kept, and name those with none', () => {
  const cache = new PostingsCache(() => 0);
  assert.equal(cache.get('dogs\na', ['rex~0', 'oslo~2']), undefined);
  cache.set(
    'dogs\na',
    counts([
      ['rex~0', 30],
      ['oslo~2', 0],
    ]),
  );
  assert.deepEqual(cache.get('dogs\na', ['oslo~2', 'rex~0']), {
    postings: counts([
      ['oslo~2', 0],
      ['rex~0', 30],
    ]),
    none: ['oslo~2'],
  });
  assert.equal(cache.get('dogs\na', ['rex~0', 'bergen~2']), undefined, 'one key not kept');
  assert.equal(cache.get('dogs\nb', ['rex~0']), undefined, 'another tenant');
  assert.equal(cache.get('owners\na', ['rex~0']), undefined, 'another resource');
  cache.set('dogs\na', counts([['oslo~2', 4]]));
  assert.deepEqual(cache.get('dogs\na', ['oslo~2'])?.none, [], 'fresh counts replace kept ones');
  assert.equal(cache.hits, 2);
  assert.equal(cache.misses, 4);
});

test('a kept count serves for a minute', () => {
  let now = 1_000;
  const cache = new PostingsCache(() => now);
  cache.set('dogs\na', counts([['rex~0', 3]]));
  now += 60_000;
  assert.deepEqual(cache.get('dogs\na', ['rex~0'])?.postings, counts([['rex~0', 3]]));
  now += 1;
  assert.equal(cache.get('dogs\na', ['rex~0']), undefined);
});

test('past its size the cache drops the keys used longest ago', () => {
  const cache = new PostingsCache(() => 0, 3);
  cache.set(
    's',
    counts([
      ['a', 1],
      ['b', 1],
      ['c', 1],
    ]),
  );
  assert.notEqual(cache.get('s', ['a']), undefined, 'a used: b is now the oldest');
  cache.set('s', counts([['d', 1]]));
  assert.equal(cache.get('s', ['b']), undefined);
  for (const key of ['a', 'c', 'd']) assert.notEqual(cache.get('s', [key]), undefined, key);
});
