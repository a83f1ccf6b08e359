import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build, createDog } from '../helper.js';

test('GET answers carry a strong ETag that depends on the items, the fields and the format', async (t) => {
  const api = await build(t);
  const dog = await createDog(api, { name: 'Rex' });
  const plain = await api.request({ url: `/v1/dogs/${dog.id}` });
  const etag = String(plain.headers.etag);
  assert.match(etag, /^"[A-Za-z0-9_-]+"$/);
  assert.equal((await api.request({ url: `/v1/dogs/${dog.id}` })).headers.etag, etag);
  const tags = new Set([etag]);
  tags.add(String((await api.request({ url: `/v1/dogs/${dog.id}?fields=name` })).headers.etag));
  tags.add(String((await api.request({ url: `/v1/dogs/${dog.id}.xml` })).headers.etag));
  await api.request({ method: 'PUT', url: `/v1/dogs/${dog.id}`, form: { name: 'Max' } });
  tags.add(String((await api.request({ url: `/v1/dogs/${dog.id}` })).headers.etag));
  assert.equal(tags.size, 4);
  const list = await api.request({ url: '/v1/dogs' });
  assert.match(String(list.headers.etag), /^"/);
  assert.match(String((await api.request({ url: '/v1/dogs/count' })).headers.etag), /^"/);
});

test('If-None-Match with the current tag gives 304 without a body; a stale tag gives 200', async (t) => {
  const api = await build(t);
  const dog = await createDog(api, { name: 'Rex' });
  const first = await api.request({ url: `/v1/dogs/${dog.id}` });
  const etag = String(first.headers.etag);
  const cached = await api.request({ url: `/v1/dogs/${dog.id}`, headers: { 'if-none-match': etag } });
  assert.equal(cached.statusCode, 304);
  assert.equal(cached.body, '');
  assert.equal(cached.headers.etag, etag);
  const weak = await api.request({ url: `/v1/dogs/${dog.id}`, headers: { 'if-none-match': `"other", W/${etag}` } });
  assert.equal(weak.statusCode, 304);
  const stale = await api.request({ url: `/v1/dogs/${dog.id}`, headers: { 'if-none-match': '"stale"' } });
  assert.equal(stale.statusCode, 200);
  assert.deepEqual(stale.json(), first.json());
  const list = await api.request({ url: '/v1/dogs' });
  assert.equal(
    (await api.request({ url: '/v1/dogs', headers: { 'if-none-match': String(list.headers.etag) } })).statusCode,
    304,
  );
});

test('with suppressed codes a matching If-None-Match gives 200 with the full body', async (t) => {
  const api = await build(t);
  const dog = await createDog(api, { name: 'Rex' });
  const url = `/v1/dogs/${dog.id}?suppress_response_codes=true`;
  const etag = String((await api.request({ url })).headers.etag);
  const response = await api.request({ url, headers: { 'if-none-match': etag } });
  assert.equal(response.statusCode, 200);
  assert.deepEqual(response.json(), { dog });
});

test('If-Match with the current tag lets a PUT or DELETE through', async (t) => {
  const api = await build(t);
  const dog = await createDog(api, { name: 'Rex' });
  const etag = String((await api.request({ url: `/v1/dogs/${dog.id}` })).headers.etag);
  const put = await api.request({
    method: 'PUT',
    url: `/v1/dogs/${dog.id}`,
    form: { name: 'Max' },
    headers: { 'if-match': etag },
  });
  assert.equal(put.statusCode, 200);
  const xmlTag = String((await api.request({ url: `/v1/dogs/${dog.id}.xml` })).headers.etag);
  const del = await api.request({ method: 'DELETE', url: `/v1/dogs/${dog.id}.xml`, headers: { 'if-match': xmlTag } });
  assert.equal(del.statusCode, 200);
});

test('If-Match with a stale, weak or fields-only tag is a 400 and changes nothing', async (t) => {
  const api = await build(t);
  const dog = await createDog(api, { name: 'Rex' });
  const etag = String((await api.request({ url: `/v1/dogs/${dog.id}` })).headers.etag);
  const fieldsTag = String((await api.request({ url: `/v1/dogs/${dog.id}?fields=name` })).headers.etag);
  await api.request({ method: 'PUT', url: `/v1/dogs/${dog.id}`, form: { location: 'Oslo' } });
  const current = (await api.request({ url: `/v1/dogs/${dog.id}` })).json();
  const currentTag = String((await api.request({ url: `/v1/dogs/${dog.id}` })).headers.etag);
  for (const tag of [etag, `W/${currentTag}`, fieldsTag]) {
    const put = await api.request({
      method: 'PUT',
      url: `/v1/dogs/${dog.id}`,
      form: { name: 'Max' },
      headers: { 'if-match': tag },
    });
    assert.equal(put.statusCode, 400, tag);
    assert.equal(put.json().code, 4001);
    const del = await api.request({ method: 'DELETE', url: `/v1/dogs/${dog.id}`, headers: { 'if-match': tag } });
    assert.equal(del.statusCode, 400);
    assert.equal(del.json().code, 4001);
  }
  assert.deepEqual((await api.request({ url: `/v1/dogs/${dog.id}` })).json(), current);
});

test('If-Match on a missing item is a 404', async (t) => {
  const api = await build(t);
  const response = await api.request({ method: 'DELETE', url: '/v1/dogs/missing', headers: { 'if-match': '"x"' } });
  assert.equal(response.statusCode, 404);
});
