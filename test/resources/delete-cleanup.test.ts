// Deleting an item clears every reference to it, derived from the ref and refs fields of every definition (both backends).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { foods } from '../../src/resources/foods.js';
import type { TenantScope } from '../../src/storage/storage.js';
import { build, createItem as create, type TestApp } from '../helper.js';
import { rowsHolding } from '../raw-sql.js';

async function ids(api: TestApp, url: string): Promise<string[]> {
  const response = await api.request({ url });
  assert.equal(response.statusCode, 200, response.body);
  const [list] = Object.values(response.json()) as Array<Array<Record<string, { id: string }>>>;
  return list!.map((entry) => Object.values(entry)[0]!.id);
}

async function remove(api: TestApp, resource: string, id: string | null): Promise<void> {
  const response = await api.request({ method: 'DELETE', url: `/v1/${resource}/${id}` });
  assert.equal(response.statusCode, 200, response.body);
  assert.equal(response.body, '');
}

test('deleting a food deletes the dog_foods rows that hold it, and no other', async (t) => {
  const api = await build(t);
  const chow = await create(api, 'foods', { name: 'Chow' });
  const bits = await create(api, 'foods', { name: 'Bits' });
  const rex = await create(api, 'dogs', { name: 'Rex', foodIds: [chow.id, bits.id] });
  const max = await create(api, 'dogs', { name: 'Max', foodIds: [chow.id] });
  assert.equal(await rowsHolding(api.storage, 'dog_foods', 'food_id', chow.id), 2);

  await remove(api, 'foods', chow.id);
  assert.equal(await rowsHolding(api.storage, 'dog_foods', 'food_id', chow.id), 0);
  assert.equal(await rowsHolding(api.storage, 'dog_foods', 'food_id', bits.id), 1);
  assert.deepEqual(await ids(api, `/v1/dogs/${rex.id}/foods`), [bits.id]);
  assert.deepEqual(await ids(api, `/v1/dogs/${max.id}/foods`), []);

  await remove(api, 'dogs', rex.id);
  assert.equal(await rowsHolding(api.storage, 'dog_foods', 'dog_id', rex.id), 0, 'a dog takes its own set with it');
  assert.deepEqual(await ids(api, `/v1/foods/${bits.id}/dogs`), []);
});

test("deleting a veterinarian deletes its owner_veterinarians rows and sets the dogs' veterinarianId to null", async (t) => {
  const api = await build(t);
  const lund = await create(api, 'veterinarians', { name: 'Dr. Lund' });
  const berg = await create(api, 'veterinarians', { name: 'Dr. Berg' });
  const owner = await create(api, 'owners', { name: 'Ann', veterinarianIds: [lund.id, berg.id] });
  const rex = await create(api, 'dogs', { name: 'Rex', ownerId: owner.id, veterinarianId: lund.id });
  const max = await create(api, 'dogs', { name: 'Max', veterinarianId: berg.id });

  await remove(api, 'veterinarians', lund.id);
  assert.equal(await rowsHolding(api.storage, 'owner_veterinarians', 'veterinarian_id', lund.id), 0);
  assert.deepEqual(await ids(api, `/v1/owners/${owner.id}/veterinarians`), [berg.id]);
  const rexNow = (await api.request({ url: `/v1/dogs/${rex.id}` })).json().dog;
  assert.deepEqual(rexNow, { ...rex, veterinarianId: null, updatedAt: rexNow.updatedAt });
  assert.equal(
    (await api.request({ url: `/v1/dogs/${max.id}` })).json().dog.veterinarianId,
    berg.id,
    'other dogs keep theirs',
  );
  assert.equal(await rowsHolding(api.storage, 'dogs', 'veterinarian_id', lund.id), 0);
});

test('the cleanup follows the refs fields, not the associations: a link table only the other side declares still loses its rows', async (t) => {
  const api = await build(t);
  const chow = await create(api, 'foods', { name: 'Chow' });
  await create(api, 'dogs', { name: 'Rex', foodIds: [chow.id] });
  // foods as if it declared no association back to dogs: only dogs.foodIds says dog_foods holds food ids.
  const withoutAssociations = { ...foods, associations: {} };
  const scope: TenantScope = { kind: 'tenant', tenantId: api.credentials.tenantId };
  assert.equal(await api.storage.remove(withoutAssociations, scope, chow.id!), true);
  assert.equal(await rowsHolding(api.storage, 'dog_foods', 'food_id', chow.id), 0);
  assert.equal(await api.storage.remove(withoutAssociations, scope, chow.id!), false, 'a second delete finds nothing');
});
