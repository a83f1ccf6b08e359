import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build, type TestApp, createItem as create } from '../helper.js';

async function ids(api: TestApp, url: string): Promise<string[]> {
  const response = await api.request({ url });
  assert.equal(response.statusCode, 200, response.body);
  const [list] = Object.values(response.json()) as Array<Array<Record<string, { id: string }>>>;
  return list!.map((entry) => Object.values(entry)[0]!.id);
}

test('a dog points to an owner and a veterinarian, and eats foods written as foodIds', async (t) => {
  const api = await build(t);
  const owner = await create(api, 'owners', { name: 'Ann' });
  const vet = await create(api, 'veterinarians', { name: 'Dr. Lund' });
  const chow = await create(api, 'foods', { name: 'Chow' });
  const bits = await create(api, 'foods', { name: 'Bits' });
  const dog = await create(api, 'dogs', {
    name: 'Rex',
    ownerId: owner.id,
    veterinarianId: vet.id,
    foodIds: [chow.id, bits.id],
  });
  assert.equal(dog.ownerId, owner.id);
  assert.equal(dog.veterinarianId, vet.id);
  assert.equal('foodIds' in dog, false, 'foodIds is write-only');
  assert.deepEqual(await ids(api, `/v1/dogs/${dog.id}/foods`), [chow.id, bits.id]);
  assert.deepEqual(await ids(api, `/v1/foods/${chow.id}/dogs`), [dog.id]);
  assert.deepEqual(await ids(api, `/v1/owners/${owner.id}/dogs`), [dog.id]);
  assert.deepEqual(await ids(api, `/v1/veterinarians/${vet.id}/dogs`), [dog.id]);
});

test('a form body writes foodIds comma-separated, and a PUT replaces the whole set', async (t) => {
  const api = await build(t);
  const foods = [
    await create(api, 'foods', { name: 'A' }),
    await create(api, 'foods', { name: 'B' }),
    await create(api, 'foods', { name: 'C' }),
  ];
  const created = await api.request({
    method: 'POST',
    url: '/v1/dogs',
    form: { name: 'Rex', foodIds: `${foods[0]!.id}, ${foods[1]!.id}` },
  });
  const dog = created.json().dog;
  assert.deepEqual(await ids(api, `/v1/dogs/${dog.id}/foods`), [foods[0]!.id, foods[1]!.id]);
  await api.request({ method: 'PUT', url: `/v1/dogs/${dog.id}`, json: { foodIds: [foods[2]!.id] } });
  assert.deepEqual(await ids(api, `/v1/dogs/${dog.id}/foods`), [foods[2]!.id]);
  await api.request({ method: 'PUT', url: `/v1/dogs/${dog.id}`, json: { name: 'Max' } });
  assert.deepEqual(await ids(api, `/v1/dogs/${dog.id}/foods`), [foods[2]!.id], 'a PUT without foodIds keeps the set');
  await api.request({ method: 'PUT', url: `/v1/dogs/${dog.id}`, form: { foodIds: '' } });
  assert.deepEqual(await ids(api, `/v1/dogs/${dog.id}/foods`), []);
});

