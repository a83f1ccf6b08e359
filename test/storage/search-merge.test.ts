// The global /search reads each resource's tiers (storage/search-merge.ts): a word's one range of every resource at
// once, so that on PostgreSQL they leave in one turn; several words resource by resource, each later one only in the
// tiers that can still reach the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resources } from '../../src/resources/index.js';
import type { ResourceDef } from '../../src/resources/definition.js';
import { searchText, tierOf as tierOfItem, type SearchText, type TierStream } from '../../src/storage/search-keys.js';
import { searchResources } from '../../src/storage/search-merge.js';
import { ROWS_PER_READ, type StreamSource } from '../../src/storage/search-tiers.js';

/** Sources that answer each read a turn later, each resource's rows in `tierOf(def)`, and count the reads in flight. */
function sources(tierOf: (def: ResourceDef) => number) {
  let inFlight = 0;
  let most = 0;
  const later = <T>(value: T): Promise<T> => {
    inFlight += 1;
    most = Math.max(most, inFlight);
    return new Promise((resolve) =>
      setImmediate(() => {
        inFlight -= 1;
        resolve(value);
      }),
    );
  };
  const rowsOf = (def: ResourceDef, limit: number, tier = tierOf(def)) =>
    Array.from({ length: Math.min(limit, 2) }, (_, n) => ({
      item: { id: `${def.name}-${n}` },
      seq: n + 1,
      tier,
      key: `${tier}:key`,
    }));
  // Several words: items named as the text, in the tier their name puts them (the tiers are checked on the items).
  const named = (def: ResourceDef, text: SearchText, streams: readonly TierStream[], limit: number) =>
    Array.from({ length: Math.min(limit, 2) }, (_, n) => {
      const item = { id: `${def.name}-${n}`, name: text.whole };
      return { item, seq: n + 1, tier: tierOfItem(def, item, text)! };
    }).filter((row) => streams.some((stream) => stream.tier === row.tier));
  const sourceOf = (def: ResourceDef, text?: SearchText): StreamSource => ({
    items: () => later([]),
    range: (_keys, limit) => later(rowsOf(def, limit)),
    read: (streams, limit) => later(named(def, text!, streams, limit)),
    postings: (keys) => later(new Map(keys.map((key) => [key, 1]))),
  });
  return { sourceOf, most: () => most };
}

const page = { limit: 3, offset: 0 };
const ids = (hits: ReadonlyArray<{ item: { id?: string } }>) => hits.map((hit) => hit.item.id);

test('one word: every resource is read at once, and the page is by tier, then resource', async () => {
  // Owners in tier 0, the rest in tier 2: the owners lead although dogs come first in resource order.
  const { sourceOf, most } = sources((def) => (def.name === 'owners' ? 0 : 2));
  const { hits, hasMore } = await searchResources(resources, searchText('rex')!, page, sourceOf);
  assert.equal(most(), resources.length, 'one read of each resource in flight together');
  assert.deepEqual(ids(hits), ['owners-0', 'owners-1', 'dogs-0']);
  assert.equal(hasMore, true);
});

test('two words: the resources are read one after another', async () => {
  const { sourceOf, most } = sources(() => 0);
  const text = searchText('rex oslo')!;
  const { hits, hasMore } = await searchResources(resources, text, page, (def) => sourceOf(def, text));
  assert.equal(most(), 1, 'one read in flight at a time');
  // Every resource's items in the same tier: resource order.
  assert.deepEqual(ids(hits), ['dogs-0', 'dogs-1', 'owners-0']);
  assert.equal(hasMore, true);
});

/**
 * One word's range of `counts[def]` items per resource, all in `tierOf(def)`, seqs 1, 2, …; it records every read's
 * limit and the rows it gave, and the seqs whose items were read after the ranking.
 */
function countedRanges(counts: ReadonlyMap<string, number>, tierOf: (def: ResourceDef) => number) {
  const limits: number[] = [];
  let rowsRead = 0;
  const itemsRead: number[][] = [];
  const sourceOf = (def: ResourceDef): StreamSource => {
    const total = counts.get(def.name) ?? 0;
    const item = (seq: number) => ({ id: `${def.name}-${seq}` });
    return {
      items: (seqs) => {
        itemsRead.push([...seqs]);
        return Promise.resolve(seqs.map((seq) => ({ seq, item: item(seq) })));
      },
      range: (_keys, limit, after) => {
        limits.push(limit);
        const from = (after?.seq ?? 0) + 1;
        const rows = [];
        for (let seq = from; seq < from + limit && seq <= total; seq += 1)
          rows.push({ item: item(seq), seq, tier: tierOf(def), key: `rex|${tierOf(def)}` });
        rowsRead += rows.length;
        return Promise.resolve(rows);
      },
      read: () => Promise.reject(new Error('one word reads its range')),
      postings: () => Promise.reject(new Error('one word counts no postings')),
    };
  };
  return { sourceOf, limits, itemsRead, rowsRead: () => rowsRead };
}

test('a deep page reads its depth in chunks, not every match, and only its own items', async () => {
  const dogs = resources.find((def) => def.name === 'dogs')!;
  const read = countedRanges(new Map([['dogs', 50_000]]), () => 1);
  const { hits, hasMore } = await searchResources(
    [dogs],
    searchText('rex')!,
    { offset: 5000, limit: 10 },
    read.sourceOf,
  );
  assert.deepEqual(
    ids(hits),
    Array.from({ length: 10 }, (_, n) => `dogs-${5001 + n}`),
  );
  assert.equal(hasMore, true);
  assert.ok(read.rowsRead() <= 5011 + ROWS_PER_READ, `${read.rowsRead()} rows read for a page 5,000 deep`);
  assert.ok(read.limits.length > 1 && read.limits.every((limit) => limit <= ROWS_PER_READ), String(read.limits));
  assert.deepEqual(read.itemsRead, [Array.from({ length: 10 }, (_, n) => 5001 + n)]);
});

test('a deep page of /search merges the resources by tier, then reads each one’s items of the page', async () => {
  // 1,000 owners in tier 0, then 5,000 dogs in tier 2: the page 1,500 deep is the dogs' 501st to 505th.
  const read = countedRanges(
    new Map([
      ['dogs', 5000],
      ['owners', 1000],
    ]),
    (def) => (def.name === 'owners' ? 0 : 2),
  );
  const { hits, hasMore } = await searchResources(
    resources,
    searchText('rex')!,
    { offset: 1500, limit: 5 },
    read.sourceOf,
  );
  assert.deepEqual(ids(hits), ['dogs-501', 'dogs-502', 'dogs-503', 'dogs-504', 'dogs-505']);
  assert.equal(hasMore, true);
  assert.deepEqual(read.itemsRead, [[501, 502, 503, 504, 505]]);
  // Past the last match: nothing, and no next page.
  const past = await searchResources(resources, searchText('rex')!, { offset: 6000, limit: 5 }, read.sourceOf);
  assert.deepEqual(past, { hits: [], hasMore: false });
});
