import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build, newAccount } from '../helper.js';

test('GET /adoptions lists adoptable dogs of every tenant, public fields only, with no token', async (t) => {
  const api = await build(t);
  const other = await newAccount(api.app, api.storage);
  await api.request({
    method: 'POST',
    url: '/v1/dogs',
    form: { name: 'Rex', furColor: 'brown', location: 'Oslo', state: 'adoptable' },
  });
  await api.request({ method: 'POST', url: '/v1/dogs', form: { name: 'Kept', state: 'registered' } });
  await api.request({
    method: 'POST',
    url: '/v1/dogs',
    form: { name: 'Bella', furColor: 'black', location: 'Bergen', state: 'adoptable' },
    token: other.token,
  });
  const response = await api.request({ url: '/v1/adoptions', token: null });
  assert.equal(response.statusCode, 200);
  assert.equal(response.headers['access-control-allow-origin'], '*');
  const dogs = response.json().dogs.map((entry: { dog: Record<string, unknown> }) => entry.dog);
  assert.deepEqual(
    dogs.map((dog: { name: string }) => dog.name),
    ['Rex', 'Bella'],
  );
  for (const dog of dogs) assert.deepEqual(Object.keys(dog), ['id', 'name', 'furColor', 'location']);
  const filtered = await api.request({ url: '/v2/adoptions.xml?color=BLACK&fields=name', token: null });
  assert.match(filtered.body, /<dogs><dog><name>Bella<\/name><\/dog><\/dogs>$/);
  const sorted = await api.request({
    url: '/v1/adoptions?sort=-name&limit=1',
    token: null,
    headers: { prefer: 'count=exact' },
  });
  assert.equal(sorted.headers['x-total-count'], '2');
  assert.match(String(sorted.headers.link), /rel="last"/);
  assert.equal(sorted.json().dogs[0].dog.name, 'Rex');
  assert.match(String(sorted.headers.link), /rel="next"/);
});

test('credentials sent to /adoptions are ignored, even bad ones', async (t) => {
  const api = await build(t);
  assert.equal((await api.request({ url: '/v1/adoptions', token: 'garbage' })).statusCode, 200);
  assert.equal((await api.request({ url: '/v1/adoptions' })).statusCode, 200);
});

test('/adoptions accepts only its parameters and public fields', async (t) => {
  const api = await build(t);
  for (const [url, code] of [
    ['/v1/adoptions?fields=ownerId', 2003],
    ['/v1/adoptions?fields=createdAt', 2003],
    ['/v1/adoptions?fields=name,owner(name)', 2003],
    ['/v1/adoptions?state=lost', 2000],
    ['/v1/adoptions?sort=createdAt', 2006],
    ['/v1/adoptions?sort=-updatedAt', 2006],
  ] as const) {
    const response = await api.request({ url, token: null });
    assert.equal(response.statusCode, 400, url);
    assert.equal(response.json().code, code, url);
    if (code !== 2000)
      assert.match(
        response.json().message,
        /id, name, furColor, location[.;]/,
        `${url}: the message names the public fields, and only them`,
      );
    assert.equal(response.headers['access-control-allow-origin'], '*');
  }
  const post = await api.request({ method: 'POST', url: '/v1/adoptions', form: { name: 'x' }, token: null });
  assert.equal(post.statusCode, 400);
  assert.equal(post.headers.allow, 'GET, HEAD');
});

test('a CORS preflight of /adoptions answers 200', async (t) => {
  const api = await build(t);
  const response = await api.request({
    method: 'OPTIONS',
    url: '/v1/adoptions',
    token: null,
    headers: {
      origin: 'https://shelter.example',
      'access-control-request-method': 'GET',
      'access-control-request-headers': 'accept',
    },
  });
  assert.equal(response.statusCode, 200);
  assert.equal(response.headers['access-control-allow-origin'], '*');
  assert.match(String(response.headers['access-control-allow-methods']), /GET/);
  assert.equal(
    response.headers['access-control-allow-headers'],
    'Authorization, Content-Type, Accept, If-Match, If-None-Match, Idempotency-Key',
  );
});
