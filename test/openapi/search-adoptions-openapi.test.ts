// GET /search and the open GET /adoptions in the documents, and live answers that match what they document.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build } from '../helper.js';
import {
  assertMatches,
  fetchDocument,
  jsonSchemaName,
  parameterNames,
  resolve,
  schemaValidators,
  type Json,
} from './document-helper.js';

test('GET /search requires q, takes limit, offset and types but no fields, and answers the results envelope', async (t) => {
  const document = await fetchDocument(await build(t), 2);
  const operation = document.paths['/search'].get;
  assert.deepEqual(Object.keys(document.paths['/search']).sort(), ['get', 'options', 'parameters']);
  const names = parameterNames(document, '/search', operation);
  for (const name of ['q', 'limit', 'offset', 'types']) assert.ok(names.includes(name), name);
  for (const name of ['fields', 'sort', 'method']) assert.equal(names.includes(name), false, name);
  const q = operation.parameters
    .map((parameter: Json) => resolve(document, parameter))
    .find((parameter: Json) => parameter.name === 'q');
  assert.equal(q.required, true);
  const types = document.components.parameters.types;
  assert.deepEqual(
    [types.style, types.explode, types.schema],
    [undefined, undefined, { type: 'string', minLength: 1 }],
  );
  assert.equal(types.example, 'dogs,owners');
  assert.equal(jsonSchemaName(document, operation.responses['200']), 'SearchResults');
  assert.ok(operation.responses['200'].headers.Link);
  const { SearchResults, SearchResultsXml } = document.components.schemas;
  assert.deepEqual(
    SearchResults.properties.results.items.oneOf.map((member: Json) => member.$ref.split('/').pop()),
    ['DogEnvelope', 'OwnerEnvelope', 'VeterinarianEnvelope', 'FoodEnvelope'],
  );
  assert.equal(SearchResultsXml.xml.name, 'results');
  assert.deepEqual(Object.keys(SearchResultsXml.properties), ['dog', 'owner', 'veterinarian', 'food']);
});

test('live search answers match the documented results envelope', async (t) => {
  const api = await build(t);
  const schemaFor = schemaValidators(await fetchDocument(api, 2));
  await api.request({ method: 'POST', url: '/v2/dogs', json: { name: 'Rex', location: 'Oslo' } });
  await api.request({ method: 'POST', url: '/v2/owners', json: { name: 'Ann', location: 'Oslo' } });
  await api.request({ method: 'POST', url: '/v2/veterinarians', json: { name: 'Dr. Lund', location: 'Oslo' } });
  await api.request({ method: 'POST', url: '/v2/foods', json: { name: 'Oslo Chow' } });
  const all = await api.request({ url: '/v2/search?q=oslo' });
  assert.equal(all.json().results.length, 4);
  assertMatches(schemaFor('SearchResults'), all.json(), 'every type');
  assertMatches(
    schemaFor('SearchResults'),
    (await api.request({ url: '/v2/search?q=oslo&types=owners,dogs&limit=1&offset=1' })).json(),
    'narrowed',
  );
  assertMatches(schemaFor('Error'), (await api.request({ url: '/v2/search' })).json(), 'without q');
  assert.equal(
    schemaFor('SearchResults')({ results: [{ dog: { name: 'Rex' }, owner: { name: 'Ann' } }] }),
    false,
    'one item per envelope',
  );
});

test('GET /adoptions is open, takes only its own parameters, names only public fields and answers CORS', async (t) => {
  const document = await fetchDocument(await build(t), 1);
  const item = document.paths['/adoptions'];
  assert.deepEqual(Object.keys(item).sort(), ['get', 'options', 'parameters']);
  assert.deepEqual(item.get.security, []);
  assert.deepEqual(item.options.security, []);
  assert.equal(item.get.responses['401'], undefined);
  assert.match(resolve(document, item.get.responses['403']).description, /rate limit/);
  assert.deepEqual(parameterNames(document, '/adoptions', item.get).sort(), [
    'If-None-Match',
    'Prefer',
    'color',
    'fields',
    'limit',
    'location',
    'offset',
    'sort',
    'suppress_response_codes',
  ]);
  // Prefer: count=exact counts the open list too.
  const page = resolve(document, item.get.responses['200']);
  for (const header of ['X-Total-Count', 'Preference-Applied', 'Link']) assert.ok(page.headers[header], header);
  const { parameters, schemas } = document.components;
  assert.match(parameters['adoptions.fields'].description, /from: id, name, furColor, location\./);
  assert.deepEqual(Object.keys(schemas.AdoptableDog.properties), ['id', 'name', 'furColor', 'location']);
  for (const [status, response] of Object.entries<Json>({ ...item.get.responses, ...item.options.responses })) {
    assert.ok(
      resolve(document, response).headers['Access-Control-Allow-Origin'],
      `${status} has Access-Control-Allow-Origin`,
    );
  }
  assert.equal(item.options.responses['200'].headers['Access-Control-Allow-Methods'].example, 'GET, HEAD');
});

test('the documented adoption parameters are the ones the live API accepts', async (t) => {
  const api = await build(t);
  const { parameters } = (await fetchDocument(api, 2)).components;
  const fields = /from: (.*?)\./.exec(parameters['adoptions.fields'].description)![1]!.split(', ');
  assert.deepEqual(fields, ['id', 'name', 'furColor', 'location']);
  for (const field of fields) {
    assert.equal(
      (await api.request({ url: `/v2/adoptions?fields=${field}`, token: null })).statusCode,
      200,
      `fields=${field}`,
    );
  }
  for (const sort of parameters['adoptions.sort'].schema.enum) {
    assert.equal(
      (await api.request({ url: `/v2/adoptions?sort=${sort}`, token: null })).statusCode,
      200,
      `sort=${sort}`,
    );
  }
  for (const query of [
    'fields=createdAt',
    'fields=state',
    'fields=owner(name)',
    'sort=createdAt',
    'q=rex',
    'state=adoptable',
  ]) {
    assert.equal((await api.request({ url: `/v2/adoptions?${query}`, token: null })).statusCode, 400, query);
  }
});

test('live adoption answers, sent without a token, match the documented public envelope and carry CORS', async (t) => {
  const api = await build(t);
  const schemaFor = schemaValidators(await fetchDocument(api, 2));
  await api.request({
    method: 'POST',
    url: '/v2/dogs',
    json: { name: 'Rex', furColor: 'brown', location: 'Oslo', state: 'adoptable' },
  });
  await api.request({ method: 'POST', url: '/v2/dogs', json: { name: 'Bella', state: 'adoptable' } });
  await api.request({ method: 'POST', url: '/v2/dogs', json: { name: 'Kept' } });
  const list = await api.request({ url: '/v2/adoptions', token: null });
  assert.equal(list.statusCode, 200);
  assert.equal(list.headers['access-control-allow-origin'], '*');
  assert.equal(list.json().dogs.length, 2);
  assertMatches(schemaFor('AdoptableDogsList'), list.json(), 'adoptions');
  assertMatches(
    schemaFor('AdoptableDogsList'),
    (await api.request({ url: '/v2/adoptions?fields=name&color=brown&sort=-name', token: null })).json(),
    'with parameters',
  );
  const refused = await api.request({ url: '/v2/adoptions?limit=0', token: null });
  assert.equal(refused.headers['access-control-allow-origin'], '*');
  assertMatches(schemaFor('Error'), refused.json(), 'refused');
  assert.equal(
    schemaFor('AdoptableDog')({ name: 'Rex', state: 'adoptable' }),
    false,
    'no field beyond the public ones',
  );
});
