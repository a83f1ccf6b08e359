// Nested paths and association fields in the documents, and live nested answers that match the documented schemas.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build, type TestApp } from '../helper.js';
import {
  assertMatches,
  fetchDocument,
  jsonSchemaName,
  parameterNames,
  resolve,
  schemaValidators,
  type Json,
} from './document-helper.js';

async function create(api: TestApp, url: string, json: Json): Promise<Json> {
  const response = await api.request({ method: 'POST', url, json });
  assert.equal(response.statusCode, 201, `${url}: ${response.body}`);
  return Object.values(response.json())[0] as Json;
}

test('a nested list follows the collection rules of its target resource and can answer 404', async (t) => {
  const document = await fetchDocument(await build(t), 2);
  const cases: Array<[string, string]> = [
    ['/owners/{id}/dogs', 'dogs'],
    ['/owners/{id}/veterinarians', 'veterinarians'],
    ['/veterinarians/{id}/dogs', 'dogs'],
    ['/dogs/{id}/foods', 'foods'],
    ['/foods/{id}/dogs', 'dogs'],
  ];
  for (const [path, target] of cases) {
    const operation = document.paths[path].get;
    const names = parameterNames(document, path, operation);
    const own = [...document.paths[`/${target}`].get.parameters].map(
      (parameter: Json) => resolve(document, parameter).name,
    );
    for (const name of ['id', 'fields', 'limit', 'offset', 'sort', 'q', ...own.filter((name) => name !== 'method')])
      assert.ok(names.includes(name), `${path} takes ${name}`);
    const fields = operation.parameters.find((parameter: Json) => parameter.$ref?.endsWith('.fields'));
    assert.equal(fields.$ref, `#/components/parameters/${target}.fields`, `${path} selects fields of ${target}`);
    assert.equal(
      jsonSchemaName(document, operation.responses['200']),
      `${target.charAt(0).toUpperCase()}${target.slice(1)}List`,
      path,
    );
    assert.deepEqual(operation.responses['404'], { $ref: '#/components/responses/NotFound' }, path);
    assert.deepEqual(operation.security, [{ oauth2: ['read'] }, { accessToken: ['read'] }], path);
  }
  assert.equal(
    parameterNames(document, '/dogs/{id}/foods', document.paths['/dogs/{id}/foods'].get).includes('method'),
    false,
    'no override on a GET-only path',
  );
});

test('POST /owners/{id}/dogs takes the dog create body, answers 200 in v1 and 201 with Location in v2, and can answer 400 and 404', async (t) => {
  const api = await build(t);
  for (const version of [1, 2]) {
    const operation = (await fetchDocument(api, version)).paths['/owners/{id}/dogs'].post;
    assert.deepEqual(operation.requestBody.content['application/json'].schema, { $ref: '#/components/schemas/NewDog' });
    assert.deepEqual(operation.security, [{ oauth2: ['write'] }, { accessToken: ['write'] }]);
    assert.ok(operation.responses['400'] && operation.responses['404']);
    assert.ok(
      version === 1
        ? operation.responses['200'] && !operation.responses['201']
        : operation.responses['201'].headers.Location && /suppress/.test(operation.responses['200'].description),
    );
    assert.match(operation.description, /ownerId/);
  }
  const search = (await fetchDocument(api, 2)).paths['/owners/{id}/dogs/search'].get;
  assert.ok(search.parameters.some((parameter: Json) => parameter.$ref === '#/components/parameters/q.required'));
  const owner = await create(api, '/v2/owners', { name: 'Ann' });
  const live = await api.request({ method: 'POST', url: `/v2/owners/${owner.id}/dogs`, json: { name: 'Rex' } });
  assert.equal(live.statusCode, 201);
  assert.match(String(live.headers.location), /^http:\/\/api\.test\/v2\/dogs\/[\w-]+$/);
  assertMatches(schemaValidators(await fetchDocument(api, 2))('DogEnvelope'), live.json(), 'nested create');
  assert.equal(
    (
      await api.request({
        method: 'POST',
        url: `/v2/owners/${owner.id}/dogs`,
        json: { name: 'Rex', ownerId: 'someoneelse' },
      })
    ).statusCode,
    400,
  );
  assert.equal(
    (await api.request({ method: 'POST', url: '/v2/owners/nobody/dogs', json: { name: 'Rex' } })).statusCode,
    404,
  );
  assert.equal((await api.request({ url: `/v2/owners/${owner.id}/dogs/search` })).statusCode, 400, 'q is required');
});

