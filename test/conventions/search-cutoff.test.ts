// /search of one word reads every resource's range at once; of several words, the resources in order, each stopped at
// the tier where the page is already full (SPEC §5; storage/search-merge.ts). The pages are the same either way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dogs } from '../../src/resources/dogs.js';
import { resources } from '../../src/resources/index.js';
import { build, createItem as create, type TestApp } from '../helper.js';

/** The statement that reads the tenant's write stamp before every search (storage/search-cache.ts). */
const STAMP = 1;

/** The hits of a /search as `kind:name`. */
async function names(api: TestApp, url: string): Promise<string[]> {
  const response = await api.request({ url });
  assert.equal(response.statusCode, 200, url);
  return response.json().results.map((entry: Record<string, { name: string }>) => {
    const [kind, item] = Object.entries(entry)[0]!;
    return `${kind}:${item.name}`;
  });
}

test('/search of one word reads each resource once, in the same turn, whatever the page', async (t) => {
  const api = await build(t);
  for (let n = 0; n < 3; n += 1) await create(api, 'dogs', { name: 'Rex' });
  await create(api, 'owners', { name: 'Rex' });
  await create(api, 'foods', { name: 'Rex' });
  const scope = { kind: 'tenant', tenantId: api.credentials.tenantId } as const;
  const statements = async (limit: number, types = resources): Promise<number> => {
    const before = api.storage.queryCount;
    await api.storage.search(scope, { q: 'rex', types, limit, offset: 0 });
    return api.storage.queryCount - before;
  };
  // Three dogs in tier 1 fill a page of two and its look-ahead; the other resources are read all the same, in the
  // same turn as the dogs (test/storage/search-merge.test.ts), after the tenant's write stamp (storage/search-cache.ts),
  // read first by every search: on SQLite a statement each, on PostgreSQL one statement for all (rangesQuery).
  const ranges = api.storage.kind === 'postgres' ? 1 : resources.length;
  assert.equal(await statements(2), STAMP + ranges);
  assert.equal(await statements(2, [dogs]), STAMP + 1);
  assert.equal(await statements(4), STAMP + ranges);
  // Searched again with nothing written since: the kept answer, after the stamp alone.
  assert.equal(await statements(4), STAMP);
});

test('/search pages are the same whether a later resource is read in full or only before the cut', async (t) => {
  const api = await build(t);
  // Dogs in tiers 1, 1, 2 (Rexa starts with rex), 4 (a word of the name starts with rex); owners and foods in 1 and 2.
  await create(api, 'dogs', { name: 'Rex' });
  await create(api, 'owners', { name: 'Rexford' });
  await create(api, 'dogs', { name: 'Rex' });
  await create(api, 'foods', { name: 'Rex' });
  await create(api, 'dogs', { name: 'Rexa' });
  await create(api, 'owners', { name: 'Rex' });
  await create(api, 'dogs', { name: 'Big Rexy' });
  const all = ['dog:Rex', 'dog:Rex', 'owner:Rex', 'food:Rex', 'dog:Rexa', 'owner:Rexford', 'dog:Big Rexy'];
  assert.deepEqual(await names(api, '/v2/search?q=rex'), all);
  for (const limit of [1, 2, 3, 4]) {
    const pages: string[] = [];
    for (let offset = 0; offset < all.length; offset += limit)
      pages.push(...(await names(api, `/v2/search?q=rex&limit=${limit}&offset=${offset}`)));
    assert.deepEqual(pages, all, `limit ${limit}`);
  }
  // The next link: present while hits remain after the page, also when the cut left a resource unread.
  const first = await api.request({ url: '/v2/search?q=rex&limit=2' });
  assert.match(String(first.headers.link), /rel="next"/);
  const last = await api.request({ url: '/v2/search?q=rex&limit=2&offset=6' });
  assert.doesNotMatch(String(last.headers.link ?? ''), /rel="next"/);
});

test("/search of several words reads a later resource's streams before the cut alone, with the same pages", async (t) => {
  const api = await build(t);
  await create(api, 'owners', { name: 'Rex', location: 'Oslo' });
  await create(api, 'dogs', { name: 'Rex Oslo Two' });
  await create(api, 'owners', { name: 'Rex Oslo' });
  await create(api, 'dogs', { name: 'Rex Oslo' });
  // A page of one: the dogs (postings, then streams) hold two hits up to tier 2, so the owners read their tier 1
  // alone, without counting postings (they serve the words tiers); with theirs, two hits are in tier 1, and
  // veterinarians and foods are not read.
  const scope = { kind: 'tenant', tenantId: api.credentials.tenantId } as const;
  const before = api.storage.queryCount;
  const { hits } = await api.storage.search(scope, { q: 'rex oslo', types: resources, limit: 1, offset: 0 });
  assert.equal(api.storage.queryCount - before, STAMP + 3);
  assert.deepEqual(
    hits.map(({ def, item }) => `${def.singular}:${String(item.name)}`),
    ['dog:Rex Oslo'],
  );
  const all = ['dog:Rex Oslo', 'owner:Rex Oslo', 'dog:Rex Oslo Two', 'owner:Rex'];
  assert.deepEqual(await names(api, '/v2/search?q=rex%20oslo'), all);
  for (const limit of [1, 2, 3]) {
    const pages: string[] = [];
    for (let offset = 0; offset < all.length; offset += limit)
      pages.push(...(await names(api, `/v2/search?q=rex%20oslo&limit=${limit}&offset=${offset}`)));
    assert.deepEqual(pages, all, `limit ${limit}`);
  }
});
