import { test } from 'node:test';
import assert from 'node:assert/strict';
import { XMLParser } from 'fast-xml-parser';
import { BASE, build, createDog } from '../helper.js';

const ID = /^[A-Za-z0-9_-]{16,}$/;

test('POST with a form body creates a dog and answers 200 with the dog envelope in v1', async (t) => {
  const api = await build(t);
  const response = await api.request({ method: 'POST', url: '/v1/dogs', form: { name: 'Rex', furColor: 'brown' } });
  assert.equal(response.statusCode, 200);
  assert.equal(response.headers.location, undefined);
  assert.match(String(response.headers['content-type']), /^application\/json; charset=utf-8/);
  const { dog } = response.json();
  assert.match(dog.id, ID);
  assert.deepEqual(Object.keys(dog), [
    'id',
    'name',
    'furColor',
    'state',
    'location',
    'ownerId',
    'veterinarianId',
    'createdAt',
    'updatedAt',
  ]);
  assert.equal(dog.name, 'Rex');
  assert.equal(dog.furColor, 'brown');
  assert.equal(dog.state, 'registered');
  assert.equal(dog.location, null);
  assert.equal(dog.createdAt, dog.updatedAt);
  assert.match(dog.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
});

test('POST with a JSON body in v2 answers 201 with an absolute Location of the new dog', async (t) => {
  const api = await build(t);
  const response = await api.request({ method: 'POST', url: '/v2/dogs', json: { name: 'Fido', state: 'adoptable' } });
  assert.equal(response.statusCode, 201);
  const { dog } = response.json();
  assert.equal(response.headers.location, `${BASE}/v2/dogs/${dog.id}`);
  assert.equal(dog.state, 'adoptable');
  const fetched = await api.request({ url: `/v2/dogs/${dog.id}` });
  assert.equal(fetched.statusCode, 200);
  assert.deepEqual(fetched.json(), { dog });
});

test('ids are opaque, distinct and not sequential', async (t) => {
  const api = await build(t);
  const ids = await Promise.all(['a', 'b', 'c', 'd'].map(async (name) => (await createDog(api, { name })).id!));
  assert.equal(new Set(ids).size, 4);
  for (const id of ids) {
    assert.match(id, ID);
    assert.ok(!/^\d+$/.test(id), `${id} looks like a number`);
    assert.ok(!id.includes('.'));
  }
});

test('GET one answers the dog, and 404 for an id that does not exist', async (t) => {
  const api = await build(t);
  const dog = await createDog(api, { name: 'Rex' });
  const found = await api.request({ url: `/v1/dogs/${dog.id}` });
  assert.equal(found.statusCode, 200);
  assert.deepEqual(found.json(), { dog });
  for (const id of ['nope', 'AAAAAAAAAAAAAAAAAAAAAA', 'weird!id']) {
    const missing = await api.request({ url: `/v1/dogs/${encodeURIComponent(id)}` });
    assert.equal(missing.statusCode, 404, id);
    assert.equal(missing.json().code, 4000);
  }
});

test('GET the collection answers the dogs envelope in creation order', async (t) => {
  const api = await build(t);
  const created = [];
  for (const name of ['Rex', 'Fido', 'Bella']) created.push(await createDog(api, { name }));
  const response = await api.request({ url: '/v1/dogs' });
  assert.equal(response.statusCode, 200);
  assert.deepEqual(response.json(), { dogs: created.map((dog) => ({ dog })) });
  const empty = await (await build(t)).request({ url: '/v1/dogs' });
  assert.deepEqual(empty.json(), { dogs: [] });
});

test('PUT changes only the fields given and keeps the others', async (t) => {
  const api = await build(t);
  const dog = await createDog(api, { name: 'Rex', furColor: 'brown', location: 'Oslo' });
  const response = await api.request({ method: 'PUT', url: `/v1/dogs/${dog.id}`, form: { name: 'Max' } });
  assert.equal(response.statusCode, 200);
  const updated = response.json().dog;
  assert.equal(updated.name, 'Max');
  assert.equal(updated.furColor, 'brown');
  assert.equal(updated.location, 'Oslo');
  assert.equal(updated.createdAt, dog.createdAt);
  assert.ok(updated.updatedAt >= dog.updatedAt!);
  const cleared = await api.request({
    method: 'PUT',
    url: `/v1/dogs/${dog.id}`,
    json: { location: null, furColor: '  ' },
  });
  assert.equal(cleared.json().dog.location, null);
  assert.equal(cleared.json().dog.furColor, null);
  assert.equal(cleared.json().dog.name, 'Max');
  const reread = await api.request({ url: `/v1/dogs/${dog.id}` });
  assert.deepEqual(reread.json(), cleared.json());
});

test('PUT of a missing dog is a 404 and creates nothing', async (t) => {
  const api = await build(t);
  const response = await api.request({ method: 'PUT', url: '/v2/dogs/missing123', form: { name: 'Max' } });
  assert.equal(response.statusCode, 404);
  assert.equal((await api.request({ url: '/v2/dogs/count' })).json().count, 0);
});

test('DELETE answers 200 with an empty body, and the dog is gone', async (t) => {
  const api = await build(t);
  const dog = await createDog(api, { name: 'Rex' });
  const response = await api.request({ method: 'DELETE', url: `/v1/dogs/${dog.id}` });
  assert.equal(response.statusCode, 200);
  assert.equal(response.body, '');
  assert.equal(response.headers['content-type'], undefined);
  assert.equal((await api.request({ url: `/v1/dogs/${dog.id}` })).statusCode, 404);
  const again = await api.request({ method: 'DELETE', url: `/v1/dogs/${dog.id}` });
  assert.equal(again.statusCode, 404);
  assert.equal(again.json().code, 4000);
});

test('GET /dogs/count counts the dogs, honouring the filters', async (t) => {
  const api = await build(t);
  await createDog(api, { name: 'Rex', furColor: 'Brown' });
  await createDog(api, { name: 'Fido', furColor: 'black' });
  await createDog(api, { name: 'Bella', furColor: 'brown', state: 'lost' });
  assert.deepEqual((await api.request({ url: '/v1/dogs/count' })).json(), { count: 3 });
  assert.deepEqual((await api.request({ url: '/v1/dogs/count?color=brown' })).json(), { count: 2 });
  assert.deepEqual((await api.request({ url: '/v1/dogs/count?color=brown&state=lost' })).json(), { count: 1 });
  const xml = await api.request({ url: '/v1/dogs/count.xml' });
  assert.match(xml.body, /<count>3<\/count>$/);
  const wrong = await api.request({ url: '/v1/dogs/count?limit=1' });
  assert.equal(wrong.statusCode, 400);
  assert.equal(wrong.json().code, 2000);
});

test('count is never taken for an id: PUT and DELETE on /dogs/count are method errors', async (t) => {
  const api = await build(t);
  for (const method of ['PUT', 'DELETE'] as const) {
    const response = await api.request({ method, url: '/v1/dogs/count', form: { name: 'x' } });
    assert.equal(response.statusCode, 400);
    assert.equal(response.json().code, 1003);
    assert.equal(response.headers.allow, 'GET, HEAD');
  }
});

test('v1 and v2 are one implementation: a dog created in one is read in the other', async (t) => {
  const api = await build(t);
  const dog = await createDog(api, { name: 'Rex' });
  const response = await api.request({ url: `/v2/dogs/${dog.id}` });
  assert.deepEqual(response.json(), { dog });
});

test('an overridden POST in v2 creates with 201 too', async (t) => {
  const api = await build(t);
  const response = await api.request({ url: '/v2/dogs?method=post&name=Rex' });
  assert.equal(response.statusCode, 201);
  assert.match(String(response.headers.location), /\/v2\/dogs\/[A-Za-z0-9_-]+$/);
});

test('the XML representation of one dog and of the collection follows the seed envelopes', async (t) => {
  const api = await build(t);
  const dog = await createDog(api, { name: 'Rex & Co', furColor: 'brown' });
  const one = await api.request({ url: `/v1/dogs/${dog.id}.xml` });
  assert.equal(one.statusCode, 200);
  assert.match(String(one.headers['content-type']), /^application\/xml; charset=utf-8/);
  const parser = new XMLParser({ parseTagValue: false });
  assert.deepEqual(parser.parse(one.body).dog, { ...dog, location: '', ownerId: '', veterinarianId: '' });
  assert.match(one.body, /<name>Rex &amp; Co<\/name>/);
  const list = await api.request({ url: '/v1/dogs', headers: { accept: 'application/xml' } });
  assert.equal(parser.parse(list.body).dogs.dog.id, dog.id);
});

test('a page of the collection carries each dog byte for byte as GET one does, with and without fields, in JSON and XML', async (t) => {
  const api = await build(t);
  const names = ['Rex "the \\ dog"', 'slash / and 𝄞 ™', 'Åsa 🐕 <&> \u2028'];
  const ids: string[] = [];
  for (const name of names) ids.push((await createDog(api, { name, furColor: 'brown' })).id!);
  const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';
  for (const query of ['', '?fields=name,id', '?fields=updatedAt,furColor,ownerId']) {
    const ones = await Promise.all(ids.map((id) => api.request({ url: `/v1/dogs/${id}${query}` })));
    const list = await api.request({ url: `/v1/dogs${query}` });
    assert.equal(list.body, `{"dogs":[${ones.map((one) => one.body).join(',')}]}`, `JSON ${query}`);
    const xmlOnes = await Promise.all(ids.map((id) => api.request({ url: `/v1/dogs/${id}.xml${query}` })));
    const xmlList = await api.request({ url: `/v1/dogs.xml${query}` });
    assert.equal(
      xmlList.body,
      `${DECLARATION}<dogs>${xmlOnes.map((one) => one.body.slice(DECLARATION.length)).join('')}</dogs>`,
      `XML ${query}`,
    );
  }
});
