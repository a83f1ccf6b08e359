import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build, createDog, dogNames as names } from '../helper.js';

test('sort orders case-insensitively, descending with a minus, ties in creation order', async (t) => {
  const api = await build(t);
  for (const [name, furColor] of [
    ['bella', 'b'],
    ['Rex', 'a'],
    ['alf', 'b'],
    ['Zoe', 'a'],
    ['max', 'b'],
  ]) {
    await createDog(api, { name: name!, furColor: furColor! });
  }
  assert.deepEqual(await names(api, '/v1/dogs?sort=name'), ['alf', 'bella', 'max', 'Rex', 'Zoe']);
  assert.deepEqual(await names(api, '/v1/dogs?sort=-name'), ['Zoe', 'Rex', 'max', 'bella', 'alf']);
  assert.deepEqual(await names(api, '/v1/dogs?sort=furColor'), ['Rex', 'Zoe', 'bella', 'alf', 'max']);
  assert.deepEqual(await names(api, '/v1/dogs?sort=-furColor'), ['bella', 'alf', 'max', 'Rex', 'Zoe']);
  assert.deepEqual(await names(api, '/v1/dogs?sort=name&limit=2&offset=2'), ['max', 'Rex']);
  const bad = await api.request({ url: '/v1/dogs?sort=colour' });
  assert.equal(bad.statusCode, 400);
  assert.equal(bad.json().code, 2006);
  assert.match(bad.json().message, /Sortable fields of dogs: id, name/);
});

test('q matches every word exactly or as a prefix, across name, colour and location', async (t) => {
  const api = await build(t);
  await createDog(api, { name: 'Rex', furColor: 'brown', location: 'Oslo' });
  await createDog(api, { name: 'Rexy', furColor: 'black', location: 'Bergen' });
  await createDog(api, { name: 'Fido', furColor: 'brown', location: 'Oslo' });
  assert.deepEqual((await names(api, '/v1/dogs?q=rex')).sort(), ['Rex', 'Rexy']);
  assert.deepEqual(await names(api, '/v1/dogs?q=rex%20oslo'), ['Rex']);
  assert.deepEqual(await names(api, '/v1/dogs?q=BRO'), ['Rex', 'Fido']);
  assert.deepEqual(await names(api, '/v1/dogs?q=ex'), [], 'a word matches from its start only');
  assert.deepEqual(await names(api, '/v1/dogs?q=rex%20paris'), []);
});

test('q folds case and accents the same way for items and queries', async (t) => {
  const api = await build(t);
  await createDog(api, { name: 'Søren', location: 'Tromsø' });
  await createDog(api, { name: 'Ærlig', location: 'Straße' });
  await createDog(api, { name: 'Café', location: 'Łódź' });
  assert.deepEqual(await names(api, '/v1/dogs?q=tromso'), ['Søren']);
  assert.deepEqual(await names(api, '/v1/dogs?q=TROMSØ'), ['Søren']);
  assert.deepEqual(await names(api, '/v1/dogs?q=soren'), ['Søren']);
  assert.deepEqual(await names(api, '/v1/dogs?q=strasse%20aer'), ['Ærlig']);
  assert.deepEqual(await names(api, '/v1/dogs?q=cafe%20lodz'), ['Café']);
  assert.deepEqual(await names(api, '/v1/dogs?q=CAFÉ'), ['Café']);
});

test('q splits words at anything that is not a letter or digit', async (t) => {
  const api = await build(t);
  await createDog(api, { name: 'Rex-2000', location: 'ann@example.com' });
  assert.deepEqual(await names(api, '/v1/dogs?q=2000'), ['Rex-2000']);
  assert.deepEqual(await names(api, '/v1/dogs?q=example%20ann'), ['Rex-2000']);
  assert.deepEqual(await names(api, `/v1/dogs?q=${encodeURIComponent('"rex" * (2000')}`), ['Rex-2000']);
  assert.deepEqual(await names(api, `/v1/dogs?q=${encodeURIComponent('!!!')}`), []);
});

test('search results are ranked by relevance without sort, and by sort when given', async (t) => {
  const api = await build(t);
  await createDog(api, { name: 'Bella', furColor: 'brown', location: 'Brownsville' });
  await createDog(api, { name: 'Brown', furColor: 'brown', location: 'Brownsville' });
  await createDog(api, { name: 'Alf', furColor: 'white', location: 'Brownsville' });
  assert.deepEqual(await names(api, '/v1/dogs?q=brown'), ['Brown', 'Bella', 'Alf']);
  assert.deepEqual(await names(api, '/v1/dogs?q=brown&sort=name'), ['Alf', 'Bella', 'Brown']);
});

test('q combines with filters, and /dogs/count honours it', async (t) => {
  const api = await build(t);
  await createDog(api, { name: 'Rex', furColor: 'brown', state: 'lost' });
  await createDog(api, { name: 'Rex', furColor: 'black' });
  await createDog(api, { name: 'Fido', furColor: 'brown' });
  assert.deepEqual((await api.request({ url: '/v1/dogs/count?q=rex' })).json(), { count: 2 });
  assert.deepEqual((await api.request({ url: '/v1/dogs/count?q=rex&color=brown' })).json(), { count: 1 });
  assert.deepEqual(
    (await api.request({ url: '/v1/dogs/count.xml?q=rex&state=lost' })).body.endsWith('<count>1</count>'),
    true,
  );
  const empty = await api.request({ url: '/v1/dogs?q=' });
  assert.equal(empty.statusCode, 400);
  assert.equal(empty.json().code, 2007);
});

test('search follows updates and deletes', async (t) => {
  const api = await build(t);
  const dog = await createDog(api, { name: 'Rex' });
  await api.request({ method: 'PUT', url: `/v1/dogs/${dog.id}`, form: { name: 'Max' } });
  assert.deepEqual(await names(api, '/v1/dogs?q=rex'), []);
  assert.deepEqual(await names(api, '/v1/dogs?q=max'), ['Max']);
  await api.request({ method: 'DELETE', url: `/v1/dogs/${dog.id}` });
  assert.deepEqual(await names(api, '/v1/dogs?q=max'), []);
});
