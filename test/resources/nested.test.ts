import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build, createItem as create } from '../helper.js';

test('nested collections follow the collection rules: filters, paging, sort, fields, Link', async (t) => {
  const api = await build(t);
  const owner = await create(api, 'owners', { name: 'Ann' });
  const other = await create(api, 'owners', { name: 'Bob' });
  for (const [name, furColor] of [
    ['Rex', 'brown'],
    ['Fido', 'black'],
    ['Bella', 'brown'],
  ])
    await create(api, 'dogs', { name, furColor, ownerId: owner.id });
  await create(api, 'dogs', { name: 'Other', furColor: 'brown', ownerId: other.id });
  const response = await api.request({
    url: `/v1/owners/${owner.id}/dogs?color=brown&fields=name&sort=name&limit=1`,
    headers: { prefer: 'count=exact' },
  });
  assert.equal(response.statusCode, 200);
  assert.deepEqual(response.json(), { dogs: [{ dog: { name: 'Bella' } }] });
  assert.equal(response.headers['x-total-count'], '2');
  assert.match(
    String(response.headers.link),
    new RegExp(`/v1/owners/${owner.id}/dogs\\?color=brown&fields=name&sort=name&limit=1&offset=1>; rel="next"`),
  );
  const xml = await api.request({ url: `/v1/owners/${owner.id}/dogs.xml?fields=name` });
  assert.match(
    xml.body,
    /<dogs><dog><name>Rex<\/name><\/dog><dog><name>Fido<\/name><\/dog><dog><name>Bella<\/name><\/dog><\/dogs>$/,
  );
});

test('a nested path of a missing parent is a 404; nothing deeper than resource/id/resource exists', async (t) => {
  const api = await build(t);
  const missing = await api.request({ url: '/v1/owners/ghost/dogs' });
  assert.equal(missing.statusCode, 404);
  assert.match(missing.json().message, /no owner with the id "ghost"/);
  const dog = await create(api, 'dogs', { name: 'Rex' });
  assert.equal((await api.request({ url: `/v1/dogs/${dog.id}/owner` })).statusCode, 404);
  assert.equal((await api.request({ url: `/v1/dogs/${dog.id}/foods/x/dogs` })).statusCode, 404);
  const post = await api.request({ method: 'POST', url: `/v1/veterinarians/x/dogs`, form: { name: 'Rex' } });
  assert.equal(post.statusCode, 400);
  assert.equal(post.headers.allow, 'GET, HEAD');
});

