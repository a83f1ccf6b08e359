import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build } from '../helper.js';

const cases = [
  {
    name: 'owners',
    singular: 'owner',
    create: { name: 'Ann', email: 'ann@example.com', location: 'Oslo' },
    filter: ['location', 'OSLO'],
    fields: ['id', 'name', 'email', 'location', 'createdAt', 'updatedAt'],
  },
  {
    name: 'veterinarians',
    singular: 'veterinarian',
    create: { name: 'Dr. Lund', clinic: 'Dyreklinikken', location: 'Bergen' },
    filter: ['clinic', 'dyreklinikken'],
    fields: ['id', 'name', 'clinic', 'location', 'createdAt', 'updatedAt'],
  },
  {
    name: 'foods',
    singular: 'food',
    create: { name: 'Puppy Chow', brand: 'Purina' },
    filter: ['brand', 'PURINA'],
    fields: ['id', 'name', 'brand', 'createdAt', 'updatedAt'],
  },
] as const;

for (const resource of cases) {
  test(`${resource.name} have the five operations and count, from their definition`, async (t) => {
    const api = await build(t);
    const created = await api.request({ method: 'POST', url: `/v2/${resource.name}`, form: resource.create });
    assert.equal(created.statusCode, 201);
    const item = created.json()[resource.singular];
    assert.deepEqual(Object.keys(item), resource.fields);
    assert.equal(created.headers.location, `${api.config.publicUrl}/v2/${resource.name}/${item.id}`);
    assert.deepEqual((await api.request({ url: `/v1/${resource.name}/${item.id}` })).json(), {
      [resource.singular]: item,
    });
    const list = await api.request({ url: `/v1/${resource.name}?${resource.filter[0]}=${resource.filter[1]}` });
    assert.deepEqual(list.json(), { [resource.name]: [{ [resource.singular]: item }] });
    const xml = await api.request({ url: `/v1/${resource.name}.xml` });
    assert.match(xml.body, new RegExp(`<${resource.name}><${resource.singular}><id>${item.id}</id>`));
    assert.deepEqual((await api.request({ url: `/v1/${resource.name}/count?${resource.filter[0]}=nomatch` })).json(), {
      count: 0,
    });
    const put = await api.request({ method: 'PUT', url: `/v1/${resource.name}/${item.id}`, json: { name: 'Renamed' } });
    assert.equal(put.json()[resource.singular].name, 'Renamed');
    const unknown = await api.request({
      method: 'PUT',
      url: `/v1/${resource.name}/${item.id}`,
      json: { furColor: 'x' },
    });
    assert.equal(unknown.statusCode, 400);
    assert.equal(unknown.json().code, 3003);
    assert.equal((await api.request({ method: 'DELETE', url: `/v1/${resource.name}/${item.id}` })).statusCode, 200);
    assert.equal((await api.request({ url: `/v1/${resource.name}/${item.id}` })).statusCode, 404);
  });
}

test('an owner email must be an address; blank clears it', async (t) => {
  const api = await build(t);
  const bad = await api.request({ method: 'POST', url: '/v1/owners', form: { name: 'Ann', email: 'not-an-address' } });
  assert.equal(bad.statusCode, 400);
  assert.equal(bad.json().code, 3007);
  const owner = (
    await api.request({ method: 'POST', url: '/v1/owners', form: { name: 'Ann', email: ' ann@example.com ' } })
  ).json().owner;
  assert.equal(owner.email, 'ann@example.com');
  const cleared = await api.request({ method: 'PUT', url: `/v1/owners/${owner.id}`, form: { email: '' } });
  assert.equal(cleared.json().owner.email, null);
});

test('text is trimmed before its one-line check: a line break at an end goes, one inside is a 400', async (t) => {
  const api = await build(t);
  const trimmed = await api.request({
    method: 'POST',
    url: '/v2/dogs',
    json: { name: '\tRex\r\n', location: ' Oslo\n' },
  });
  assert.equal(trimmed.statusCode, 201, trimmed.body);
  assert.equal(trimmed.json().dog.name, 'Rex');
  assert.equal(trimmed.json().dog.location, 'Oslo');
  for (const name of ['Re\nx', 'Re\tx', 'Rex\r\nMax']) {
    const refused = await api.request({ method: 'POST', url: '/v2/dogs', json: { name } });
    assert.equal(refused.statusCode, 400, JSON.stringify(name));
    assert.equal(refused.json().code, 3006);
    assert.match(refused.json().message, /"name" contains a control character \(a tab or a line break\)/);
  }
  assert.equal((await api.request({ url: '/v2/dogs/count' })).json().count, 1);
});

test('write-only id sets are not fields of a representation', async (t) => {
  const api = await build(t);
  const response = await api.request({ url: '/v1/owners?fields=veterinarianIds' });
  assert.equal(response.statusCode, 400);
  assert.match(
    response.json().message,
    /Valid fields of owners: id, name, email, location, createdAt, updatedAt, dogs, veterinarians/,
  );
});
