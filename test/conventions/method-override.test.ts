import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build, createDog } from '../helper.js';

test('GET with method=post creates from the query string and is marked not cacheable', async (t) => {
  const api = await build(t);
  const response = await api.request({ url: '/v1/dogs?method=POST&name=Rex&furColor=brown' });
  assert.equal(response.statusCode, 200);
  assert.equal(response.headers['cache-control'], 'no-store');
  assert.equal(response.json().dog.name, 'Rex');
  assert.equal(response.json().dog.furColor, 'brown');
  assert.equal(response.headers.etag, undefined);
});

test('GET with method=put changes the item and method=delete deletes it', async (t) => {
  const api = await build(t);
  const dog = await createDog(api, { name: 'Rex', location: 'Oslo' });
  const put = await api.request({ url: `/v1/dogs/${dog.id}?method=put&name=Max` });
  assert.equal(put.statusCode, 200);
  assert.equal(put.headers['cache-control'], 'no-store');
  assert.equal(put.json().dog.name, 'Max');
  assert.equal(put.json().dog.location, 'Oslo');
  const del = await api.request({ url: `/v1/dogs/${dog.id}.xml?method=delete` });
  assert.equal(del.statusCode, 200);
  assert.equal(del.body, '');
  assert.equal((await api.request({ url: `/v1/dogs/${dog.id}` })).statusCode, 404);
});

test('an overridden GET checks its query fields by the body rules', async (t) => {
  const api = await build(t);
  const response = await api.request({ url: '/v1/dogs?method=post&name=Rex&colour=brown' });
  assert.equal(response.statusCode, 400);
  assert.equal(response.json().code, 3003);
  assert.equal(response.headers['cache-control'], 'no-store');
  assert.equal((await api.request({ url: '/v1/dogs/count' })).json().count, 0);
});

test('POST with X-HTTP-Method-Override or a method field acts as that method', async (t) => {
  const api = await build(t);
  const dog = await createDog(api, { name: 'Rex' });
  const put = await api.request({
    method: 'POST',
    url: `/v1/dogs/${dog.id}`,
    headers: { 'x-http-method-override': 'PUT' },
    form: { name: 'Max' },
  });
  assert.equal(put.statusCode, 200);
  assert.equal(put.json().dog.name, 'Max');
  assert.equal(put.headers['cache-control'], undefined);
  const viaBody = await api.request({
    method: 'POST',
    url: `/v1/dogs/${dog.id}`,
    form: { method: 'put', location: 'Oslo' },
  });
  assert.equal(viaBody.json().dog.location, 'Oslo');
  const del = await api.request({ method: 'POST', url: `/v1/dogs/${dog.id}?method=delete` });
  assert.equal(del.statusCode, 200);
  assert.equal((await api.request({ url: `/v1/dogs/${dog.id}` })).statusCode, 404);
});

test('X-HTTP-Method-Override on a GET is not an override', async (t) => {
  const api = await build(t);
  const response = await api.request({ url: '/v1/dogs', headers: { 'x-http-method-override': 'POST' } });
  assert.equal(response.statusCode, 200);
  assert.deepEqual(response.json(), { dogs: [] });
});

test('an override to a method the path does not offer is a 400 with Allow', async (t) => {
  const api = await build(t);
  const dog = await createDog(api, { name: 'Rex' });
  const cases = [
    [`/v1/dogs?method=delete`, 'GET, HEAD, POST'],
    [`/v1/dogs/${dog.id}?method=post&name=x`, 'GET, HEAD, PUT, DELETE'],
    ['/v1/dogs/count?method=put', 'GET, HEAD'],
  ] as const;
  for (const [url, allow] of cases) {
    const response = await api.request({ url });
    assert.equal(response.statusCode, 400, url);
    assert.equal(response.json().code, 1003);
    assert.equal(response.headers.allow, allow);
  }
  const bogus = await api.request({ url: '/v1/dogs?method=patch' });
  assert.equal(bogus.statusCode, 400);
  assert.equal(bogus.json().code, 1005);
  assert.equal((await api.request({ url: '/v1/dogs/count' })).json().count, 1);
});

test('an overridden GET sent as a prefetch is refused and changes nothing', async (t) => {
  const api = await build(t);
  const dog = await createDog(api, { name: 'Rex' });
  for (const headers of [
    { 'sec-purpose': 'prefetch' },
    { purpose: 'prefetch' },
    { 'sec-purpose': 'prefetch;prerender' },
  ] as Array<Record<string, string>>) {
    const response = await api.request({ url: `/v1/dogs/${dog.id}?method=delete`, headers });
    assert.equal(response.statusCode, 400);
    assert.equal(response.json().code, 1006);
  }
  assert.equal((await api.request({ url: `/v1/dogs/${dog.id}` })).statusCode, 200);
  const plainPrefetch = await api.request({ url: `/v1/dogs/${dog.id}`, headers: { 'sec-purpose': 'prefetch' } });
  assert.equal(plainPrefetch.statusCode, 200);
});

