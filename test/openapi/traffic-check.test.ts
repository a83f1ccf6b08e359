// The replay's check: what a document describes passes, each kind of mismatch is found, the rest left out with a reason.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import type { Json } from './document-helper.js';
import { checkTraffic, describeMismatches, operationKeys } from './traffic-check.js';
import type { TrafficLine } from './traffic-recorder.js';

// A small document of its own, so these tests do not follow the service's documents as they change.
const errorSchema = {
  type: 'object',
  required: ['code'],
  properties: { code: { type: 'integer' }, response_code: { type: 'string' } },
};
// The error answered with 200 under suppress_response_codes=true (the documents' SuppressedError).
const suppressed = { type: 'object', allOf: [errorSchema], required: ['response_code'], xml: { name: 'error' } };
const document: Json = {
  paths: {
    '/dogs/{id}': {
      get: {
        responses: {
          200: {
            description: 'a dog',
            content: {
              'application/json': { schema: { $ref: '#/components/schemas/Dog' } },
              'application/xml': { schema: { $ref: '#/components/schemas/Dog' } },
            },
          },
          304: { description: 'not modified' },
          '4XX': { $ref: '#/components/responses/Error' },
        },
      },
      delete: {
        responses: {
          200: {
            description: 'deleted: empty, or an error with suppress_response_codes',
            content: { 'application/json': { schema: suppressed }, 'application/xml': { schema: suppressed } },
          },
          204: { description: 'deleted' },
        },
      },
    },
    '/dogs': {
      get: {
        responses: {
          200: {
            description: 'a page of dogs, or an error with suppress_response_codes',
            content: {
              'application/xml': {
                schema: {
                  anyOf: [{ $ref: '#/components/schemas/Dogs' }, suppressed],
                },
              },
            },
          },
        },
      },
    },
    '/dogs/count': { get: { responses: { default: { $ref: '#/components/responses/Error' } } } },
    '/dogs/count.xml': { get: { responses: { default: { $ref: '#/components/responses/Error' } } } },
  },
  components: {
    schemas: {
      Dog: {
        type: 'object',
        xml: { name: 'dog' },
        required: ['name'],
        properties: {
          name: { type: 'string' },
          foods: {
            type: 'array',
            xml: { wrapped: true },
            items: { type: 'object', xml: { name: 'food' }, properties: { brand: { type: 'string' } } },
          },
        },
      },
      Dogs: { type: 'object', properties: { dog: { type: 'array', items: { $ref: '#/components/schemas/Dog' } } } },
    },
    responses: { Error: { description: 'an error', content: { 'application/json': { schema: errorSchema } } } },
  },
};
const documents = new Map([[2, document]]);

function line(fields: Partial<TrafficLine>): TrafficLine {
  return { file: 'x.test.ts', method: 'GET', url: '/v2/dogs/abc', status: 200, body: '', ...fields };
}
const json = 'application/json; charset=utf-8';

test('exchanges the document describes pass, and each operation reached counts as exercised', () => {
  const report = checkTraffic(documents, [
    line({ type: json, body: '{"name":"Rex"}' }),
    line({
      type: 'application/xml',
      body: '<?xml version="1.0"?><dog><name>Rex</name><foods><food><brand>A</brand></food><food/></foods></dog>',
    }),
    line({ method: 'HEAD', type: json }),
    // app.inject hands back a HEAD's error body, which the wire never carries.
    line({ method: 'HEAD', status: 404, type: json, body: '{"message":"none"}' }),
    // GET carrying out DELETE answers as DELETE does: empty.
    line({ url: '/v2/dogs/abc?method=delete' }),
    // The service reads a suffix case-insensitively, and the documents say so.
    line({ url: '/v2/dogs/count.XML', status: 401, type: json, body: '{"code":2000}' }),
    line({ status: 304 }),
    line({ url: '/v2/dogs/abc/?fields=name', status: 404, type: json, body: '{"code":1002}' }),
    line({ method: 'DELETE', status: 204 }),
    line({ method: 'DELETE', status: 200 }),
    line({
      url: '/v2/dogs',
      type: 'application/xml',
      body: '<Dogs><dog><name>a</name></dog><dog><name>b</name></dog></Dogs>',
    }),
    line({
      url: '/v2/dogs?suppress_response_codes=true',
      type: 'application/xml',
      body: '<error><response_code>404</response_code><code>1002</code></error>',
    }),
    line({
      url: '/v2/dogs/count',
      status: 500,
      type: json,
      encoding: 'gzip',
      body: gzipSync('{"code":5}').toString('base64'),
    }),
  ]);
  assert.equal(report.checked, 13);
  assert.equal(describeMismatches(report), '');
  assert.deepEqual([...report.exercised].sort(), [
    'v2 DELETE /dogs/{id}',
    'v2 GET /dogs',
    'v2 GET /dogs/count',
    'v2 GET /dogs/count.xml',
    'v2 GET /dogs/{id}',
    'v2 HEAD /dogs/{id}',
  ]);
  assert.deepEqual(operationKeys(documents), [
    'v2 GET /dogs/{id}',
    'v2 DELETE /dogs/{id}',
    'v2 GET /dogs',
    'v2 GET /dogs/count',
    'v2 GET /dogs/count.xml',
  ]);
});

