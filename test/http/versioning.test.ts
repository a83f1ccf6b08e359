// The version lifecycle: with V1_SUNSET set, every v1 answer carries Deprecation, Sunset and a deprecation link; v2 never does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { build, createDog, type RequestOptions, type TestApp } from '../helper.js';

const SUNSET = { V1_SUNSET: '2027-06-01' };
// 2026-11-21T00:00:00Z (the default V1_DEPRECATED) is 1795219200 s after the epoch: 20778 days × 86400 s.
const DEPRECATION = '@1795219200';
const SUNSET_DATE = 'Tue, 01 Jun 2027 00:00:00 GMT';
const LINK = '<http://api.test/portal/versions>; rel="deprecation"';

/** One request of each kind an API answer can be: success, creation, errors, 304, suppressed, unrouted. */
async function answersOf(api: TestApp, version: number): Promise<Array<[string, LightMyRequestResponse]>> {
  const v = `/v${version}`;
  const dog = await createDog(api, { name: 'Rex' });
  const etag = String((await api.request({ url: `${v}/dogs/${dog.id}` })).headers.etag);
  const requests: Array<[string, RequestOptions]> = [
    ['a read', { url: `${v}/dogs/${dog.id}` }],
    ['a read in XML', { url: `${v}/dogs/${dog.id}.xml` }],
    ['a HEAD', { method: 'HEAD', url: `${v}/dogs/${dog.id}` }],
    ['a 304', { url: `${v}/dogs/${dog.id}`, headers: { 'if-none-match': etag } }],
    ['a creation', { method: 'POST', url: `${v}/dogs`, form: { name: 'Bella' } }],
    ['a change', { method: 'PUT', url: `${v}/dogs/${dog.id}`, form: { name: 'Rexy' } }],
    ['a conversion', { url: `${v}/convert?from=EUR&to=USD&amount=1` }],
    ['a 400', { url: `${v}/dogs?limit=0` }],
    ['a 400 with Allow', { method: 'PATCH', url: `${v}/dogs` }],
    ['a suppressed 404', { url: `${v}/dogs/nope?suppress_response_codes=true` }],
    ['a 404 of an item', { url: `${v}/dogs/nope` }],
    ['a 404 of an unknown path', { url: `${v}/cats` }],
    ['a 404 of the bare version', { url: v }],
    ['a URL that does not decode', { url: `${v}/dogs/%zz` }],
    ['a deletion', { method: 'DELETE', url: `${v}/dogs/${dog.id}` }],
  ];
  const answers: Array<[string, LightMyRequestResponse]> = [];
  for (const [what, options] of requests) answers.push([what, await api.request(options)]);
  return answers;
}

test('with V1_SUNSET, every v1 answer carries Deprecation, Sunset and the deprecation link, and v1 keeps working', async (t) => {
  const api = await build(t, SUNSET);
  const answers = await answersOf(api, 1);
  const statuses = Object.fromEntries(answers.map(([what, response]) => [what, response.statusCode]));
  assert.deepEqual(statuses, {
    'a read': 200,
    'a read in XML': 200,
    'a HEAD': 200,
    'a creation': 200,
    'a change': 200,
    'a conversion': 200,
    'a 304': 304,
    'a 400': 400,
    'a 400 with Allow': 400,
    'a suppressed 404': 200,
    'a 404 of an item': 404,
    'a 404 of an unknown path': 404,
    'a 404 of the bare version': 404,
    'a URL that does not decode': 400,
    'a deletion': 200,
  });
  for (const [what, response] of answers) {
    assert.equal(response.headers.deprecation, DEPRECATION, what);
    assert.equal(response.headers.sunset, SUNSET_DATE, what);
    assert.equal(response.headers.link, LINK, what);
  }
});

test('v2 answers never carry Deprecation, Sunset or a deprecation link', async (t) => {
  const api = await build(t, SUNSET);
  for (const [what, response] of await answersOf(api, 2)) {
    assert.equal(response.headers.deprecation, undefined, what);
    assert.equal(response.headers.sunset, undefined, what);
    assert.equal(response.headers.link, undefined, what);
  }
  const created = await api.request({ method: 'POST', url: '/v2/dogs', form: { name: 'Max' } });
  assert.equal(created.statusCode, 201);
});

