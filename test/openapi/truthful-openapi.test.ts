// The documents describe what the service does beyond its plain operations: format suffixes, method override,
// suppressed status codes, access_token in the query, which fields an answer always holds; and render cleanly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { representedFields } from '../../src/resources/definition.js';
import { dogs } from '../../src/resources/dogs.js';
import { build } from '../helper.js';
import { assertMatches, fetchDocument, operationsOf, schemaValidators, type Json } from './document-helper.js';

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

test('each path is described again with .json and .xml, each answering its one format', async (t) => {
  const api = await build(t);
  const document = await fetchDocument(api, 2);
  const plain = document.paths['/dogs/{id}'].get;
  const xml = document.paths['/dogs/{id}.xml'].get;
  const json = document.paths['/dogs/{id}.json'].get;
  assert.deepEqual([plain.operationId, json.operationId, xml.operationId], ['getDog', 'getDogJson', 'getDogXml']);
  assert.deepEqual(Object.keys(xml.responses['200'].content), ['application/xml']);
  assert.deepEqual(xml.responses['200'].content['application/xml'].schema.anyOf[0], ref('DogFieldsXml'));
  assert.deepEqual(Object.keys(json.responses['200'].content), ['application/json']);
  assert.deepEqual(xml.responses['404'], { $ref: '#/components/responses/NotFoundXml' });
  assert.deepEqual(Object.keys(document.components.responses.NotFoundXml.content), ['application/xml']);
  // Without a suffix, each media type has its own schema: XML's is the .xml path's (root <dog>, not the envelope).
  assert.deepEqual(plain.responses['200'].content['application/xml'], xml.responses['200'].content['application/xml']);
  assert.deepEqual(plain.responses['200'].content['application/json'].schema.anyOf[0], ref('DogFieldsEnvelope'));
  assert.deepEqual(document.components.schemas.SuppressedError.xml, { name: 'error' });
  const negotiated = await api.request({ url: '/v2/dogs/missing', headers: { accept: 'application/xml' } });
  assert.equal(negotiated.statusCode, 404);
  assert.match(negotiated.body, /^<\?xml[^>]*\?><error><message>/);
  const created = await api.request({ method: 'POST', url: '/v2/dogs.xml', json: { name: 'Rex' } });
  assert.equal(created.statusCode, 201);
  assert.match(String(created.headers['content-type']), /^application\/xml/);
  assert.ok(document.paths['/dogs.xml'].post.responses['201'].content['application/xml']);
});

test('method override: GET and POST answer as the method they carry out, and a POST carries PUT and DELETE', async (t) => {
  const api = await build(t);
  const document = await fetchDocument(api, 2);
  const schemaFor = schemaValidators(document);
  const list = document.paths['/dogs'].get;
  assert.deepEqual(list.responses['201'].content['application/json'].schema, ref('DogEnvelope'));
  const created = await api.request({ url: '/v2/dogs?method=post&name=Rex' });
  assert.equal(created.statusCode, 201);
  assert.equal(created.headers['cache-control'], 'no-store');
  assertMatches(schemaFor('DogEnvelope'), created.json(), 'GET ?method=post');
  const read = document.paths['/dogs/{id}'].get.responses['200'].content['application/json'].schema;
  assert.deepEqual(read.anyOf, [ref('DogFieldsEnvelope'), ref('DogEnvelope'), ref('SuppressedError')]);
  const carrier = document.paths['/dogs/{id}'].post;
  assert.equal(carrier.operationId, 'overrideDogsId');
  assert.deepEqual(carrier.parameters[0], { $ref: '#/components/parameters/X-HTTP-Method-Override' });
  assert.deepEqual(carrier.security, [{ oauth2: ['write'] }, { accessToken: ['write'] }]);
  assert.deepEqual(carrier.requestBody.content['application/json'].schema, ref('DogChanges'));
  const id = created.json().dog.id;
  const url = `/v2/dogs/${id}`;
  const updated = await api.request({
    method: 'POST',
    url,
    headers: { 'x-http-method-override': 'PUT' },
    json: { state: 'lost' },
  });
  assert.equal(updated.statusCode, 200);
  assertMatches(schemaFor('DogEnvelope'), updated.json(), 'POST with X-HTTP-Method-Override: PUT');
  const refused = await api.request({ method: 'POST', url, json: { state: 'lost' } });
  assert.equal(refused.statusCode, 400);
  assert.equal(refused.headers.allow, 'GET, HEAD, PUT, DELETE');
  assert.ok(document.components.headers.Allow);
  assert.ok(document.components.responses.BadRequest.headers.Allow);
  assert.ok(document.components.responses.BadRequest.headers['Cache-Control']);
});