test('suppress_response_codes works on overridden requests and in XML', async (t) => {
  const api = await build(t);
  const response = await api.request({ url: '/v1/dogs.xml?method=put&suppress_response_codes=true' });
  assert.equal(response.statusCode, 200);
  assert.match(response.body, /<error><response_code>400<\/response_code>/);
});

test('method on a PUT or DELETE is refused with 1005 and changes nothing, whatever its value', async (t) => {
  const api = await build(t);
  const dog = await createDog(api, { name: 'Rex' });
  for (const value of ['bogus', 'delete', 'put', 'DELETE']) {
    const del = await api.request({ method: 'DELETE', url: `/v2/dogs/${dog.id}?method=${value}` });
    assert.equal(del.statusCode, 400, `DELETE ?method=${value}`);
    assert.equal(del.json().code, 1005);
    assert.match(del.json().message, /applies only to a GET or a POST; this request is a DELETE/);
    const put = await api.request({ method: 'PUT', url: `/v2/dogs/${dog.id}?method=${value}`, json: { name: 'Max' } });
    assert.equal(put.statusCode, 400, `PUT ?method=${value}`);
    assert.equal(put.json().code, 1005);
  }
  const header = await api.request({
    method: 'PUT',
    url: `/v2/dogs/${dog.id}`,
    headers: { 'x-http-method-override': 'DELETE' },
    json: { name: 'Max' },
  });
  assert.equal(header.statusCode, 400);
  assert.equal(header.json().code, 1005);
  const kept = await api.request({ url: `/v2/dogs/${dog.id}` });
  assert.equal(kept.statusCode, 200);
  assert.equal(kept.json().dog.name, 'Rex');
});

test('an override is refused before the token is checked, as a method error (SPEC §8)', async (t) => {
  const api = await build(t);
  const response = await api.request({ method: 'DELETE', url: '/v2/dogs/abc?method=bogus', token: null });
  assert.equal(response.statusCode, 400);
  assert.equal(response.json().code, 1005);
});

test('a PUT and a DELETE without an override still work', async (t) => {
  const api = await build(t);
  const dog = await createDog(api, { name: 'Rex' });
  const put = await api.request({ method: 'PUT', url: `/v2/dogs/${dog.id}`, json: { name: 'Max' } });
  assert.equal(put.statusCode, 200);
  assert.equal(put.json().dog.name, 'Max');
  const del = await api.request({ method: 'DELETE', url: `/v2/dogs/${dog.id}` });
  assert.equal(del.statusCode, 200);
  assert.equal(del.body, '');
});

test('a POST naming two different overrides is refused and changes nothing; the same one twice is fine', async (t) => {
  const api = await build(t);
  const dog = await createDog(api, { name: 'Rex' });
  const conflicts: Array<Parameters<typeof api.request>[0]> = [
    {
      method: 'POST',
      url: `/v2/dogs/${dog.id}?method=delete`,
      headers: { 'x-http-method-override': 'PUT' },
      form: { name: 'Max' },
    },
    { method: 'POST', url: `/v2/dogs/${dog.id}?method=put`, form: { method: 'delete', name: 'Max' } },
    {
      method: 'POST',
      url: `/v2/dogs/${dog.id}`,
      headers: { 'x-http-method-override': 'DELETE' },
      form: { method: 'put', name: 'Max' },
    },
  ];
  for (const request of conflicts) {
    const response = await api.request(request);
    assert.equal(response.statusCode, 400, request.url);
    assert.equal(response.json().code, 1005);
    assert.match(response.json().message, /named more than once, differently/);
  }
  const kept = await api.request({ url: `/v2/dogs/${dog.id}` });
  assert.equal(kept.statusCode, 200);
  assert.equal(kept.json().dog.name, 'Rex');
  const agreed = await api.request({
    method: 'POST',
    url: `/v2/dogs/${dog.id}?method=PUT`,
    headers: { 'x-http-method-override': 'put' },
    form: { name: 'Max' },
  });
  assert.equal(agreed.statusCode, 200);
  assert.equal(agreed.json().dog.name, 'Max');
});

test('on an overridden POST, an unknown query parameter lists method among the accepted ones', async (t) => {
  const api = await build(t);
  const dog = await createDog(api, { name: 'Rex' });
  const response = await api.request({
    method: 'POST',
    url: `/v2/dogs/${dog.id}?method=put&colour=x`,
    form: { name: 'Max' },
  });
  assert.equal(response.statusCode, 400);
  assert.equal(response.json().code, 2000);
  assert.equal(
    response.json().message,
    'The query parameter "colour" is not accepted here. Accepted parameters: suppress_response_codes, access_token, method.',
  );
  assert.equal((await api.request({ url: `/v2/dogs/${dog.id}` })).json().dog.name, 'Rex');
});
