// The served OpenAPI documents are valid 3.1, and their schemas and answers match the live API.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import { loadConfig } from '../../src/config.js';
import { buildDocument } from '../../src/openapi/build-document.js';
import type { ResourceDef } from '../../src/resources/definition.js';
import { dogs } from '../../src/resources/dogs.js';
import { build } from '../helper.js';
import { fetchDocument, operationsOf, resolve, schemaValidators, type Json } from './document-helper.js';

test('each version serves a valid OpenAPI 3.1 document, openly, as JSON', async (t) => {
  const api = await build(t);
  for (const version of [1, 2]) {
    const document = await fetchDocument(api, version);
    assert.ok(String(document.openapi).startsWith('3.1'));
    assert.deepEqual(document.servers, [
      { url: `http://api.test/v${version}`, description: `Version ${version} of the API` },
    ]);
    const result = await new Validator().validate(document);
    assert.deepEqual(result.errors, undefined);
    assert.equal(result.valid, true);
  }
});

test('every schema of the document is valid JSON Schema 2020-12 with no OpenAPI 3.0 leftovers', async (t) => {
  const document = await fetchDocument(await build(t), 2);
  const schemaFor = schemaValidators(document);
  for (const name of Object.keys(document.components.schemas)) schemaFor(name);
  assert.doesNotMatch(JSON.stringify(document), /"nullable"|TypeBox/);
});

test('a create answers 200 in v1 and 201 with a Location header in v2', async (t) => {
  const api = await build(t);
  const v1 = (await fetchDocument(api, 1)).paths['/dogs'].post.responses;
  const v2 = (await fetchDocument(api, 2)).paths['/dogs'].post.responses;
  assert.ok(v1['200']);
  assert.equal(v1['201'], undefined);
  assert.ok(v2['201']);
  // A v2 create answers 200 only under suppress_response_codes.
  assert.match(
    v2['200'].description,
    /^With suppress_response_codes=true: the new item, answered with 200 instead of 201/,
  );
  assert.deepEqual(v2['201'].headers.Location, { $ref: '#/components/headers/Location' });
  const live = await api.request({ method: 'POST', url: '/v2/dogs', json: { name: 'Rex' } });
  assert.equal(live.statusCode, 201);
  assert.match(String(live.headers.location), /^http:\/\/api\.test\/v2\/dogs\/[A-Za-z0-9_-]+$/);
});

test('every answer with a body is described in both JSON and XML, and every operation lists 400 and 500', async (t) => {
  const document = await fetchDocument(await build(t), 2);
  for (const [path, method, operation] of operationsOf(document)) {
    assert.ok(operation.responses['400'] && operation.responses['500'], `${method} ${path}`);
    for (const [status, value] of Object.entries<Json>(operation.responses)) {
      const response = resolve(document, value);
      assert.ok(response.headers['X-Request-Id'], `${method} ${path} ${status} has X-Request-Id`);
      if (!response.content) {
        assert.ok(
          status === '304' || (status === '200' && ['delete', 'options'].includes(method)),
          `${method} ${path} ${status} has a body`,
        );
        continue;
      }
      // A format suffix fixes the format; without one, Accept chooses.
      const formats = path.endsWith('.json')
        ? ['application/json']
        : path.endsWith('.xml')
          ? ['application/xml']
          : ['application/json', 'application/xml'];
      assert.deepEqual(Object.keys(response.content), formats, `${method} ${path} ${status}`);
    }
  }
  // A delete's 200 is empty, unless suppress_response_codes turns an error into it.
  assert.deepEqual(document.paths['/dogs/{id}'].delete.responses['200'].content['application/json'].schema, {
    $ref: '#/components/schemas/SuppressedError',
  });
  assert.equal(document.components.schemas.Error.xml.name, 'error');
});

