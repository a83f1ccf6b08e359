// Scope as a tagged union: a tenant sees its rows, the public view every tenant's (lists and counts only).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dogs } from '../../src/resources/dogs.js';
import { foods } from '../../src/resources/foods.js';
import { PUBLIC_SCOPE, tenantScope, type Storage } from '../../src/storage/storage.js';
import { build } from '../helper.js';

const everything = { filters: [], limit: 100, offset: 0 };

test("a tenant scope lists and counts its own rows; the public view lists and counts every tenant's", async (t) => {
  const { storage } = await build(t);
  const a = tenantScope('tenant-a');
  const b = tenantScope('tenant-b');
  await storage.create(dogs, a, { name: 'Rex' });
  await storage.create(dogs, b, { name: 'Bella' });
  const names = async (scope: Parameters<Storage['list']>[1]) =>
    (await storage.list(dogs, scope, everything)).items.map((dog) => dog.name);
  assert.deepEqual(await names(a), ['Rex']);
  assert.deepEqual(await names(b), ['Bella']);
  assert.deepEqual(await names(PUBLIC_SCOPE), ['Rex', 'Bella']);
  assert.equal(await storage.count(dogs, a, { filters: [] }), 1);
  assert.equal(await storage.count(dogs, PUBLIC_SCOPE, { filters: [] }), 2);
  const json = await storage.listJson(dogs, PUBLIC_SCOPE, everything, ['name']);
  assert.deepEqual(json.items, ['{"name":"Rex"}', '{"name":"Bella"}']);
});

test("the public view follows a link table within each row's own tenant", async (t) => {
  const { storage } = await build(t);
  const a = tenantScope('tenant-a');
  const b = tenantScope('tenant-b');
  const kibble = await storage.create(foods, a, { name: 'Kibble' });
  await storage.create(dogs, a, { name: 'Rex', foodIds: [kibble.id!] });
  await storage.create(dogs, b, { name: 'Bella' });
  const related = { association: foods.associations.dogs!, parentId: kibble.id! };
  const viaPublic = await storage.list(dogs, PUBLIC_SCOPE, { ...everything, related });
  assert.deepEqual(
    viaPublic.items.map((dog) => dog.name),
    ['Rex'],
  );
  assert.equal(
    (await storage.list(dogs, b, { ...everything, related })).items.length,
    0,
    'another tenant does not reach the link',
  );
});

test('the compiler refuses the public view for writes, reads by id, related items, search and idempotency keys', async (t) => {
  const { storage } = await build(t);
  const key = { clientId: 'c', key: 'k', fingerprint: 'f' };
  // Each line below must stay a type error: if one compiles, `npm run typecheck` fails on its unused directive.
  const refused = [
    // @ts-expect-error a public scope cannot read by id
    () => storage.get(dogs, PUBLIC_SCOPE, 'x'),
    // @ts-expect-error a public scope cannot create
    () => storage.create(dogs, PUBLIC_SCOPE, { name: 'Rex' }),
    // @ts-expect-error a public scope cannot update
    () => storage.update(dogs, PUBLIC_SCOPE, 'x', { name: 'Rex' }),
    // @ts-expect-error a public scope cannot remove
    () => storage.remove(dogs, PUBLIC_SCOPE, 'x'),
    // @ts-expect-error a public scope cannot read related items
    () => storage.fetchRelated(dogs.associations.foods!, PUBLIC_SCOPE, ['x'], 1),
    // @ts-expect-error a public scope cannot search
    () => storage.search(PUBLIC_SCOPE, { q: 'rex', types: [dogs], limit: 1, offset: 0 }),
    // @ts-expect-error a public scope has no idempotency keys
    () => storage.claimIdempotencyKey(PUBLIC_SCOPE, key),
  ];
  assert.equal(refused.length, 7);
  // A tenant scope is a plain tagged record: two built apart are the same scope (no identity compared).
  const first = tenantScope('tenant-a');
  await storage.create(dogs, first, { name: 'Rex' });
  assert.equal((await storage.list(dogs, { kind: 'tenant', tenantId: 'tenant-a' }, everything)).items.length, 1);
});
