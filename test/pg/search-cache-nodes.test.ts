// Two nodes on one PostgreSQL: a write on one shows in the other's next search of a text it keeps the answer of, since
// the answer is kept under the tenant's write stamp, which the write moves in the database (storage/search-cache.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dogs } from '../../src/resources/dogs.js';
import { resources } from '../../src/resources/index.js';
import type { PostgresStorage } from '../../src/storage/postgres/postgres-storage.js';
import type { ListQuery, TenantScope } from '../../src/storage/storage.js';
import { skipWithoutPostgres as skip, twoNodesFor } from './databases.js';

const scope: TenantScope = { kind: 'tenant', tenantId: 'tenant-a' };
const query: ListQuery = { q: 'rex', filters: [], limit: 10, offset: 0 };

/** The names of a node's page of `rex`, as JSON texts of the name. */
async function page(node: PostgresStorage): Promise<string[]> {
  return (await node.listJson(dogs, scope, query, ['name'])).items;
}

async function searched(node: PostgresStorage): Promise<string[]> {
  const { hits } = await node.search(scope, { q: 'rex', types: resources, limit: 10, offset: 0 });
  return hits.map(({ item }) => String(item.name));
}

test("a write on one node shows in the other node's next search, each kind of write", { skip }, async (t) => {
  const [first, second] = await twoNodesFor(t);
  const rex = await second.create(dogs, scope, { name: 'Rex' });
  assert.deepEqual(await page(first), ['{"name":"Rex"}']);
  assert.deepEqual(await searched(first), ['Rex']);
  assert.deepEqual(await page(first), ['{"name":"Rex"}']);
  assert.deepEqual(await searched(first), ['Rex']);
  assert.equal(first.searchCache.hits, 2, 'kept while nothing was written');

  const rexy = await second.create(dogs, scope, { name: 'Rexy' });
  assert.deepEqual(await page(first), ['{"name":"Rex"}', '{"name":"Rexy"}'], 'a create on the other node');
  assert.deepEqual(await searched(first), ['Rex', 'Rexy']);
  await second.update(dogs, scope, rexy.id as string, { name: 'Max' });
  assert.deepEqual(await page(first), ['{"name":"Rex"}'], 'an update on the other node');
  assert.deepEqual(await searched(first), ['Rex']);
  await second.remove(dogs, scope, rex.id as string);
  assert.deepEqual(await page(first), [], 'a delete on the other node');
  assert.deepEqual(await searched(first), []);
  assert.equal(first.searchCache.hits, 2);
});

test('a create committed while a search reads is never served as kept under the newer stamp', { skip }, async (t) => {
  const [first, second] = await twoNodesFor(t);
  await second.create(dogs, scope, { name: 'Rex' });
  // Creates on the other node race the first node's searches: each search either sees a create or reads again after
  // it, so that once they all settle, the next search has every dog.
  const names = Array.from({ length: 20 }, (_, n) => `Rex ${n}`);
  const all = () => first.listJson(dogs, scope, { ...query, limit: 50 }, ['name']);
  await Promise.all([...names.map((name) => second.create(dogs, scope, { name })), ...names.map(all)]);
  // Kept or read, the answer after the last create holds every dog; then it is kept.
  assert.equal((await all()).items.length, 21);
  const hits = first.searchCache.hits;
  assert.equal((await all()).items.length, 21);
  assert.equal(first.searchCache.hits, hits + 1);
});

test('searches of one tenant made in one turn read its stamp once, in one statement', { skip }, async (t) => {
  const [node] = await twoNodesFor(t);
  await node.create(dogs, scope, { name: 'Rex' });
  await node.create(dogs, scope, { name: 'Max' });
  const texts = ['rex', 'max', 're', 'ma'];
  const pages = () => Promise.all(texts.map((q) => node.listJson(dogs, scope, { ...query, q }, ['name'])));
  await pages();
  const { batcher } = (node as unknown as { db: { batcher: { batches: number } } }).db;
  const [statements, batches] = [node.queryCount, batcher.batches];
  const kept = await pages();
  assert.equal(node.queryCount - statements, 1, 'one statement for the four kept pages');
  assert.equal(batcher.batches - batches, 0, 'and one stamp read in it, not a batch of four');
  assert.deepEqual(
    kept.map((page) => page.items),
    [['{"name":"Rex"}'], ['{"name":"Max"}'], ['{"name":"Rex"}'], ['{"name":"Max"}']],
  );
  // A write, then the same searches: the stamp is read again (after the write's answer), and the pages see it.
  await node.create(dogs, scope, { name: 'Rexy' });
  const after = await pages();
  assert.deepEqual(after[0]!.items, ['{"name":"Rex"}', '{"name":"Rexy"}']);
});