test('each kind of mismatch is found and grouped with the feature the request used', () => {
  const report = checkTraffic(documents, [
    line({ status: 201, type: json, body: '{"name":"Rex"}' }),
    line({ type: 'text/html', body: '<p>Rex</p>' }),
    line({ type: json, body: '{"furColor":"brown"}' }),
    line({ type: json, body: 'not json' }),
    line({ type: 'application/xml', body: '<cat><name>Tom</name></cat>' }),
    line({ type: 'application/xml', body: '<dog><name>Rex</name><tail>long</tail></dog>' }),
    line({ type: 'application/xml', body: '<dog><name>Rex</name><name>Max</name></dog>' }),
    line({ type: 'application/xml', body: '<dog><furColor>brown</furColor></dog>' }),
    line({ url: '/v2/dogs', type: 'application/xml', body: '<dogs></dogs>' }),
    line({ type: 'application/xml', body: '<dog><name>Rex</name><foods><toy>ball</toy></foods></dog>' }),
    line({ type: json }),
    line({ method: 'HEAD', type: 'text/html' }),
    line({ method: 'PUT', status: 200 }),
    line({ url: '/v2/dogs/abc.xml', status: 404, type: json, body: '{"code":1002}' }),
    line({ url: '/v2/cats', status: 200, type: json, body: '{}' }),
    line({ url: '/v2/dogs/abc?suppress_response_codes=true&method=delete', type: json, body: '{"code":1002}' }),
    line({ method: 'POST', requestType: 'application/x-www-form-urlencoded', requestBody: 'method=put', type: json }),
    // No PUT here, so nothing says a GET carrying one may answer empty.
    line({ url: '/v2/dogs/abc?method=put' }),
  ]);
  assert.deepEqual(
    [...report.mismatches].map(([kind, list]) => [kind, list.length]),
    [
      ['status', 1],
      ['content type', 2],
      ['schema', 2],
      ['xml', 6],
      ['body', 1],
      ['method', 1],
      ['path [format suffix]', 1],
      ['path', 1],
      ['schema [method override, suppress_response_codes]', 1],
      ['method [method override]', 1],
      ['body [method override]', 1],
    ],
  );
  const text = describeMismatches(report, 10);
  assert.match(text, /\n {2}1 × get \/dogs 200: root <dogs>, the document says <Dogs\|error>/);
  assert.match(text, /^xml: 6\n {2}1 × get \/dogs\/\{id\} 200: root <cat>, the document says <dog>\n/);
  assert.match(text, /\n {2}1 × get \/dogs\/\{id\} 200 \(Dog\): <dog> holds <tail>, which its schema does not name\n/);
  assert.match(
    text,
    /\n {2}1 × get \/dogs\/\{id\} 200 \(Dog\): <dog\/name> is repeated, its schema is no list of it\n/,
  );
  assert.match(text, /\n {2}1 × get \/dogs\/\{id\} 200 \(Dog\): <dog> has no <name>\n/);
  assert.match(
    text,
    /\n {2}1 × get \/dogs\/\{id\} 200 \(Dog\): <dog\/foods> wraps <toy>, its schema a list of <food>\n/,
  );
  assert.match(text, /\nschema: 2\n {2}1 × get \/dogs\/\{id\} 200 \(Dog\): \/ must have required/);
});

test('traffic outside the documented API, and requests Node refused before routing, are left out with a reason', () => {
  const report = checkTraffic(documents, [
    line({ url: '/portal/signup', type: 'text/html', body: '<html></html>' }),
    line({ url: '/oauth2/token', method: 'POST', status: 400, type: json, body: '{}' }),
    line({ url: '/v3/dogs', status: 404, type: json, body: '{}' }),
    line({ url: '/v2/cats', status: 404, type: json, body: '{}' }),
    line({ url: '/v2/dogs/a/b/c', status: 400, type: json, body: '{}' }),
    line({ url: '/v2/dogs/abc.yaml', status: 400, type: json, body: '{}' }),
    // A suffix is read from the last segment only (one trailing slash aside): /dogs/count.xml/x has none and routes a
    // path no one has.
    line({ url: '/v2/dogs/count.xml/x', status: 404, type: json, body: '{}' }),
    line({ method: 'PATCH', status: 400, type: json, body: '{}' }),
    line({
      method: 'PATCH',
      url: '/v2/dogs/abc?suppress_response_codes=true',
      type: json,
      body: '{"response_code":"400"}',
    }),
    line({ method: '', url: '', status: 400, protocolError: 'HPE_INVALID_METHOD' }),
    line({ host: 'dev.api.test', status: 302 }),
  ]);
  assert.equal(report.checked, 0);
  assert.deepEqual(Object.fromEntries(report.excluded), {
    'outside /v<N>: portal, OAuth and infrastructure': 2,
    'a version the service does not have': 1,
    'a path the API does not have, refused': 3,
    'a format suffix the service does not have, refused': 1,
    'a method the path does not offer, refused': 2,
    'refused by Node before routing (HPE_INVALID_METHOD)': 1,
    "the portal's host aliases (dev., developer.), redirected to the portal": 1,
  });
});
