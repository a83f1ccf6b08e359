import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build, type TestApp } from '../helper.js';

async function count(api: TestApp): Promise<number> {
  return (await api.request({ url: '/v1/dogs/count' })).json().count;
}

test('a retry with the same key and body replays the first answer and creates nothing', async (t) => {
  const api = await build(t);
  const headers = { 'idempotency-key': 'key-1' };
  const first = await api.request({ method: 'POST', url: '/v2/dogs', form: { name: 'Rex' }, headers });
  assert.equal(first.statusCode, 201);
  const retry = await api.request({
    method: 'POST',
    url: '/v2/dogs',
    json: { name: 'Rex' },
    headers: { ...headers, accept: 'application/xml' },
  });
  assert.equal(retry.statusCode, 201);
  assert.equal(retry.headers.location, first.headers.location);
  assert.equal(retry.headers['idempotent-replayed'], 'true');
  assert.match(retry.body, new RegExp(`<id>${first.json().dog.id}</id>`));
  assert.equal(await count(api), 1);
});

test("a retry may send a set of ids in the other encoding: a form's a,b is JSON's [a, b]", async (t) => {
  const api = await build(t);
  const foods = [
    (await api.request({ method: 'POST', url: '/v2/foods', json: { name: 'A' } })).json().food.id,
    (await api.request({ method: 'POST', url: '/v2/foods', json: { name: 'B' } })).json().food.id,
  ];
  const headers = { 'idempotency-key': 'key-ids' };
  const form = { name: 'Rex', foodIds: foods.join(',') };
  const first = await api.request({ method: 'POST', url: '/v2/dogs', form, headers });
  assert.equal(first.statusCode, 201, first.body);
  const retry = await api.request({ method: 'POST', url: '/v2/dogs', json: { name: 'Rex', foodIds: foods }, headers });
  assert.equal(retry.statusCode, 201, retry.body);
  assert.equal(retry.headers['idempotent-replayed'], 'true');
  const other = await api.request({
    method: 'POST',
    url: '/v2/dogs',
    json: { name: 'Rex', foodIds: [foods[0]] },
    headers,
  });
  assert.equal(other.statusCode, 400);
  assert.equal(other.json().code, 4002);
  assert.equal(await count(api), 1);
});

test('the same key with another body is a 400 and creates nothing', async (t) => {
  const api = await build(t);
  const headers = { 'idempotency-key': 'key-2' };
  await api.request({ method: 'POST', url: '/v1/dogs', form: { name: 'Rex' }, headers });
  const other = await api.request({ method: 'POST', url: '/v1/dogs', form: { name: 'Fido' }, headers });
  assert.equal(other.statusCode, 400);
  assert.equal(other.json().code, 4002);
  assert.equal(await count(api), 1);
});

test('a failed request does not use up its key', async (t) => {
  const api = await build(t);
  const headers = { 'idempotency-key': 'key-3' };
  const bad = await api.request({ method: 'POST', url: '/v1/dogs', form: { furColor: 'brown' }, headers });
  assert.equal(bad.statusCode, 400);
  const good = await api.request({ method: 'POST', url: '/v1/dogs', form: { name: 'Rex' }, headers });
  assert.equal(good.statusCode, 200);
  assert.equal(await count(api), 1);
});

test('of two concurrent requests with one key exactly one creates; the other replays or gets a retryable 400', async (t) => {
  const api = await build(t);
  const headers = { 'idempotency-key': 'key-4' };
  const answers = await Promise.all(
    [1, 2, 3].map(() => api.request({ method: 'POST', url: '/v1/dogs', form: { name: 'Rex' }, headers })),
  );
  assert.equal(await count(api), 1);
  const created = answers.filter((answer) => answer.statusCode === 200);
  assert.ok(created.length >= 1);
  const ids = new Set(created.map((answer) => answer.json().dog.id));
  assert.equal(ids.size, 1);
  for (const answer of answers.filter((a) => a.statusCode !== 200)) {
    assert.equal(answer.statusCode, 400);
    assert.equal(answer.json().code, 4003);
  }
});

test('keys are per path: the same key on another path is a misuse', async (t) => {
  const api = await build(t);
  const headers = { 'idempotency-key': 'key-5' };
  await api.request({ method: 'POST', url: '/v1/dogs', form: { name: 'Rex' }, headers });
  const v2 = await api.request({ method: 'POST', url: '/v2/dogs', form: { name: 'Rex' }, headers });
  assert.equal(v2.statusCode, 400);
  assert.equal(v2.json().code, 4002);
});

test('an unusable key is a 400', async (t) => {
  const api = await build(t);
  const response = await api.request({
    method: 'POST',
    url: '/v1/dogs',
    form: { name: 'Rex' },
    headers: { 'idempotency-key': 'x'.repeat(256) },
  });
  assert.equal(response.statusCode, 400);
  assert.equal(response.json().code, 2008);
  assert.equal(await count(api), 0);
});

test('a retry on the same path with a trailing slash is the same request', async (t) => {
  const api = await build(t);
  const headers = { 'idempotency-key': 'key-6' };
  const first = await api.request({ method: 'POST', url: '/v1/dogs', form: { name: 'Rex' }, headers });
  const retry = await api.request({ method: 'POST', url: '/v1/dogs/', form: { name: 'Rex' }, headers });
  assert.equal(retry.statusCode, 200);
  assert.equal(retry.json().dog.id, first.json().dog.id);
  assert.equal(await count(api), 1);
});