test('association fields are in the item schemas and write-only id sets only in the bodies', async (t) => {
  const document = await fetchDocument(await build(t), 2);
  const { schemas } = document.components;
  const fields: Record<string, string[]> = {
    DogFields: ['owner', 'veterinarian', 'foods'],
    OwnerFields: ['dogs', 'veterinarians'],
    VeterinarianFields: ['dogs', 'owners'],
    FoodFields: ['dogs'],
  };
  for (const [item, names] of Object.entries(fields)) {
    for (const name of names)
      assert.match(schemas[item].properties[name].description, /only when fields names it/, `${item}.${name}`);
  }
  for (const [item, set] of [
    ['Dog', 'foodIds'],
    ['Owner', 'veterinarianIds'],
  ] as const) {
    for (const name of [item, `${item}Fields`, `${item}FieldsXml`])
      assert.equal(schemas[name].properties[set], undefined, `${name} has no ${set}`);
    for (const body of [`New${item}`, `${item}Changes`])
      assert.deepEqual(schemas[body].properties[set].type, ['array', 'null'], `${body}.${set}`);
  }
  const form = document.paths['/dogs'].post.requestBody.content['application/x-www-form-urlencoded'];
  assert.deepEqual(form.encoding, { foodIds: { style: 'form', explode: false } });
  const envelope = schemaValidators(document)('DogFieldsEnvelope');
  assert.equal(envelope({ dog: { name: 'Rex', foodIds: [] } }), false, 'an item never holds foodIds');
  assert.equal(envelope({ dog: { name: 'Rex', foods: [{ food: { name: 'Chow' } }], owner: null } }), true);
  assert.equal(
    envelope({ dog: { name: 'Rex', foods: [{ name: 'Chow' }] } }),
    false,
    'an association array is a list of envelopes',
  );
});

test('live answers with nested fields, four levels deep, and of nested paths match the documented schemas', async (t) => {
  const api = await build(t);
  const schemaFor = schemaValidators(await fetchDocument(api, 2));
  const vet = await create(api, '/v2/veterinarians', { name: 'Dr. Lund', clinic: 'Oslo Dyreklinikk' });
  const owner = await create(api, '/v2/owners', { name: 'Ann', email: 'ann@example.com', veterinarianIds: [vet.id] });
  const food = await create(api, '/v2/foods', { name: 'Puppy Chow', brand: 'Purina' });
  const dog = await create(api, `/v2/owners/${owner.id}/dogs`, {
    name: 'Rex',
    veterinarianId: vet.id,
    foodIds: [food.id],
  });
  await create(api, '/v2/dogs', { name: 'Stray' });
  const answers: Array<[string, string]> = [
    [
      `/v2/owners/${owner.id}?fields=name,dogs(name,foods(name,dogs(name,owner(name,email)))),veterinarians(name,owners(id))`,
      'OwnerFieldsEnvelope',
    ],
    ['/v2/dogs?fields=id,name,owner,veterinarian(clinic),foods', 'DogsList'],
    [`/v2/dogs/${dog.id}?fields=owner(dogs(veterinarian(owners(name))))`, 'DogFieldsEnvelope'],
    [`/v2/owners/${owner.id}/dogs?fields=name,foods(brand)`, 'DogsList'],
    [`/v2/owners/${owner.id}/veterinarians`, 'VeterinariansList'],
    [`/v2/veterinarians/${vet.id}/dogs?fields=name,owner`, 'DogsList'],
    [`/v2/dogs/${dog.id}/foods?fields=name,dogs(name)`, 'FoodsList'],
    [`/v2/foods/${food.id}/dogs`, 'DogsList'],
    [`/v2/owners/${owner.id}/dogs/search?q=rex&fields=name,owner(name)`, 'DogsList'],
    ['/v2/owners/nobody/dogs', 'Error'],
  ];
  for (const [url, schema] of answers) {
    const response = await api.request({ url });
    assertMatches(schemaFor(schema), response.json(), url);
  }
  const deep = (await api.request({ url: answers[0]![0] })).json();
  assert.equal(
    deep.owner.dogs[0].dog.foods[0].food.dogs[0].dog.owner.name,
    'Ann',
    'the answer really is four levels deep',
  );
  const stray = (await api.request({ url: '/v2/dogs?fields=name,owner&q=stray' })).json();
  assert.deepEqual(stray.dogs[0].dog, { name: 'Stray', owner: null });
});
