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
  for (let i = 0; i < 12; i++)
    await createDog(api, { name: `Dog ${i} of the compression test`, furColor: 'brown', state: 'adoptable' });
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

test('the OpenAPI documents, the open adoption list, the portal home page and /metrics are compressed', async (t) => {
  const api = await withDogs(t);
  await assertCompresses(api, { url: '/portal/openapi/v1.json', token: null });
  await assertCompresses(api, { url: '/portal/openapi/v2.json', token: null });
  await assertCompresses(api, { url: '/v2/adoptions', token: null });
  await assertCompresses(api, { url: '/portal/', token: null });
  const metrics = await api.request({ url: '/metrics', token: null, headers: { 'accept-encoding': 'gzip' } });
  assert.equal(metrics.statusCode, 200);
  assert.equal(metrics.headers['content-encoding'], 'gzip');
  assert.equal(metrics.headers.vary, 'Accept-Encoding');
  assert.match(decoded(metrics), /^# HELP /);
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
  const again = await api.request({
    url: `/v2/dogs/${dog.id}`,
    headers: { 'accept-encoding': 'gzip, br', 'if-none-match': String(response.headers.etag) },
  });
  assert.equal(again.statusCode, 304);
  assert.equal(again.headers.etag, response.headers.etag);
  assert.equal(again.headers.vary, 'Accept');
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
    assert.equal(response.headers.vary, 'Accept, Prefer, Accept-Encoding', header);
    assert.equal(response.headers.etag, coding === undefined ? etag : `${etag.slice(0, -1)}-${coding}"`, header);
    assert.equal(decoded(response), plain.body, header);
  }
});

/** The ETag of the answer as `coding` compresses it. */
function coded(etag: unknown, coding: string): string {
  return `${String(etag).slice(0, -1)}-${coding}"`;
}

test('If-None-Match with the plain or the compressed ETag answers 304: a page, the adoptions, an OpenAPI document', async (t) => {
  const api = await withDogs(t);
  for (const url of ['/v2/dogs', '/v1/dogs.xml', '/v2/adoptions', '/portal/openapi/v2.json']) {
    const token = url === '/v2/dogs' || url === '/v1/dogs.xml' ? undefined : null;
    const plain = await api.request({ url, token });
    const etag = String(plain.headers.etag);
    for (const coding of ['gzip', 'br']) {
      const compressed = await api.request({ url, token, headers: { 'accept-encoding': coding } });
      assert.equal(compressed.headers.etag, coded(etag, coding), url);
      for (const sent of [etag, coded(etag, coding), `W/${coded(etag, coding)}`, `"other", ${coded(etag, 'gzip')}`]) {
        const again = await api.request({ url, token, headers: { 'accept-encoding': coding, 'if-none-match': sent } });
        assert.equal(again.statusCode, 304, `${url} ${sent}`);
        assert.equal(again.rawPayload.length, 0);
        assert.equal(again.headers['content-encoding'], undefined);
        // A 304 carries the ETag and Vary of the answer it stands for: compressed, for this request.
        assert.equal(again.headers.etag, coded(etag, coding), `${url} ${sent}`);
        assert.equal(again.headers.vary, plain.headers.vary, `${url} ${sent}`);
      }
    }
    const withoutCoding = await api.request({ url, token, headers: { 'if-none-match': coded(etag, 'br') } });
    assert.equal(withoutCoding.statusCode, 304, url);
    assert.equal(withoutCoding.headers.etag, etag, url);
    assert.equal(withoutCoding.headers.vary, plain.headers.vary, url);
    const changed = await api.request({
      url,
      token,
      headers: { 'accept-encoding': 'gzip', 'if-none-match': coded('"other"', 'gzip') },
    });
    assert.equal(changed.statusCode, 200, url);
    assert.equal(decoded(changed), plain.body, url);
  }
});

