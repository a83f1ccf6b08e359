// The kept search answers of a node (storage/search-cache.ts), with a stamp and a clock of the test's own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dogs } from '../../src/resources/dogs.js';
import { owners } from '../../src/resources/owners.js';
import { readOncePerBatch, SearchCache } from '../../src/storage/search-cache.js';
import { PUBLIC_SCOPE, type JsonPage, type ListQuery, type TenantScope } from '../../src/storage/storage.js';

const tenant: TenantScope = { kind: 'tenant', tenantId: 'tenant-a' };
const other: TenantScope = { kind: 'tenant', tenantId: 'tenant-b' };
const query = (q: string, offset = 0): ListQuery => ({ q, filters: [], limit: 10, offset });

/** A cache whose stamps and time the test sets, and a read that counts its calls and answers `rows`. */
function setUp(most?: number) {
  const stamps = new Map<string, string>();
  const clock = { now: 0 };
  const cache = new SearchCache(
    (tenantId) => stamps.get(tenantId) ?? '0',
    most,
    () => clock.now,
  );
  let reads = 0;
  const read = (rows: string[]) => async (): Promise<JsonPage> => {
    reads += 1;
    return { items: rows, hasMore: false };
  };
  return { cache, stamps, clock, read, reads: () => reads };
}

test('an answer is served again while its tenant’s stamp is the one it was read under', async () => {
  const { cache, stamps, read, reads } = setUp();
  const first = await cache.page(dogs, tenant, query('rex'), ['name'], read(['{"name":"Rex"}']));
  const again = await cache.page(dogs, tenant, query('rex'), ['name'], read(['{"name":"other"}']));
  assert.equal(again, first, 'the kept answer itself');
  assert.equal(reads(), 1);
  // Another tenant's stamp moving changes nothing for this one.
  stamps.set(other.tenantId, '7');
  await cache.page(dogs, tenant, query('rex'), ['name'], read([]));
  assert.equal(reads(), 1);
  stamps.set(tenant.tenantId, '1');
  const after = await cache.page(dogs, tenant, query('rex'), ['name'], read(['{"name":"Rexy"}']));
  assert.deepEqual(after.items, ['{"name":"Rexy"}'], 'a write since: read again');
  assert.equal(reads(), 2);
  assert.deepEqual([cache.hits, cache.misses], [2, 2]);
});

test('every part of a search names its own answer: tenant, resource, text, filters, page and fields', async () => {
  const { cache, read, reads } = setUp();
  const asks: Array<Parameters<SearchCache['page']>> = [
    [dogs, tenant, query('rex'), ['name'], read([])],
    [dogs, other, query('rex'), ['name'], read([])],
    [owners, tenant, query('rex'), ['name'], read([])],
    [dogs, tenant, query('rexy'), ['name'], read([])],
    // A text with new lines and a filter's text in it is still its own search.
    [dogs, tenant, query('rex\nfurColor=["brown"]'), ['name'], read([])],
    [dogs, tenant, query('rex', 10), ['name'], read([])],
    [dogs, tenant, { ...query('rex'), limit: 5 }, ['name'], read([])],
    [dogs, tenant, query('rex'), ['name', 'id'], read([])],
    [dogs, tenant, { ...query('rex'), filters: [{ field: 'furColor', values: ['brown'] }] }, ['name'], read([])],
    [dogs, tenant, { ...query('rex'), filters: [{ field: 'furColor', values: ['black'] }] }, ['name'], read([])],
    [
      dogs,
      tenant,
      { ...query('rex'), related: { association: owners.associations.dogs!, parentId: 'o1' } },
      ['name'],
      read([]),
    ],
    [
      dogs,
      tenant,
      { ...query('rex'), related: { association: owners.associations.dogs!, parentId: 'o2' } },
      ['name'],
      read([]),
    ],
  ];
  for (const ask of asks) await cache.page(...ask);
  assert.equal(reads(), asks.length);
  for (const ask of asks) await cache.page(...ask);
  assert.equal(reads(), asks.length, 'each kept under its own name');
});

test('the public view is read every time: every tenant’s writes change it', async () => {
  const { cache, read, reads } = setUp();
  await cache.page(dogs, PUBLIC_SCOPE, query('rex'), ['name'], read([]));
  await cache.page(dogs, PUBLIC_SCOPE, query('rex'), ['name'], read([]));
  assert.equal(reads(), 2);
});

test('a kept answer is read again after ten seconds, for changes made outside the service', async () => {
  const { cache, clock, read, reads } = setUp();
  await cache.page(dogs, tenant, query('rex'), ['name'], read([]));
  clock.now = 10_000;
  await cache.page(dogs, tenant, query('rex'), ['name'], read([]));
  assert.equal(reads(), 1);
  clock.now = 10_001;
  await cache.page(dogs, tenant, query('rex'), ['name'], read([]));
  assert.equal(reads(), 2);
});