test('a reference to a missing id is a 400 naming it, and changes nothing', async (t) => {
  const api = await build(t);
  const food = await create(api, 'foods', { name: 'A' });
  const dog = await create(api, 'dogs', { name: 'Rex', foodIds: [food.id] });
  const cases: Array<[string, Record<string, unknown>, RegExp]> = [
    ['dogs', { name: 'X', ownerId: 'ghost1' }, /"ownerId" refers to owners "ghost1"/],
    ['dogs', { name: 'X', veterinarianId: 'ghost2' }, /"veterinarianId" refers to veterinarians "ghost2"/],
    ['dogs', { name: 'X', foodIds: [food.id, 'ghost3', 'ghost4'] }, /"foodIds" refers to foods "ghost3", "ghost4"/],
    ['owners', { name: 'X', veterinarianIds: ['ghost5'] }, /"veterinarianIds" refers to veterinarians "ghost5"/],
  ];
  for (const [resource, body, message] of cases) {
    const response = await api.request({ method: 'POST', url: `/v1/${resource}`, json: body });
    assert.equal(response.statusCode, 400);
    assert.equal(response.json().code, 3009);
    assert.match(response.json().message, message);
  }
  const put = await api.request({
    method: 'PUT',
    url: `/v1/dogs/${dog.id}`,
    json: { name: 'Max', foodIds: ['ghost'] },
  });
  assert.equal(put.statusCode, 400);
  assert.equal((await api.request({ url: `/v1/dogs/${dog.id}` })).json().dog.name, 'Rex');
  assert.deepEqual(await ids(api, `/v1/dogs/${dog.id}/foods`), [food.id]);
  assert.equal((await api.request({ url: '/v1/dogs/count' })).json().count, 1);
  const bad = await api.request({ method: 'POST', url: '/v1/dogs', json: { name: 'X', foodIds: 'not,a list' } });
  assert.equal(bad.statusCode, 400);
  const numbers = await api.request({ method: 'POST', url: '/v1/dogs', json: { name: 'X', foodIds: [1, 2] } });
  assert.equal(numbers.statusCode, 400);
  assert.equal(numbers.json().code, 3006);
  // SPEC §1: an array of strings in a JSON body, so not the form's comma-separated string, even of one id.
  const string = await api.request({ method: 'POST', url: '/v1/dogs', json: { name: 'X', foodIds: food.id } });
  assert.equal(string.statusCode, 400);
  assert.equal(string.json().code, 3006);
  const blank = await api.request({ method: 'POST', url: '/v1/dogs', json: { name: 'X', foodIds: ' ' } });
  assert.equal(blank.statusCode, 200, 'a blank value clears, as every optional field');
  await api.request({ method: 'DELETE', url: `/v1/dogs/${blank.json().dog.id}` });
  // SPEC §1: an array of strings in JSON; null or a blank entry is no id (a form's `a,,b` leaves the blank out).
  for (const foodIds of [[null], [null, ''], [food.id, ' ']]) {
    const holes = await api.request({ method: 'POST', url: '/v1/dogs', json: { name: 'X', foodIds } });
    assert.equal(holes.statusCode, 400, JSON.stringify(foodIds));
    assert.equal(holes.json().code, 3006);
    assert.match(holes.json().message, /"foodIds" must be a list of foods ids: a JSON array of strings/);
  }
  assert.equal((await api.request({ url: '/v1/dogs/count' })).json().count, 1);
});

test('deleting an owner or a veterinarian clears the references to it; deleting a food removes its links', async (t) => {
  const api = await build(t);
  const owner = await create(api, 'owners', { name: 'Ann' });
  const vet = await create(api, 'veterinarians', { name: 'Dr. Lund' });
  const food = await create(api, 'foods', { name: 'A' });
  const dog = await create(api, 'dogs', { name: 'Rex', ownerId: owner.id, veterinarianId: vet.id, foodIds: [food.id] });
  await api.request({ method: 'PUT', url: `/v1/owners/${owner.id}`, json: { veterinarianIds: [vet.id] } });
  assert.deepEqual(await ids(api, `/v1/owners/${owner.id}/veterinarians`), [vet.id]);
  await api.request({ method: 'DELETE', url: `/v1/veterinarians/${vet.id}` });
  assert.equal((await api.request({ url: `/v1/dogs/${dog.id}` })).json().dog.veterinarianId, null);
  assert.deepEqual(await ids(api, `/v1/owners/${owner.id}/veterinarians`), []);
  await api.request({ method: 'DELETE', url: `/v1/owners/${owner.id}` });
  assert.equal((await api.request({ url: `/v1/dogs/${dog.id}` })).json().dog.ownerId, null);
  await api.request({ method: 'DELETE', url: `/v1/foods/${food.id}` });
  assert.deepEqual(await ids(api, `/v1/dogs/${dog.id}/foods`), []);
  const food2 = await create(api, 'foods', { name: 'B' });
  await api.request({ method: 'PUT', url: `/v1/dogs/${dog.id}`, json: { foodIds: [food2.id] } });
  await api.request({ method: 'DELETE', url: `/v1/dogs/${dog.id}` });
  assert.deepEqual(await ids(api, `/v1/foods/${food2.id}/dogs`), []);
});