test('the dog filters, paging and control parameters are reusable components', async (t) => {
  const document = await fetchDocument(await build(t), 2);
  const { parameters } = document.components;
  // A comma list is the string it is on the wire (openapi-fetch would repeat an array's name); its values in words.
  assert.deepEqual(parameters['dogs.state'].schema, { type: 'string', minLength: 1 });
  assert.match(parameters['dogs.state'].description, /The values: registered, adoptable, adopted, lost\./);
  assert.deepEqual(parameters.limit.schema, { type: 'integer', minimum: 1, maximum: 100, default: 10 });
  assert.equal(parameters.offset.schema.minimum, 0);
  assert.deepEqual([parameters.q.schema.minLength, parameters.q.schema.maxLength], [1, 200]);
  // Any case (SPEC §3): a pattern, since a JSON Schema enum is exact.
  const method = new RegExp(parameters.method.schema.pattern);
  for (const value of ['post', 'PUT', 'Delete']) assert.match(value, method);
  for (const value of ['get', 'posts', 'patch']) assert.doesNotMatch(value, method);
  const suppress = new RegExp(parameters.suppress_response_codes.schema.pattern);
  for (const value of ['true', 'FALSE', 'True']) assert.match(value, suppress);
  assert.doesNotMatch('yes', suppress);
  assert.equal(parameters.offset.schema.maximum, undefined, 'any offset is a page (SPEC §3)');
  // A filter's example is of its own values.
  assert.match(parameters['dogs.state'].description, /comma-separated \(registered,adoptable\)/);
  assert.doesNotMatch(parameters['dogs.location'].description, /brown/);
  const listed = document.paths['/dogs'].get.parameters.map((parameter: Json) => parameter.$ref.split('/').pop());
  for (const name of ['dogs.fields', 'limit', 'offset', 'dogs.sort', 'q', 'dogs.color', 'dogs.state', 'dogs.location'])
    assert.ok(listed.includes(name), name);
});

const CREATE_CASES: ReadonlyArray<{ body: Json; accepted: boolean; why: string }> = [
  { body: { name: 'Rex' }, accepted: true, why: 'only the required name' },
  {
    body: { name: 'Rex', furColor: 'brown', state: 'lost', location: 'Oslo' },
    accepted: true,
    why: 'every text field',
  },
  { body: { name: 'Rex', furColor: null }, accepted: true, why: 'null clears an optional field' },
  { body: {}, accepted: false, why: 'name is required' },
  { body: { name: 'x'.repeat(101) }, accepted: false, why: 'name holds at most 100 characters' },
  { body: { name: 'Rex', state: 'flying' }, accepted: false, why: 'state is one of four values' },
  { body: { name: 'Rex', state: null }, accepted: false, why: 'state is never null' },
  { body: { name: 'Rex', colour: 'brown' }, accepted: false, why: 'unknown fields are refused' },
  { body: { name: 42 }, accepted: false, why: 'name is text' },
  { body: { name: 'Rex', foodIds: [] }, accepted: true, why: 'an empty set of foods' },
  { body: { name: 'Rex', foodIds: null }, accepted: true, why: 'null clears the set of foods' },
  { body: { name: 'Rex', foodIds: [42] }, accepted: false, why: 'food ids are text' },
  { body: { name: 'Rex', foods: [] }, accepted: false, why: 'an association is read, never written' },
];

test('the documented create schema accepts and refuses what the live API does', async (t) => {
  const api = await build(t);
  const document = await fetchDocument(api, 1);
  const create = document.components.schemas.NewDog;
  assert.deepEqual(create.required, ['name']);
  assert.equal(create.properties.name.maxLength, 100);
  const validate = schemaValidators(document)('NewDog');
  for (const { body, accepted, why } of CREATE_CASES) {
    const live = await api.request({ method: 'POST', url: '/v1/dogs', json: body });
    assert.equal(validate(body), accepted, `document: ${why}`);
    assert.equal(live.statusCode, accepted ? 200 : 400, `live API: ${why}`);
  }
});

test('live answers match the documented JSON envelopes', async (t) => {
  const api = await build(t);
  const schemaFor = schemaValidators(await fetchDocument(api, 2));
  const created = await api.request({ method: 'POST', url: '/v2/dogs', form: { name: 'Rex', furColor: 'brown' } });
  const list = await api.request({ url: '/v2/dogs' });
  const count = await api.request({ url: '/v2/dogs/count' });
  const missing = await api.request({ url: '/v2/dogs/nope' });
  for (const [name, response] of [
    ['DogEnvelope', created],
    ['DogsList', list],
    ['Count', count],
    ['Error', missing],
  ] as const) {
    const validate = schemaFor(name);
    assert.ok(validate(response.json()), `${name}: ${JSON.stringify(validate.errors)}`);
  }
});

