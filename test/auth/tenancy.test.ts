import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build, newAccount, createItem as create } from '../helper.js';

test("another tenant's ids answer exactly like missing ones, on every route", async (t) => {
  const api = await build(t);
  const vet = await create(api, 'veterinarians', { name: 'Dr. Lund', clinic: 'Klinikk' });
  const owner = await create(api, 'owners', { name: 'Ann Rex', veterinarianIds: [vet.id] });
  const food = await create(api, 'foods', { name: 'Rex Chow', brand: 'Purina' });
  const dog = await create(api, 'dogs', {
    name: 'Rex',
    ownerId: owner.id,
    veterinarianId: vet.id,
    foodIds: [food.id],
    state: 'adoptable',
  });
  const other = await newAccount(api.app, api.storage);
  const ids: Record<string, string> = { dogs: dog.id!, owners: owner.id!, veterinarians: vet.id!, foods: food.id! };

  const itemPaths = Object.entries(ids).map(([resource, id]) => `/v1/${resource}/${id}`);
  const nestedPaths = [
    `/v1/owners/${owner.id}/dogs`,
    `/v1/owners/${owner.id}/veterinarians`,
    `/v1/veterinarians/${vet.id}/dogs`,
    `/v1/dogs/${dog.id}/foods`,
    `/v1/foods/${food.id}/dogs`,
    `/v1/owners/${owner.id}/dogs/search?q=rex`,
  ];
  for (const url of [...itemPaths, ...nestedPaths]) {
    const theirs = await api.request({ url, token: other.token });
    const missing = await api.request({
      url: url.replace(/\/v1\/(\w+)\/[\w-]+/, '/v1/$1/AAAAAAAAAAAAAAAAAAAAAA'),
      token: other.token,
    });
    assert.equal(theirs.statusCode, 404, url);
    assert.equal(theirs.json().code, missing.json().code, url);
    assert.equal(
      theirs.json().message.replace(/"[\w-]+"/, '"<id>"'),
      missing.json().message.replace(/"[\w-]+"/, '"<id>"'),
      url,
    );
  }
  for (const url of itemPaths) {
    for (const request of [{ method: 'PUT' as const, json: { name: 'Hacked' } }, { method: 'DELETE' as const }]) {
      assert.equal(
        (await api.request({ ...request, url, token: other.token })).statusCode,
        404,
        `${request.method} ${url}`,
      );
    }
    assert.equal((await api.request({ url: `${url}?method=delete`, token: other.token })).statusCode, 404);
  }
  assert.equal(
    (await api.request({ method: 'POST', url: `/v1/owners/${owner.id}/dogs`, form: { name: 'X' }, token: other.token }))
      .statusCode,
    404,
  );

  for (const resource of Object.keys(ids)) {
    assert.deepEqual((await api.request({ url: `/v1/${resource}`, token: other.token })).json(), { [resource]: [] });
    assert.deepEqual((await api.request({ url: `/v1/${resource}/count`, token: other.token })).json(), { count: 0 });
    assert.deepEqual((await api.request({ url: `/v1/${resource}?q=rex`, token: other.token })).json(), {
      [resource]: [],
    });
  }
  assert.deepEqual((await api.request({ url: '/v1/search?q=rex', token: other.token })).json(), { results: [] });

  for (const [resource, body] of [
    ['dogs', { name: 'Mine', ownerId: owner.id }],
    ['dogs', { name: 'Mine', veterinarianId: vet.id }],
    ['dogs', { name: 'Mine', foodIds: [food.id] }],
    ['owners', { name: 'Mine', veterinarianIds: [vet.id] }],
  ] as const) {
    const response = await api.request({ method: 'POST', url: `/v1/${resource}`, json: body, token: other.token });
    assert.equal(response.statusCode, 400, JSON.stringify(body));
    assert.equal(response.json().code, 3009);
  }

  // Their own items never reach into ours through fields expansions either.
  const theirDog = await create(api, 'dogs', { name: 'Theirs' }, other.token);
  const expanded = await api.request({
    url: `/v1/dogs/${theirDog.id}?fields=name,owner(name),foods(name)`,
    token: other.token,
  });
  assert.deepEqual(expanded.json(), { dog: { name: 'Theirs', owner: null, foods: [] } });
  // And everything of the first tenant is still there, unchanged.
  assert.equal((await api.request({ url: `/v1/dogs/${dog.id}` })).json().dog.name, 'Rex');
  assert.deepEqual((await api.request({ url: `/v1/owners/${owner.id}?fields=dogs(name)` })).json(), {
    owner: { dogs: [{ dog: { name: 'Rex' } }] },
  });
});