test('If-Match on PUT and DELETE takes the plain or the compressed ETag; another tag is still refused (4001)', async (t) => {
  const api = await build(t);
  const dog = await createDog(api, { name: 'Rex' });
  const url = `/v2/dogs/${dog.id}`;
  const read = async (): Promise<string> => String((await api.request({ url })).headers.etag);
  for (const coding of ['gzip', 'br']) {
    const put = await api.request({
      method: 'PUT',
      url,
      json: { name: `Rex ${coding}` },
      headers: { 'if-match': coded(await read(), coding), 'accept-encoding': coding },
    });
    assert.equal(put.statusCode, 200, coding);
    assert.equal(put.json().dog.name, `Rex ${coding}`);
  }
  const stale = coded(await read(), 'gzip');
  await api.request({ method: 'PUT', url, json: { name: 'Max' }, headers: { 'if-match': await read() } });
  const refused = await api.request({ method: 'PUT', url, json: { name: 'Bella' }, headers: { 'if-match': stale } });
  assert.equal(refused.statusCode, 400);
  assert.equal(refused.json().code, 4001);
  const weak = await api.request({ method: 'DELETE', url, headers: { 'if-match': `W/${coded(await read(), 'br')}` } });
  assert.equal(weak.statusCode, 400);
  assert.equal(weak.json().code, 4001);
  const deleted = await api.request({ method: 'DELETE', url, headers: { 'if-match': coded(await read(), 'br') } });
  assert.equal(deleted.statusCode, 200);
  assert.equal((await api.request({ url })).statusCode, 404);
});

test('COMPRESSION=off: no answer is compressed and no Vary: Accept-Encoding is added', async (t) => {
  const api = await withDogs(t, { COMPRESSION: 'off' });
  for (const url of ['/v2/dogs', '/v2/dogs.xml', '/portal/openapi/v2.json', '/portal/']) {
    const response = await api.request({ url, headers: { 'accept-encoding': 'gzip, br' } });
    assert.equal(response.statusCode, 200, url);
    assert.ok(response.rawPayload.length > 1024, url);
    assert.equal(response.headers['content-encoding'], undefined, url);
    assert.doesNotMatch(String(response.headers.vary), /Accept-Encoding/, url);
    if (response.headers.etag !== undefined) assert.doesNotMatch(String(response.headers.etag), /-(gzip|br)"$/, url);
  }
});

test('HEAD answers with the headers of the compressed GET and no body', async (t) => {
  const api = await withDogs(t);
  for (const url of ['/v2/dogs', '/portal/openapi/v1.json']) {
    const headers = { 'accept-encoding': 'br' };
    const get = await api.request({ url, headers });
    const head = await api.request({ method: 'HEAD', url, headers });
    assert.equal(head.statusCode, 200, url);
    assert.equal(head.rawPayload.length, 0, url);
    for (const name of ['content-encoding', 'content-length', 'content-type', 'etag', 'vary'])
      assert.equal(head.headers[name], get.headers[name], `${url} ${name}`);
  }
});

test('suppressed status codes and method overrides keep working compressed', async (t) => {
  const api = await withDogs(t);
  const headers = { 'accept-encoding': 'gzip' };
  // A 400 whose message repeats a long value is over 1 KiB: compressed, with its status in the body when suppressed.
  const sort = 'a'.repeat(1100);
  const error = await api.request({ url: `/v2/dogs?sort=${sort}`, headers });
  assert.equal(error.statusCode, 400);
  assert.equal(error.headers['content-encoding'], 'gzip');
  assert.equal(error.headers['cache-control'], 'no-store');
  assert.equal(decoded(error), (await api.request({ url: `/v2/dogs?sort=${sort}` })).body);
  assert.equal(JSON.parse(decoded(error)).code, 2006);
  const suppressed = await api.request({ url: `/v2/dogs?sort=${sort}&suppress_response_codes=true`, headers });
  assert.equal(suppressed.statusCode, 200);
  assert.equal(suppressed.headers['content-encoding'], 'gzip');
  assert.equal(JSON.parse(decoded(suppressed)).response_code, '400');
  // A suppressed 304 is a 200 with the whole page, compressed like any other.
  const page = await api.request({ url: '/v2/dogs', headers });
  const full = await api.request({
    url: '/v2/dogs?suppress_response_codes=true',
    headers: { ...headers, 'if-none-match': String(page.headers.etag) },
  });
  assert.equal(full.statusCode, 200);
  assert.equal(full.headers['content-encoding'], 'gzip');
  assert.equal(decoded(full), decoded(page));
  // A method override acts as before, a small answer left plain.
  const dog = await createDog(api, { name: 'Rex' });
  const put = await api.request({ url: `/v2/dogs/${dog.id}?method=put&name=Max`, headers });
  assert.equal(put.statusCode, 200);
  assert.equal(put.headers['content-encoding'], undefined);
  assert.equal(put.json().dog.name, 'Max');
  const posted = await api.request({ url: '/v2/dogs?method=post&name=Bella', headers });
  assert.equal(posted.statusCode, 201);
  assert.equal(posted.json().dog.name, 'Bella');
});
