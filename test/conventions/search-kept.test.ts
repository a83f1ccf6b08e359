// A search made again is answered from the node's kept answer while its tenant wrote nothing, and every write of the
// tenant shows in its next search (storage/search-cache.ts), on either backend.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dogs } from '../../src/resources/dogs.js';
import { resources } from '../../src/resources/index.js';
import type { TenantScope } from '../../src/storage/storage.js';
import { build, createItem, dogNames, newAccount, type TestApp } from '../helper.js';

const scopeOf = (api: TestApp): TenantScope => ({ kind: 'tenant', tenantId: api.credentials.tenantId });

/** The statements a storage call sends. */
async function statements(api: TestApp, call: () => Promise<unknown>): Promise<number> {
  const before = api.storage.queryCount;
  await call();
  return api.storage.queryCount - before;
}

/** The names of a /search's hits. */
async function found(api: TestApp, url: string): Promise<string[]> {
  const response = await api.request({ url });
  assert.equal(response.statusCode, 200, response.body);
  return response.json().results.map((hit: Record<string, { name: string }>) => Object.values(hit)[0]!.name);
}

test('a search made again with nothing written reads the write stamp alone, and answers the same', async (t) => {
  const api = await build(t);
  await createItem(api, 'dogs', { name: 'Rex' });
  await createItem(api, 'owners', { name: 'Rexford' });
  const scope = scopeOf(api);
  const page = () => api.storage.listJson(dogs, scope, { q: 'rex', filters: [], limit: 10, offset: 0 }, ['name']);
  const search = () => api.storage.search(scope, { q: 'rex', types: resources, limit: 10, offset: 0 });
  assert.ok((await statements(api, page)) > 1);
  assert.equal(await statements(api, page), 1);
  assert.ok((await statements(api, search)) > 1);
  assert.equal(await statements(api, search), 1);
  const first = await api.request({ url: '/v2/dogs?q=rex&fields=name' });
  const again = await api.request({ url: '/v2/dogs?q=rex&fields=name' });
  assert.equal(again.body, first.body);
  assert.equal(again.headers.etag, first.headers.etag);
  // Another tenant's writes leave this tenant's kept answers in place.
  const other = await newAccount(api.app, api.storage);
  await createItem(api, 'dogs', { name: 'Rex' }, other.token);
  assert.equal(await statements(api, page), 1);
  assert.deepEqual(await dogNames(api, '/v2/dogs?q=rex'), ['Rex']);
});

test('every write of the tenant shows in the next search of the same text: create, update, delete', async (t) => {
  const api = await build(t);
  const rex = await createItem(api, 'dogs', { name: 'Rex' });
  assert.deepEqual(await dogNames(api, '/v2/dogs?q=rex'), ['Rex']);
  assert.deepEqual(await found(api, '/v2/search?q=rex'), ['Rex']);
  const rexy = await createItem(api, 'dogs', { name: 'Rexy' });
  assert.deepEqual(await dogNames(api, '/v2/dogs?q=rex'), ['Rex', 'Rexy'], 'a create');
  assert.deepEqual(await found(api, '/v2/search?q=rex'), ['Rex', 'Rexy']);
  const renamed = await api.request({ method: 'PUT', url: `/v2/dogs/${rexy.id}`, json: { name: 'Max' } });
  assert.equal(renamed.statusCode, 200, renamed.body);
  assert.deepEqual(await dogNames(api, '/v2/dogs?q=rex'), ['Rex'], 'an update');
  assert.deepEqual(await found(api, '/v2/search?q=rex'), ['Rex']);
  const put = await api.request({ method: 'PUT', url: `/v2/dogs/${rexy.id}`, json: { name: 'Rex Max' } });
  assert.equal(put.statusCode, 200, put.body);
  assert.deepEqual(await dogNames(api, '/v2/dogs?q=rex'), ['Rex', 'Rex Max'], 'an update back into the text');
  const removed = await api.request({ method: 'DELETE', url: `/v2/dogs/${rex.id}` });
  assert.equal(removed.statusCode, 200, removed.body);
  assert.deepEqual(await dogNames(api, '/v2/dogs?q=rex'), ['Rex Max'], 'a delete');
  assert.deepEqual(await found(api, '/v2/search?q=rex'), ['Rex Max']);
});

test('a delete that clears references shows in the kept pages of the items that held them', async (t) => {
  const api = await build(t);
  const owner = await createItem(api, 'owners', { name: 'Ann' });
  await createItem(api, 'dogs', { name: 'Rex', ownerId: owner.id });
  const url = '/v2/dogs?q=rex&fields=name,ownerId';
  const owned = await api.request({ url });
  assert.equal(owned.json().dogs[0].dog.ownerId, owner.id);
  const removed = await api.request({ method: 'DELETE', url: `/v2/owners/${owner.id}` });
  assert.equal(removed.statusCode, 200, removed.body);
  const cleared = await api.request({ url });
  assert.equal(cleared.json().dogs[0].dog.ownerId, null);
});
