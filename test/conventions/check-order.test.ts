// The order of checks of SPEC §8: token (401) before parameters and body (400), parameters and body before the item (404).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build, createDog } from '../helper.js';

test("a POST with a malformed JSON body and no token is a 401, not the body's 400", async (t) => {
  const api = await build(t);
  const response = await api.request({
    method: 'POST',
    url: '/v2/dogs',
    token: null,
    headers: { 'content-type': 'application/json' },
    body: '{"name": ',
  });
  assert.equal(response.statusCode, 401);
  assert.equal(response.json().code, 5000);
  assert.match(String(response.headers['www-authenticate']), /^Bearer/);
});

test("a POST with a malformed JSON body and a token is the body's 400 (3000) and creates nothing", async (t) => {
  const api = await build(t);
  const response = await api.request({
    method: 'POST',
    url: '/v2/dogs',
    headers: { 'content-type': 'application/json' },
    body: '{"name": ',
  });
  assert.equal(response.statusCode, 400);
  assert.equal(response.json().code, 3000);
  assert.match(response.json().message, /does not parse/);
  assert.equal((await api.request({ url: '/v2/dogs/count' })).json().count, 0);
});

test('a POST whose body is of an unsupported type and no token is a 401', async (t) => {
  const api = await build(t);
  const response = await api.request({
    method: 'POST',
    url: '/v2/dogs',
    token: null,
    headers: { 'content-type': 'text/plain' },
    body: 'name=Rex',
  });
  assert.equal(response.statusCode, 401);
});

test("a nested list of an absent parent with an invalid parameter is the parameter's 400, not the 404", async (t) => {
  const api = await build(t);
  const cases: Array<[string, number]> = [
    ['/v1/owners/absent/dogs?limit=101', 2001],
    ['/v1/owners/absent/dogs?offset=-1', 2002],
    ['/v1/owners/absent/dogs?sort=nothing', 2006],
    ['/v1/owners/absent/dogs?state=gone', 2005],
    ['/v1/owners/absent/dogs?colour=brown', 2000],
    ['/v1/owners/absent/dogs/search?q=rex&limit=0', 2001],
    ['/v1/dogs/absent/foods?limit=101', 2001],
  ];
  for (const [url, code] of cases) {
    const response = await api.request({ url });
    assert.equal(response.statusCode, 400, url);
    assert.equal(response.json().code, code, url);
  }
  const absent = await api.request({ url: '/v1/owners/absent/dogs?limit=100' });
  assert.equal(absent.statusCode, 404);
  assert.equal(absent.json().code, 4000);
});

test("a PUT to an absent or malformed id with an invalid body is the body's 400, not the 404", async (t) => {
  const api = await build(t);
  for (const id of ['absent', 'bad~id']) {
    const response = await api.request({
      method: 'PUT',
      url: `/v2/dogs/${encodeURIComponent(id)}`,
      json: { colour: 'brown' },
    });
    assert.equal(response.statusCode, 400, id);
    assert.equal(response.json().code, 3003, id);
  }
  const valid = await api.request({ method: 'PUT', url: '/v2/dogs/absent', json: { name: 'Max' } });
  assert.equal(valid.statusCode, 404);
});

test("a POST to the dogs of an absent owner with an invalid body is the body's 400, not the 404", async (t) => {
  const api = await build(t);
  const invalid = await api.request({ method: 'POST', url: '/v2/owners/absent/dogs', json: { furColor: 'brown' } });
  assert.equal(invalid.statusCode, 400);
  assert.equal(invalid.json().code, 3004);
  const valid = await api.request({ method: 'POST', url: '/v2/owners/absent/dogs', json: { name: 'Rex' } });
  assert.equal(valid.statusCode, 404);
  const dog = await createDog(api, { name: 'Rex' });
  const unknown = await api.request({ url: `/v2/dogs/${dog.id}?fields=nothing` });
  assert.equal(unknown.statusCode, 400);
  assert.equal(unknown.json().code, 2003);
});