test('the least recently used answers go first when the kept characters pass the bound', async () => {
  const row = 'x'.repeat(100);
  // Room for two answers of one row (100 characters and 64 of overhead each).
  const { cache, read, reads } = setUp(400);
  await cache.page(dogs, tenant, query('a'), ['name'], read([row]));
  await cache.page(dogs, tenant, query('b'), ['name'], read([row]));
  await cache.page(dogs, tenant, query('a'), ['name'], read([row]));
  await cache.page(dogs, tenant, query('c'), ['name'], read([row]));
  assert.equal(reads(), 3);
  await cache.page(dogs, tenant, query('a'), ['name'], read([row]));
  assert.equal(reads(), 3, 'a was used last but one: kept');
  await cache.page(dogs, tenant, query('b'), ['name'], read([row]));
  assert.equal(reads(), 4, 'b was the least recently used: gone');
  // An answer larger than the whole bound is not kept at all.
  await cache.page(dogs, tenant, query('d'), ['name'], read(['y'.repeat(500)]));
  await cache.page(dogs, tenant, query('d'), ['name'], read(['y'.repeat(500)]));
  assert.equal(reads(), 6);
});

test('the hits of a kept search across resources are frozen: every request that reads them shares them', async () => {
  const { cache } = setUp();
  const item = { id: 'd1', name: 'Rex' };
  const answer = await cache.search(tenant, { q: 'rex', types: [dogs], limit: 10, offset: 0 }, async () => ({
    hits: [{ def: dogs, item }],
    hasMore: false,
  }));
  assert.ok(Object.isFrozen(answer.hits[0]!.item));
  assert.throws(() => {
    (item as Record<string, string>).name = 'Max';
  }, TypeError);
});

test('with nothing to keep (SEARCH_CACHE=off) every search is read, and no stamp', async () => {
  let stamps = 0;
  const cache = new SearchCache(() => String((stamps += 1)), 0);
  let reads = 0;
  const read = async (): Promise<JsonPage> => ({ items: [`{"n":${(reads += 1)}}`], hasMore: false });
  await cache.page(dogs, tenant, query('rex'), ['name'], read);
  await cache.page(dogs, tenant, query('rex'), ['name'], read);
  assert.deepEqual([reads, stamps, cache.hits, cache.misses], [2, 0, 0, 0]);
});

test('searches made at once under one stamp share one read; under another stamp, not', async () => {
  const { cache, stamps, read, reads } = setUp();
  const [first, second] = await Promise.all([
    cache.page(dogs, tenant, query('rex'), ['name'], read(['{"name":"Rex"}'])),
    cache.page(dogs, tenant, query('rex'), ['name'], read(['{"name":"other"}'])),
  ]);
  assert.equal(second, first);
  assert.equal(reads(), 1);
  stamps.set(tenant.tenantId, '1');
  const reading = cache.page(dogs, tenant, query('rex'), ['name'], read(['{"name":"Rex"}']));
  await Promise.resolve();
  stamps.set(tenant.tenantId, '2');
  const later = await cache.page(dogs, tenant, query('rex'), ['name'], read(['{"name":"Rexy"}']));
  assert.deepEqual(later.items, ['{"name":"Rexy"}'], 'a write after the first read began: read again');
  assert.deepEqual((await reading).items, ['{"name":"Rex"}']);
  assert.equal(reads(), 3);
});

test('a read that fails keeps nothing: the next search reads again', async () => {
  const { cache, read, reads } = setUp();
  const failing = () => Promise.reject(new Error('database gone'));
  await assert.rejects(cache.page(dogs, tenant, query('rex'), ['name'], failing), /database gone/);
  await cache.page(dogs, tenant, query('rex'), ['name'], read([]));
  assert.equal(reads(), 1);
});

test('a tenant’s stamp read is shared only while it waits to leave with its batch', async () => {
  let batch = {};
  const sent: string[] = [];
  const read = readOncePerBatch(
    async (tenantId) => {
      sent.push(tenantId);
      return String(sent.length);
    },
    () => batch,
  );
  const first = read('tenant-a');
  assert.equal(read('tenant-a'), first, 'the same batch: one read');
  assert.notEqual(read('tenant-b'), first, 'another tenant: its own read');
  batch = {};
  const later = read('tenant-a');
  assert.notEqual(later, first, 'the batch left: a search arriving now reads again');
  assert.deepEqual(sent, ['tenant-a', 'tenant-b', 'tenant-a']);
});
