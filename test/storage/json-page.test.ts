// Storage.listJson: the JSON texts a backend writes for a page are exactly what JSON.stringify writes for the same items.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { representedFields, type Item } from '../../src/resources/definition.js';
import { dogs } from '../../src/resources/dogs.js';
import { owners } from '../../src/resources/owners.js';
import { toJson } from '../../src/representation/json.js';
import { JsonList } from '../../src/representation/json-list.js';
import { listDocument } from '../../src/representation/document.js';
import { defaultSelection } from '../../src/query/selection.js';
import { jsonPage } from '../../src/storage/items.js';
import { SqliteStorage } from '../../src/storage/sqlite/sqlite-storage.js';
import { AWKWARD, picked } from './json-texts.js';
import type { ListQuery, TenantScope } from '../../src/storage/storage.js';

const scope: TenantScope = { kind: 'tenant', tenantId: 'tenant-a' };
const everything: ListQuery = { filters: [], limit: 100, offset: 0 };

async function storage(t: TestContext): Promise<SqliteStorage> {
  const store = new SqliteStorage(':memory:');
  await store.migrate();
  t.after(() => store.close());
  return store;
}

test('SQLite writes each item exactly as JSON.stringify does, for every character class and null', async (t) => {
  const store = await storage(t);
  for (const text of AWKWARD) await store.create(dogs, scope, { name: `n${text}`, furColor: text, location: null });
  const { items } = await store.list(dogs, scope, everything);
  for (const fields of [representedFields(dogs), ['location', 'name', 'id'], ['furColor']]) {
    const page = await store.listJson(dogs, scope, everything, fields);
    assert.deepEqual(
      page.items,
      items.map((item) => picked(item, fields)),
      `fields ${fields.join(',')}`,
    );
    assert.equal(page.hasMore, false);
  }
});

test('listJson pages like list: same order, limit, offset, hasMore, filters and search', async (t) => {
  const store = await storage(t);
  for (const name of ['Rex', 'Bella', 'Rexy', 'Max', 'Rex II'])
    await store.create(dogs, scope, { name, furColor: name.length > 3 ? 'black' : 'brown' });
  await store.create(dogs, { kind: 'tenant', tenantId: 'tenant-b' } as const, { name: 'Rex of another tenant' });
  const queries: ListQuery[] = [
    { filters: [], limit: 2, offset: 0 },
    { filters: [], limit: 2, offset: 4 },
    { filters: [{ field: 'furColor', values: ['black'] }], limit: 10, offset: 0 },
    { filters: [], q: 'rex', limit: 10, offset: 0 },
    { filters: [], sort: { field: 'name', descending: true }, limit: 3, offset: 1 },
  ];
  const fields = representedFields(dogs);
  for (const query of queries) {
    const page = await store.list(dogs, scope, query);
    assert.ok(page.items.length > 0, `${JSON.stringify(query)} finds dogs`);
    assert.deepEqual(await store.listJson(dogs, scope, query, fields), jsonPage(page, fields), JSON.stringify(query));
  }
  assert.deepEqual(
    await store.listJson(dogs, scope, { filters: [], q: '!!!', limit: 10, offset: 0 }, fields),
    { items: [], hasMore: false },
    'a q without words matches nothing',
  );
});

test('jsonPage writes the fields of items read with exactly them, with more, in another order, or without a value', () => {
  const fields = ['id', 'name', 'furColor'];
  const shapes: Item[][] = [
    AWKWARD.map((text, index) => ({ id: `id${index}`, name: text, furColor: null })),
    AWKWARD.map((text, index) => ({ id: `id${index}`, name: text, furColor: 'brown', location: text })),
    AWKWARD.map((text, index) => ({ name: text, id: `id${index}`, furColor: text })),
    AWKWARD.map((text, index) => ({ id: `id${index}`, name: text, furColor: undefined as unknown as null })),
    AWKWARD.map((text, index) => ({ id: `id${index}`, name: text })),
    // Each item is judged by its own shape, not by the first's.
    AWKWARD.map((text, index) => ({
      id: `id${index}`,
      name: text,
      furColor: index === 0 ? text : (undefined as unknown as null),
    })),
  ];
  for (const items of shapes) {
    const page = jsonPage({ items, hasMore: true }, fields);
    // A field without a value is written as null.
    const expected = items.map((item) => picked({ ...item, furColor: item.furColor ?? null }, fields));
    assert.deepEqual(page, { items: expected, hasMore: true }, JSON.stringify(items[0]));
  }
  assert.deepEqual(jsonPage({ items: [], hasMore: false }, fields), { items: [], hasMore: false });
});

test('a field name that is not an identifier never reaches the SQL text', async (t) => {
  const store = await storage(t);
  await assert.rejects(store.listJson(owners, scope, everything, ["name', 1, 'x"]), /not a field name/);
});

test('the JSON serializer splices a JsonList into the same bytes as the list document it stands for', () => {
  const items: Item[] = AWKWARD.map((text, index) => ({ id: `id${index}`, name: text, furColor: null }));
  for (const count of [0, 1, items.length]) {
    const shown = items.slice(0, count);
    const list = new JsonList(
      'dogs',
      'dog',
      shown.map((item) => JSON.stringify(item)),
    );
    const document = listDocument('dogs', 'dog', shown, defaultSelection(dogs));
    assert.equal(toJson(list), JSON.stringify(document), `${count} items`);
    assert.deepEqual(list.document(), document, 'other formats read the texts back into the same document');
  }
});