test('POST /owners/<id>/dogs creates a dog already owned; another ownerId in the body is a 400', async (t) => {
  const api = await build(t);
  const owner = await create(api, 'owners', { name: 'Ann' });
  const other = await create(api, 'owners', { name: 'Bob' });
  const created = await api.request({ method: 'POST', url: `/v2/owners/${owner.id}/dogs`, form: { name: 'Rex' } });
  assert.equal(created.statusCode, 201);
  const dog = created.json().dog;
  assert.equal(dog.ownerId, owner.id);
  assert.equal(created.headers.location, `${api.config.publicUrl}/v2/dogs/${dog.id}`);
  const same = await api.request({
    method: 'POST',
    url: `/v1/owners/${owner.id}/dogs`,
    json: { name: 'Fido', ownerId: owner.id },
  });
  assert.equal(same.statusCode, 200);
  const conflict = await api.request({
    method: 'POST',
    url: `/v1/owners/${owner.id}/dogs`,
    json: { name: 'Max', ownerId: other.id },
  });
  assert.equal(conflict.statusCode, 400);
  assert.equal(conflict.json().code, 3006);
  // A null or empty ownerId would clear the owner the path gives: it contradicts the path too.
  for (const request of [
    { json: { name: 'Max', ownerId: null } },
    { form: { name: 'Max', ownerId: '' } },
    { form: { name: 'Max', ownerId: '  ' } },
  ]) {
    const cleared = await api.request({ method: 'POST', url: `/v2/owners/${owner.id}/dogs`, ...request });
    assert.equal(cleared.statusCode, 400, JSON.stringify(request));
    assert.equal(cleared.json().code, 3006);
    assert.match(cleared.json().message, /^The body's "ownerId" is empty, but the path creates the dog for owner "/);
  }
  const ghost = await api.request({ method: 'POST', url: '/v1/owners/ghost/dogs', form: { name: 'Max' } });
  assert.equal(ghost.statusCode, 404);
  assert.equal((await api.request({ url: '/v1/dogs/count' })).json().count, 2);
});

test("/owners/<id>/dogs/search searches one owner's dogs and needs q", async (t) => {
  const api = await build(t);
  const owner = await create(api, 'owners', { name: 'Ann' });
  const other = await create(api, 'owners', { name: 'Bob' });
  await create(api, 'dogs', { name: 'Rex', ownerId: owner.id });
  await create(api, 'dogs', { name: 'Rexy', ownerId: other.id });
  await create(api, 'dogs', { name: 'Fido', ownerId: owner.id });
  const found = await api.request({ url: `/v1/owners/${owner.id}/dogs/search?q=rex` });
  assert.deepEqual(
    found.json().dogs.map((entry: { dog: { name: string } }) => entry.dog.name),
    ['Rex'],
  );
  const noQ = await api.request({ url: `/v1/owners/${owner.id}/dogs/search` });
  assert.equal(noQ.statusCode, 400);
  assert.equal(noQ.json().code, 2007);
});

test('nested fields select associations four levels deep, single and array, in JSON and XML', async (t) => {
  const api = await build(t);
  const vet = await create(api, 'veterinarians', { name: 'Dr. Lund', clinic: 'Klinikk' });
  const owner = await create(api, 'owners', { name: 'Ann', veterinarianIds: [vet.id] });
  const chow = await create(api, 'foods', { name: 'Chow', brand: 'Purina' });
  const rex = await create(api, 'dogs', { name: 'Rex', ownerId: owner.id, veterinarianId: vet.id, foodIds: [chow.id] });
  await create(api, 'dogs', { name: 'Stray' });
  const owned = await api.request({ url: `/v1/owners/${owner.id}?fields=name,dogs(name,foods(brand))` });
  assert.deepEqual(owned.json(), {
    owner: { name: 'Ann', dogs: [{ dog: { name: 'Rex', foods: [{ food: { brand: 'Purina' } }] } }] },
  });
  const xml = await api.request({ url: `/v1/owners/${owner.id}.xml?fields=name,dogs(name,foods(brand))` });
  assert.match(
    xml.body,
    /<owner><name>Ann<\/name><dogs><dog><name>Rex<\/name><foods><food><brand>Purina<\/brand><\/food><\/foods><\/dog><\/dogs><\/owner>$/,
  );
  const single = await api.request({ url: '/v1/dogs?fields=name,owner(name)&sort=name' });
  assert.deepEqual(single.json(), {
    dogs: [{ dog: { name: 'Rex', owner: { name: 'Ann' } } }, { dog: { name: 'Stray', owner: null } }],
  });
  const singleXml = await api.request({ url: `/v1/dogs/${rex.id}.xml?fields=owner(name)` });
  assert.match(singleXml.body, /<dog><owner><name>Ann<\/name><\/owner><\/dog>$/);
  const deep = await api.request({ url: `/v1/foods/${chow.id}?fields=dogs(owner(veterinarians(dogs(name))))` });
  assert.deepEqual(deep.json(), {
    food: { dogs: [{ dog: { owner: { veterinarians: [{ veterinarian: { dogs: [{ dog: { name: 'Rex' } }] } }] } } }] },
  });
  const tooDeep = await api.request({
    url: `/v1/foods/${chow.id}?fields=dogs(owner(veterinarians(dogs(owner(name)))))`,
  });
  assert.equal(tooDeep.statusCode, 400);
  assert.equal(tooDeep.json().code, 2004);
  const wrong = await api.request({ url: `/v1/owners/${owner.id}?fields=dogs(colour)` });
  assert.equal(wrong.statusCode, 400);
  assert.match(wrong.json().message, /"colour".*Valid fields of dogs: id, name, furColor/);
  const plain = await api.request({ url: `/v1/owners/${owner.id}?fields=dogs` });
  assert.equal(plain.json().owner.dogs[0].dog.id, rex.id);
  assert.equal(plain.json().owner.dogs[0].dog.furColor, null);
});

test('a nested array holds the first 100 associated items in creation order, for one parent or a page of them', async (t) => {
  const api = await build(t);
  const owner = await create(api, 'owners', { name: 'Ann' });
  for (let i = 0; i < 103; i += 1) await create(api, 'dogs', { name: `dog${i}`, ownerId: owner.id });
  const dogs = (await api.request({ url: `/v1/owners/${owner.id}?fields=dogs(name)` })).json().owner.dogs;
  assert.equal(dogs.length, 100);
  assert.equal(dogs[0].dog.name, 'dog0');
  assert.equal(dogs[99].dog.name, 'dog99');
  // A page of several owners loads their dogs in one query, still at most 100 each, in order.
  const other = await create(api, 'owners', { name: 'Bo' });
  for (let i = 0; i < 101; i += 1) await create(api, 'dogs', { name: `bo${i}`, ownerId: other.id });
  const page = (await api.request({ url: '/v1/owners?fields=name,dogs(name)' })).json().owners;
  assert.deepEqual(
    page.map((entry: { owner: { name: string; dogs: unknown[] } }) => [entry.owner.name, entry.owner.dogs.length]),
    [
      ['Ann', 100],
      ['Bo', 100],
    ],
  );
  assert.equal(page[0].owner.dogs[99].dog.name, 'dog99');
  assert.equal(page[1].owner.dogs[99].dog.name, 'bo99');
});

test('an item that several items on the page reach is in each of their nested arrays once, at every depth', async (t) => {
  const api = await build(t);
  const ann = await create(api, 'owners', { name: 'Ann' });
  const chow = await create(api, 'foods', { name: 'Chow' });
  for (const name of ['Rex', 'Max', 'Bo']) await create(api, 'dogs', { name, ownerId: ann.id, foodIds: [chow.id] });
  type Dog = { dog: { name: string; owner: { dogs: Dog[] } } };
  const names = (dogs: Dog[]) => dogs.map((entry) => entry.dog.name);
  // Three dogs reach Ann: her dogs are read for Ann once, not once per dog (PostgreSQL repeated them).
  const page = (await api.request({ url: '/v2/dogs?fields=name,owner(name,dogs(name))' })).json().dogs as Dog[];
  for (const entry of page) assert.deepEqual(names(entry.dog.owner.dogs), ['Rex', 'Max', 'Bo']);
  const deep = await api.request({ url: '/v2/dogs?fields=owner(dogs(owner(dogs(name))))&limit=2' });
  assert.equal(deep.statusCode, 200);
  for (const entry of deep.json().dogs as Dog[])
    for (const dog of entry.dog.owner.dogs) assert.deepEqual(names(dog.dog.owner.dogs), ['Rex', 'Max', 'Bo']);
  // Many to many: Chow's dogs, reached from three dogs.
  const foods = await api.request({ url: '/v2/dogs?fields=foods(name,dogs(name))' });
  for (const entry of foods.json().dogs as Array<{ dog: { foods: Array<{ food: { dogs: Dog[] } }> } }>)
    assert.deepEqual(names(entry.dog.foods[0]!.food.dogs), ['Rex', 'Max', 'Bo']);
});

test('an answer holds at most 50,000 nested items as written, and 16 million characters: past that a 400 (2011)', async (t) => {
  const api = await build(t);
  const ann = await create(api, 'owners', { name: 'Ann' });
  for (let i = 0; i < 100; i += 1) await create(api, 'dogs', { name: `dog${i}`, ownerId: ann.id });
  // 100 owners and 100 × 100 dogs written: 10,100.
  const wide = await api.request({ url: '/v2/dogs?limit=100&fields=name,owner(dogs(name))' });
  assert.equal(wide.statusCode, 200);
  const page = wide.json().dogs as Array<{ dog: { owner: { dogs: unknown[] } } }>;
  assert.equal(page.length, 100);
  assert.ok(page.every((entry) => entry.dog.owner.dogs.length === 100));
  // Two levels more: 10,000 owners again, and a million dogs under them.
  const deep = await api.request({ url: '/v2/dogs?limit=100&fields=owner(dogs(owner(dogs(name))))' });
  assert.equal(deep.statusCode, 400);
  assert.equal(deep.json().code, 2011);
  assert.match(deep.json().message, /more than 50,000 nested items/);
  // The same selection over fewer dogs is within the cap: 4 + 400 + 400 + 40,000.
  const few = await api.request({ url: '/v2/dogs?limit=4&fields=owner(dogs(owner(dogs(name))))' });
  assert.equal(few.statusCode, 200);
});

test("the characters nested items write count too, a quote as XML's six: fewer fields fit", async (t) => {
  const api = await build(t);
  const chow = await create(api, 'foods', { name: 'Chow' });
  const quotes = '"'.repeat(100);
  for (let i = 0; i < 100; i += 1)
    await create(api, 'dogs', { name: quotes, furColor: quotes, location: quotes, foodIds: [String(chow.id)] });
  // 10,100 items, each of the 10,000 dogs under Chow about 1,900 characters in XML: past 16 million.
  const whole = await api.request({ url: '/v2/dogs.xml?limit=100&fields=foods(dogs)' });
  assert.equal(whole.statusCode, 400);
  assert.match(whole.body, /<code>2011<\/code>/);
  // Their names alone (about 640 each) are within it.
  const names = await api.request({ url: '/v2/dogs.xml?limit=100&fields=foods(dogs(name))' });
  assert.equal(names.statusCode, 200);
  assert.equal(names.body.split('<dog>').length - 1, 100 + 100 * 100);
});

test('loading associations is batched: a page of owners with dogs(foods) takes the same number of queries for 2 or 10 owners', async (t) => {
  async function queriesFor(owners: number): Promise<number> {
    const api = await build(t);
    const { storage } = api;
    const food = await create(api, 'foods', { name: 'Chow' });
    for (let i = 0; i < owners; i += 1) {
      const owner = await create(api, 'owners', { name: `owner${i}` });
      for (let j = 0; j < 3; j += 1)
        await create(api, 'dogs', { name: `dog${i}-${j}`, ownerId: owner.id, foodIds: [food.id] });
    }
    const before = storage.queryCount;
    const response = await api.request({ url: '/v1/owners?limit=10&fields=name,dogs(name,foods(name))' });
    assert.equal(response.json().owners.length, owners);
    assert.equal(response.json().owners[0].owner.dogs[0].dog.foods[0].food.name, 'Chow');
    return storage.queryCount - before;
  }
  const few = await queriesFor(2);
  const many = await queriesFor(10);
  assert.equal(many, few);
  assert.ok(few <= 4, `${few} queries: the page, dogs, foods`);
});
