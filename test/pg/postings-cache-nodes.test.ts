// A node keeps the postings counts of multi-word searches (postings-cache.ts): it sends one statement instead of two,
// and what another node wrote since is found at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dogs } from '../../src/resources/dogs.js';
import type { PostgresStorage } from '../../src/storage/postgres/postgres-storage.js';
import { searchText, tierStreams, wordKeysOf } from '../../src/storage/search-keys.js';
import type { ListQuery, TenantScope } from '../../src/storage/storage.js';
import { skipWithoutPostgres as skip, twoNodesFor } from './databases.js';

const scope: TenantScope = { kind: 'tenant', tenantId: 'tenant-a' };
const other: TenantScope = { kind: 'tenant', tenantId: 'tenant-b' };

function query(q: string): ListQuery {
  return { q, filters: [], limit: 10, offset: 0 };
}

/** The names a node's page of `q` holds, and how many statements it sent for it. */
async function searched(node: PostgresStorage, q: string, within = scope): Promise<[string[], number]> {
  const before = node.queryCount;
  const page = await node.list(dogs, within, query(q));
  return [page.items.map((item) => item.name as string), node.queryCount - before];
}

test('a repeated two-word search counts no postings again: one statement, the same page', { skip }, async (t) => {
  const [node] = await twoNodesFor(t);
  await node.create(dogs, scope, { name: 'Rex', location: 'Oslo' });
  await node.create(dogs, scope, { name: 'Rex', location: 'Bergen' });
  await node.create(dogs, scope, { name: 'Bella', location: 'Oslo' });
  assert.deepEqual(await searched(node, 'rex oslo'), [['Rex'], 2], 'postings, then the streams');
  assert.deepEqual(await searched(node, 'Rex, OSLO'), [['Rex'], 1], 'the same words, their counts kept');
  assert.deepEqual(await searched(node, 'rex oslo'), [['Rex'], 1]);
  assert.equal(node.postingsCache.hits, 2);
  // Counts are kept per tenant: another tenant's search counts its own, and with no postings at all reads no tier.
  assert.deepEqual(await searched(node, 'rex oslo', other), [[], 1]);
  assert.deepEqual(await searched(node, 'rex oslo', other), [[], 1], 'kept: only checked');
});

test('of two words past the count, the one whose first postings spread thinnest leads', { skip }, async (t) => {
  const [node] = await twoNodesFor(t);
  // 160 dogs in Oslo, every fourth named Rex (40), the rest Max: both words pass the count's bound of 30.
  for (let n = 1; n <= 160; n += 1)
    await node.create(dogs, scope, { name: n % 4 === 0 ? 'Rex' : 'Max', location: 'Oslo' });
  await node.create(dogs, scope, { name: 'Bo', location: 'Oslo' });
  const [names] = await searched(node, 'rex oslo');
  assert.deepEqual(names, Array<string>(10).fill('Rex'), 'the page is the same whichever word leads');
  // The kept counts: Oslo's first 30 postings lie in 30 dogs, Rex's in 117 (every fourth): Oslo's are estimated at
  // 117, Rex's at 30; Bo, counted in full, keeps its count; a key without postings stays 0 (it is left out).
  const text = searchText('rex oslo')!;
  const keys = wordKeysOf(dogs, text);
  const postings = node.postingsCache.get(`dogs\n${scope.tenantId}`, keys.join('\n'))!.postings;
  assert.deepEqual(
    ['rex|01', 'rex~0', 'oslo|21', 'oslo~2', 'rex|21'].map((key) => postings.get(key)),
    [30, 30, 117, 117, 0],
  );
  // So Rex leads the tier where both words match (name and town: 13), and Oslo is looked up for each Rex: with counts
  // alone both were 30, and the longer word led.
  assert.deepEqual(
    tierStreams(dogs, text, postings).find((stream) => stream.tier === 13),
    { tier: 13, keys: ['rex|01'], also: [['oslo|21']] },
  );
  const bo = await searched(node, 'bo oslo');
  assert.deepEqual(bo[0], ['Bo']);
  assert.equal(
    node.postingsCache
      .get(`dogs\n${scope.tenantId}`, wordKeysOf(dogs, searchText('bo oslo')!).join('\n'))!
      .postings.get('bo|01'),
    1,
  );
});

test('a word another node wrote since the counts were kept is found at once', { skip }, async (t) => {
  const [first, second] = await twoNodesFor(t);
  await first.create(dogs, scope, { name: 'Rex', location: 'Oslo' });
  // No dog's value holds "bergen": its keys are kept as having no postings, and no tier is read, only the postings.
  assert.deepEqual(await searched(first, 'rex bergen'), [[], 1]);
  assert.deepEqual(await searched(first, 'rex bergen'), [[], 1], 'kept: the keys left out are checked');
  await second.create(dogs, scope, { name: 'Rex', location: 'Bergen' });
  // The check of the kept counts finds a key they left out has postings now: the search runs again on fresh ones.
  const [names, statements] = await searched(first, 'rex bergen');
  assert.deepEqual(names, ['Rex']);
  assert.equal(statements, 3, 'the check, then postings and the streams');
  assert.deepEqual(await searched(first, 'rex bergen'), [['Rex'], 1], 'the fresh counts are kept');
  const hit = await first.search(scope, { q: 'bergen rex', types: [dogs], limit: 10, offset: 0 });
  assert.deepEqual(
    hit.hits.map((found) => found.item.location),
    ['Bergen'],
  );

  // The global search runs again on fresh counts too.
  assert.deepEqual((await first.search(scope, { q: 'rex tromso', types: [dogs], limit: 10, offset: 0 })).hits, []);
  await second.create(dogs, scope, { name: 'Rex', location: 'Tromsø' });
  const found = await first.search(scope, { q: 'rex tromso', types: [dogs], limit: 10, offset: 0 });
  assert.deepEqual(
    found.hits.map((match) => match.item.location),
    ['Tromsø'],
  );
});

test('an item another node removed or renamed leaves the kept counts behind, not the page', { skip }, async (t) => {
  const [first, second] = await twoNodesFor(t);
  const rex = await first.create(dogs, scope, { name: 'Rex', location: 'Oslo' });
  const max = await first.create(dogs, scope, { name: 'Max', location: 'Oslo' });
  assert.deepEqual((await searched(first, 'rex oslo'))[0], ['Rex']);
  assert.deepEqual((await searched(first, 'max oslo'))[0], ['Max']);
  assert.equal(await second.remove(dogs, scope, rex.id as string), true);
  await second.update(dogs, scope, max.id as string, { name: 'Maxi', location: 'Oslo' });
  // Kept counts above zero only choose which word leads: the keys are read as they are now.
  assert.deepEqual(await searched(first, 'rex oslo'), [[], 1]);
  // "Maxi" starts with "max" (a key that had no postings: "Max" was the whole name): that is found at once too.
  assert.deepEqual(await searched(first, 'max oslo'), [['Maxi'], 3]);
});
