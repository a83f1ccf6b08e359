// The global /search reads each resource's tiers (storage/search-merge.ts): a word's one range of every resource at
// once, so that on PostgreSQL they leave in one turn; several words resource by resource, each later one only in the
// tiers that can still reach the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resources } from '../../src/resources/index.js';
import type { ResourceDef } from '../../src/resources/definition.js';
import { searchText, tierOf as tierOfItem, type SearchText, type TierStream } from '../../src/storage/search-keys.js';
import { searchResources } from '../../src/storage/search-merge.js';
import type { StreamSource } from '../../src/storage/search-tiers.js';

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
    matchingSeqs: () => later([]),
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