test('a resource with array associations gets an XML item schema with wrapped arrays', async () => {
  const owners: ResourceDef = {
    name: 'owners',
    singular: 'owner',
    description: 'A person who owns dogs.',
    fields: { name: { kind: 'text', required: true, description: 'Name of the owner.' } },
    filters: {},
    associations: { dogs: { kind: 'many', target: 'dogs', reverseField: 'ownerId' } },
  };
  const ownedDogs: ResourceDef = {
    ...dogs,
    associations: { owner: { kind: 'one', target: 'owners', field: 'ownerId' } },
  };
  const document = buildDocument(loadConfig({ PUBLIC_URL: 'http://api.test' }), 2, [ownedDogs, owners]) as Json;
  assert.equal((await new Validator().validate(document)).valid, true);
  const { schemas } = document.components;
  assert.deepEqual(schemas.OwnerFields.properties.dogs.items, { $ref: '#/components/schemas/DogFieldsEnvelope' });
  assert.deepEqual(schemas.OwnerFieldsXml.properties.dogs.xml, { wrapped: true });
  assert.deepEqual(schemas.DogFields.properties.owner.anyOf, [
    { $ref: '#/components/schemas/OwnerFields' },
    { type: 'null' },
  ]);
  assert.ok(document.paths['/owners/{id}'].get);
  const schemaFor = schemaValidators(document);
  assert.ok(
    schemaFor('OwnerFieldsEnvelope')({ owner: { name: 'Ann', dogs: [{ dog: { name: 'Rex', owner: null } }] } }),
  );
});

test('every answer with a body documents Content-Encoding, as the live API compresses a page over 1 KiB', async (t) => {
  const api = await build(t);
  const document = await fetchDocument(api, 2);
  assert.deepEqual(document.components.headers['Content-Encoding'].schema, { type: 'string', enum: ['gzip', 'br'] });
  assert.match(document.components.headers.Vary.description, /Accept-Encoding/);
  for (const [path, method, operation] of operationsOf(document)) {
    for (const [status, value] of Object.entries<Json>(operation.responses)) {
      const response = resolve(document, value);
      if (response.content)
        assert.deepEqual(
          response.headers['Content-Encoding'],
          { $ref: '#/components/headers/Content-Encoding' },
          `${method} ${path} ${status}`,
        );
    }
  }
  for (let i = 0; i < 12; i++) await api.request({ method: 'POST', url: '/v2/dogs', json: { name: `Dog ${i}` } });
  const live = await api.request({ url: '/v2/dogs?limit=12', headers: { 'accept-encoding': 'br' } });
  assert.equal(live.statusCode, 200);
  assert.equal(live.headers['content-encoding'], 'br');
  assert.match(String(live.headers.vary), /Accept-Encoding/);
});

test('the documents list what suppressed, overridden and deprecated answers carry', async (t) => {
  const api = await build(t);
  const v2 = await fetchDocument(api, 2);
  const anyOf = (response: Json): string[] =>
    (response.content['application/json'].schema.anyOf as Json[]).map((member) => member.$ref);
  // GET /dogs?method=post&suppress_response_codes=true answers the created dog with 200, and its Location.
  const list = v2.paths['/dogs'].get.responses;
  assert.ok(anyOf(list['200']).includes('#/components/schemas/DogEnvelope'), JSON.stringify(list['200']));
  assert.ok(list['200'].headers.Location && !list['200'].headers.Location.required);
  // A suppressed error of a creation has no Location: required only on the 201.
  const create = v2.paths['/dogs'].post.responses;
  assert.notEqual(create['200'].headers.Location.required, true);
  assert.equal(v2.components.headers.Location.required, true);
  for (const header of ['WWW-Authenticate', 'Retry-After']) assert.ok(create['200'].headers[header], header);
  // An overridden DELETE answers an empty body.
  assert.match(v2.paths['/dogs/{id}'].post.responses['200'].description, /After a DELETE \(an override\): no body/);
  assert.equal(v2.paths['/dogs/{id}'].post.responses['200'].description.split('After a DELETE').length, 2, 'said once');
  assert.match(v2.paths['/dogs/{id}'].get.responses['200'].description, /After a DELETE \(an override\): no body/);
  const { responses } = v2.components;
  for (const header of ['Link', 'X-Total-Count', 'Preference-Applied'])
    assert.ok(responses.NotModified.headers[header], header);
  assert.ok(responses.BadRequest.headers['WWW-Authenticate']);
  assert.equal(v2.components.headers.Deprecation, undefined);
  // v1: every answer lists Deprecation, Sunset and Link, sent once V1_SUNSET is set (SPEC §8).
  const v1 = await fetchDocument(api, 1);
  for (const header of ['Deprecation', 'Sunset']) assert.ok(v1.components.headers[header], header);
  for (const response of [v1.paths['/dogs'].get.responses['200'], v1.components.responses.Unauthorized])
    for (const header of ['Deprecation', 'Sunset', 'Link']) assert.ok(response.headers[header], header);
  assert.match(v1.components.headers.Link.description, /rel="deprecation"/);
});