test('suppress_response_codes: every 200 admits the error with response_code, and a v2 create has its 200', async (t) => {
  const api = await build(t);
  const document = await fetchDocument(api, 2);
  const schemaFor = schemaValidators(document);
  for (const [path, method, operation] of operationsOf(document)) {
    if (method === 'options') continue;
    const content = operation.responses['200']?.content;
    assert.ok(content, `${method} ${path} has a 200 with a body`);
    for (const media of Object.values<Json>(content)) {
      const members = media.schema.anyOf ?? [media.schema];
      assert.ok(
        members.some((member: Json) => member.$ref === ref('SuppressedError').$ref),
        `${method} ${path}`,
      );
    }
  }
  const missing = await api.request({ url: '/v2/dogs/nobody?suppress_response_codes=true' });
  assert.equal(missing.statusCode, 200);
  assert.equal(missing.json().response_code, '404');
  assertMatches(schemaFor('SuppressedError'), missing.json(), 'a suppressed 404');
  assert.equal(schemaFor('SuppressedError')({ message: 'm', more_info: 'http://x.test/e', code: 4000 }), false);
  const created = await api.request({
    method: 'POST',
    url: '/v2/dogs?suppress_response_codes=true',
    json: { name: 'Rex' },
  });
  assert.equal(created.statusCode, 200);
  const answer = document.paths['/dogs'].post.responses['200'].content['application/json'].schema;
  assert.deepEqual(answer.anyOf, [ref('DogEnvelope'), ref('SuppressedError')]);
  assertMatches(schemaFor('DogEnvelope'), created.json(), 'a suppressed 201');
});

test('HEAD is said once, in the description (RFC 9110 defines it from GET), and every GET path answers it', async (t) => {
  const api = await build(t);
  const document = await fetchDocument(api, 2);
  assert.deepEqual(
    operationsOf(document).filter(([, method]) => method === 'head'),
    [],
  );
  assert.match(document.info.description, /answers HEAD too .*RFC 9110/);
  assert.match(document.paths['/dogs.xml'].description, /in any case: \.XML is \.xml/);
  for (const url of ['/v2/dogs', '/v2/dogs.XML', '/v2/dogs/missing']) {
    const [head, get] = [await api.request({ method: 'HEAD', url }), await api.request({ url })];
    assert.equal(head.statusCode, get.statusCode, url);
    assert.equal(head.headers['content-type'], get.headers['content-type'], url);
  }
});

test('access_token in the query is an apiKey security scheme beside oauth2, and works', async (t) => {
  const api = await build(t);
  const document = await fetchDocument(api, 2);
  const { accessToken } = document.components.securitySchemes;
  assert.deepEqual([accessToken.type, accessToken.in, accessToken.name], ['apiKey', 'query', 'access_token']);
  assert.equal(document.components.parameters.access_token, undefined);
  assert.deepEqual(document.paths['/dogs'].get.security, [{ oauth2: ['read'] }, { accessToken: ['read'] }]);
  const live = await api.request({ url: `/v2/dogs?access_token=${api.credentials.token}`, token: null });
  assert.equal(live.statusCode, 200);
});

test('answers without fields hold every field; with fields any may be absent, and the schemas say which', async (t) => {
  const api = await build(t);
  const document = await fetchDocument(api, 2);
  const schemaFor = schemaValidators(document);
  const { Dog, DogFields } = document.components.schemas;
  assert.deepEqual(Dog.required, representedFields(dogs));
  assert.equal(DogFields.required, undefined);
  assert.ok(DogFields.properties.owner && !Dog.properties.owner, 'associations only in the selected item');
  const created = await api.request({ method: 'POST', url: '/v2/dogs', json: { name: 'Rex' } });
  assertMatches(schemaFor('DogEnvelope'), created.json(), 'a create');
  const selected = await api.request({ url: `/v2/dogs/${created.json().dog.id}?fields=name` });
  assertMatches(schemaFor('DogFieldsEnvelope'), selected.json(), 'fields=name');
  assert.equal(schemaFor('DogEnvelope')(selected.json()), false, 'a selection is not the whole item');
  // A field with a value when left out is not `default` (openapi-typescript would make it required in the body).
  assert.doesNotMatch(JSON.stringify(document.components.schemas.NewDog), /"default"/);
  assert.match(document.components.schemas.NewDog.properties.state.description, /Left out: registered\./);
});

test('a licence, a unique operationId on every operation (OPTIONS too), no angle brackets outside code spans', async (t) => {
  const api = await build(t);
  for (const version of [1, 2]) {
    const document = await fetchDocument(api, version);
    assert.deepEqual(document.info.license, {
      name: 'Proprietary: all rights reserved',
      identifier: 'LicenseRef-Proprietary',
    });
    const ids = operationsOf(document).map(([, , operation]) => operation.operationId);
    assert.ok(ids.every((id) => typeof id === 'string' && id.length > 0));
    assert.equal(new Set(ids).size, ids.length, `v${version} operationIds are unique`);
    assert.equal(document.paths['/dogs/{id}/foods'].options.operationId, 'preflightDogsIdFoods');
    const texts: string[] = [];
    (function collect(node: unknown, key: string): void {
      if (typeof node === 'string' && (key === 'description' || key === 'summary')) texts.push(node);
      else if (node && typeof node === 'object')
        for (const [child, value] of Object.entries(node)) collect(value, child);
    })(document, '');
    for (const text of texts) assert.doesNotMatch(text.replace(/`[^`]*`/g, ''), /[<>]/, text);
  }
});