test('without V1_SUNSET no v1 answer announces a deprecation', async (t) => {
  const api = await build(t, { V1_DEPRECATED: '2026-01-01' });
  for (const [what, response] of await answersOf(api, 1)) {
    assert.equal(response.headers.deprecation, undefined, what);
    assert.equal(response.headers.sunset, undefined, what);
    assert.equal(response.headers.link, undefined, what);
  }
});

test('V1_DEPRECATED sets the time of the Deprecation header', async (t) => {
  const api = await build(t, { ...SUNSET, V1_DEPRECATED: '2026-01-01' });
  const response = await api.request({ url: '/v1/dogs' });
  // 2026-01-01T00:00:00Z = 20454 days × 86400 s = 1767225600 s.
  assert.equal(response.headers.deprecation, '@1767225600');
  assert.equal(response.headers.sunset, SUNSET_DATE);
});

test('the deprecation link is added to the paging links of a v1 collection, which all stay', async (t) => {
  const api = await build(t, SUNSET);
  for (const name of ['A', 'B', 'C']) await createDog(api, { name });
  const response = await api.request({
    url: '/v1/dogs?limit=1&offset=1&fields=name',
    headers: { prefer: 'count=exact' },
  });
  const page = (offset: number) => `<http://api.test/v1/dogs?limit=1&offset=${offset}&fields=name>`;
  assert.equal(
    response.headers.link,
    [
      `${page(0)}; rel="first"`,
      `${page(0)}; rel="prev"`,
      `${page(2)}; rel="next"`,
      `${page(2)}; rel="last"`,
      LINK,
    ].join(', '),
  );
  const v2 = await api.request({ url: '/v2/dogs?limit=1&offset=1&fields=name' });
  assert.doesNotMatch(String(v2.headers.link), /deprecation/);
});

test('the portal, the infrastructure and version-less paths are not v1 answers', async (t) => {
  const api = await build(t, SUNSET);
  for (const url of [
    '/portal/versions',
    '/portal/errors',
    '/portal/openapi/v1.json',
    '/healthz',
    '/dogs',
    '/v1.2/dogs',
    '/v10/dogs',
  ]) {
    const response = await api.request({ url });
    assert.equal(response.headers.deprecation, undefined, url);
    assert.equal(response.headers.sunset, undefined, url);
  }
});

test("the portal's versions page explains v1 and v2, the policy, and the sunset date when there is one", async (t) => {
  const announced = await build(t, SUNSET);
  const page = await announced.request({ url: '/portal/versions' });
  assert.equal(page.statusCode, 200);
  assert.match(String(page.headers['content-type']), /^text\/html/);
  for (const text of [
    '201 Created',
    '200 OK',
    'Location',
    'v1 is retired on 2027-06-01',
    SUNSET_DATE,
    DEPRECATION,
    'six months',
    'two years',
  ]) {
    assert.ok(page.body.includes(text), text);
  }
  assert.equal((await announced.request({ url: '/portal/versions/' })).statusCode, 200);
  const quiet = await (await build(t)).request({ url: '/portal/versions' });
  assert.equal(quiet.statusCode, 200);
  assert.match(quiet.body, /No retirement date for v1 is announced yet/);
  assert.doesNotMatch(quiet.body, /Sunset: /);
});

test('the OpenAPI document of v1 marks every operation deprecated and says why; v2 marks none', async (t) => {
  const api = await build(t, SUNSET);
  const operations = (document: { paths: Record<string, Record<string, { deprecated?: boolean }>> }) =>
    Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([key]) => key !== 'parameters' && key !== 'description')
        .map(([method, operation]) => [`${method} ${path}`, operation.deprecated] as const),
    );
  const v1 = (await api.request({ url: '/portal/openapi/v1.json' })).json();
  const v2 = (await api.request({ url: '/portal/openapi/v2.json' })).json();
  assert.ok(operations(v1).length > 6);
  for (const [operation, deprecated] of operations(v1)) assert.equal(deprecated, true, operation);
  for (const [operation, deprecated] of operations(v2)) assert.equal(deprecated, undefined, operation);
  assert.match(v1.info.description, /deprecated since 2026-11-21/);
  assert.match(v1.info.description, /retired on 2027-06-01/);
  assert.match(v1.info.description, /http:\/\/api\.test\/portal\/versions/);
  assert.doesNotMatch(v2.info.description, /deprecated/);
});
