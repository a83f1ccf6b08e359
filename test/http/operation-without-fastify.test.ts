// An operation runs from a plain intent and a storage: no Fastify app, no request object.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config.js';
import { contextOf, type Intent } from '../../src/http/context.js';
import {
  createOperation,
  listOperation,
  readOperation,
  updateOperation,
} from '../../src/routes/resource-operations.js';
import { dogs } from '../../src/resources/dogs.js';
import { SqliteStorage } from '../../src/storage/sqlite/sqlite-storage.js';
import { serialize } from '../../src/representation/document.js';
import type { TenantScope } from '../../src/storage/storage.js';

const config = loadConfig({ PUBLIC_URL: 'http://api.test', LOG_LEVEL: 'silent' });
const scope: TenantScope = { kind: 'tenant', tenantId: 'tenant-a' };

/** A plain intent, as parseIntent would make it for the request described. */
function intentOf(fields: Partial<Intent> & Pick<Intent, 'method' | 'path'>): Intent {
  return {
    version: 2,
    format: 'json',
    suppress: false,
    overridden: false,
    fieldsInQuery: false,
    url: fields.path,
    id: undefined,
    query: {},
    input: () => ({}),
    jsonInput: () => true,
    ifMatch: undefined,
    ifNoneMatch: undefined,
    exactCount: false,
    idempotencyKey: undefined,
    ...fields,
  };
}

test('create, read, list and update run from a plain intent and a storage, without Fastify', async (t) => {
  const storage = new SqliteStorage(':memory:');
  await storage.migrate();
  t.after(() => storage.close());
  const deps = { storage, config };

  const created = await createOperation(dogs, deps).run(
    contextOf(
      intentOf({ method: 'POST', path: '/v2/dogs', input: () => ({ name: 'Rex', furColor: 'brown' }) }),
      scope,
      'client-a',
    ),
  );
  assert.equal(created.status, 201);
  const dog = (JSON.parse(serialize('json', created.document!)) as { dog: { id: string; name: string } }).dog;
  assert.equal(dog.name, 'Rex');
  assert.equal(created.headers?.location, `http://api.test/v2/dogs/${dog.id}`);

  const read = await readOperation(dogs, deps).run(
    contextOf(
      intentOf({ method: 'GET', path: `/v2/dogs/${dog.id}`, id: dog.id, query: { fields: 'name' } }),
      scope,
      'client-a',
    ),
  );
  assert.deepEqual(JSON.parse(serialize('json', read.document!)), { dog: { name: 'Rex' } });

  const list = await listOperation(dogs, deps).run(
    contextOf(
      intentOf({
        method: 'GET',
        path: '/v2/dogs',
        url: '/v2/dogs.xml?limit=1',
        query: { limit: '1' },
        exactCount: true,
      }),
      scope,
      'client-a',
    ),
  );
  assert.equal(
    list.headers?.link,
    '<http://api.test/v2/dogs.xml?limit=1&offset=0>; rel="first", <http://api.test/v2/dogs.xml?limit=1&offset=0>; rel="last"',
  );
  assert.equal(list.headers?.['x-total-count'], '1');

  const stale = updateOperation(dogs, deps).run(
    contextOf(
      intentOf({
        method: 'PUT',
        path: `/v2/dogs/${dog.id}`,
        id: dog.id,
        ifMatch: '"stale"',
        input: () => ({ name: 'Max' }),
      }),
      scope,
      'client-a',
    ),
  );
  await assert.rejects(stale, { code: 4001 });
  const other = readOperation(dogs, deps).run(
    contextOf(
      intentOf({ method: 'GET', path: `/v2/dogs/${dog.id}`, id: dog.id }),
      { kind: 'tenant', tenantId: 'tenant-b' } as TenantScope,
      'client-b',
    ),
  );
  await assert.rejects(other, { code: 4000 });
});
