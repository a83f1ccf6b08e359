// Compression (SPEC §13): answers over 1 KiB leave gzip- or brotli-encoded as Accept-Encoding asks, with Vary and an
// ETag of their own; either ETag revalidates; COMPRESSION=off leaves it to a proxy.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { build, createDog, type RequestOptions, type TestApp } from '../helper.js';

/** Enough dogs that a page of them is well over 1 KiB in JSON and in XML. */
async function withDogs(t: TestContext, env: Record<string, string> = {}): Promise<TestApp> {
  const api = await build(t, env);
  for (let i = 0; i < 12; i++) await createDog(api, { name: `Dog ${i} of the compression test`, furColor: 'brown', state: 'adoptable' });
  return api;
}

function decoded(response: LightMyRequestResponse): string {
  const coding = response.headers['content-encoding'];
  if (coding === 'gzip') return zlib.gunzipSync(response.rawPayload).toString('utf8');
  if (coding === 'br') return zlib.brotliDecompressSync(response.rawPayload).toString('utf8');
  assert.equal(coding, undefined);
  return response.body;
}

/** The plain answer, then the same asked with each coding: the same bytes once decoded, each with its own ETag. */
async function assertCompresses(api: TestApp, options: RequestOptions): Promise<void> {
  const plain = await api.request(options);
  assert.equal(plain.statusCode, 200, options.url);
  assert.ok(plain.rawPayload.length > 1024, `${options.url} is ${plain.rawPayload.length} bytes`);
  assert.equal(plain.headers['content-encoding'], undefined);
  assert.match(String(plain.headers.vary), /(^|, )Accept-Encoding$/, options.url);
  for (const coding of ['gzip', 'br']) {
    const headers = { ...options.headers, 'accept-encoding': coding };
    const response = await api.request({ ...options, headers });
    assert.equal(response.statusCode, 200, options.url);
    assert.equal(response.headers['content-encoding'], coding, options.url);
    assert.equal(response.headers.vary, plain.headers.vary, options.url);
    assert.equal(response.headers['content-type'], plain.headers['content-type'], options.url);
    assert.equal(Number(response.headers['content-length']), response.rawPayload.length);
    assert.ok(response.rawPayload.length < plain.rawPayload.length, options.url);
    assert.equal(decoded(response), plain.body, options.url);
    if (plain.headers.etag !== undefined)
      assert.equal(response.headers.etag, `${String(plain.headers.etag).slice(0, -1)}-${coding}"`, options.url);
  }
}

test('a page of dogs decodes (gzip and br) to the plain answer, in JSON and XML', async (t) => {
  const api = await withDogs(t);
  await assertCompresses(api, { url: '/v2/dogs' });
  await assertCompresses(api, { url: '/v1/dogs.xml' });
  await assertCompresses(api, { url: '/v2/dogs', headers: { accept: 'application/xml' } });
  const xml = await api.request({ url: '/v2/dogs.xml', headers: { 'accept-encoding': 'gzip' } });
  assert.equal(xml.headers['content-type'], 'application/xml; charset=utf-8');
  assert.match(decoded(xml), /^<\?xml/);
});

test('the OpenAPI documents, the open adoption list and the portal home page are compressed', async (t) => {
  const api = await withDogs(t);
  await assertCompresses(api, { url: '/portal/openapi/v1.json', token: null });
  await assertCompresses(api, { url: '/portal/openapi/v2.json', token: null });
  await assertCompresses(api, { url: '/v2/adoptions', token: null });
  await assertCompresses(api, { url: '/portal/', token: null });
});

test('an answer of 1 KiB or less is not compressed and does not vary on Accept-Encoding', async (t) => {
  const api = await build(t);
  const dog = await createDog(api, { name: 'Rex' });
  const response = await api.request({ url: `/v2/dogs/${dog.id}`, headers: { 'accept-encoding': 'gzip, br' } });
  assert.equal(response.statusCode, 200);
  assert.ok(response.rawPayload.length <= 1024);
  assert.equal(response.headers['content-encoding'], undefined);
  assert.equal(response.headers.vary, 'Accept');
  assert.doesNotMatch(String(response.headers.etag), /-(gzip|br)"$/);
  assert.equal(response.json().dog.name, 'Rex');
});

test('Accept-Encoding q-values choose the coding; q=0, identity or nothing known leaves the answer plain', async (t) => {
  const api = await withDogs(t);
  const cases: Array<[string, string | undefined]> = [
    ['gzip', 'gzip'],
    ['x-gzip', 'gzip'],
    ['GZIP', 'gzip'],
    ['gzip, deflate, br', 'br'],
    ['gzip, br;q=0.9', 'gzip'],
    ['gzip;q=0.5, br;q=0.8', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0, *', 'gzip'],
    ['*', 'br'],
    ['gzip;q=0', undefined],
    ['*;q=0', undefined],
    ['gzip;q=0.5, identity', undefined],
    ['identity', undefined],
    ['deflate', undefined],
    ['', undefined],
    ['gzip;q=2', undefined],
  ];
  const plain = await api.request({ url: '/v2/dogs' });
  const etag = String(plain.headers.etag);
  for (const [header, coding] of cases) {
    const response = await api.request({ url: '/v2/dogs', headers: { 'accept-encoding': header } });
    assert.equal(response.statusCode, 200, header);
    assert.equal(response.headers['content-encoding'], coding, header);
    assert.equal(response.headers.vary, 'Accept, Accept-Encoding', header);
    assert.equal(response.headers.etag, coding === undefined ? etag : `${etag.slice(0, -1)}-${coding}"`, header);
    assert.equal(decoded(response), plain.body, header);
  }
});
