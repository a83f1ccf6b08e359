// Run by add-resource.test.ts in a copy of the project where the documented steps added `toys`: its schema and API, per backend.
import assert from 'node:assert/strict';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { resourceByName, resources } from '../../src/resources/index.js';
import { compareSchema, expectedSchema, type ActualSchema, type Backend } from '../../src/storage/expected-schema.js';
import { SqliteStorage } from '../../src/storage/sqlite/sqlite-storage.js';
import type { Storage } from '../../src/storage/storage.js';
import { BASE, newAccount } from '../helper.js';
import { createPostgresStorage, TEST_DATABASE_URL } from '../pg/databases.js';
import { introspectPostgres } from '../pg/postgres-schema.js';
import { databaseOf, introspectSqlite } from '../storage/sqlite-schema.js';

/** A migrated storage of `backend`, what its schema is, and how to get rid of it. */
async function open(backend: Backend): Promise<{ storage: Storage; schema: ActualSchema; drop: () => Promise<void> }> {
  if (backend === 'sqlite') {
    const storage = new SqliteStorage(':memory:');
    await storage.migrate();
    return { storage, schema: introspectSqlite(databaseOf(storage)), drop: async () => undefined };
  }
  const { storage, database } = await createPostgresStorage();
  return { storage, schema: await introspectPostgres(database.url), drop: () => database.drop() };
}

async function check(backend: Backend): Promise<void> {
  assert.ok(resourceByName('toys'), 'toys is in the registry');
  const { storage, schema, drop } = await open(backend);
  assert.deepEqual(
    compareSchema(expectedSchema(resources, backend), schema),
    [],
    `the ${backend} schema matches the definitions`,
  );
  const app = await buildApp(loadConfig({ PUBLIC_URL: BASE, LOG_LEVEL: 'silent' }), { storage, logger: false });
  try {
    const { token } = await newAccount(app, storage);
    const send = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => {
      const response = await app.inject({ method, url, payload, headers: { authorization: `Bearer ${token}` } });
      return { status: response.statusCode, body: response.body === '' ? undefined : response.json() };
    };
    const dog = (await send('POST', '/v2/dogs', { name: 'Rex' })).body.dog;
    const owner = (await send('POST', '/v2/owners', { name: 'Ann' })).body.owner;

    const created = await send('POST', '/v2/toys', {
      name: 'Squeaky bone',
      material: 'Rubber',
      dogId: dog.id,
      ownerIds: [owner.id],
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const toy = created.body.toy;
    assert.deepEqual(Object.keys(toy), ['id', 'name', 'material', 'dogId', 'createdAt', 'updatedAt']);
    assert.equal((await send('POST', '/v2/toys', { name: 'Ball', dogId: 'no-such-dog' })).body.code, 3009);

    const listed = await send('GET', '/v2/toys?material=RUBBER&fields=name,dog(name),owners(name)');
    assert.deepEqual(listed.body, {
      toys: [{ toy: { name: 'Squeaky bone', dog: { name: 'Rex' }, owners: [{ owner: { name: 'Ann' } }] } }],
    });
    assert.deepEqual((await send('GET', '/v2/toys?q=squeaky&fields=id')).body, { toys: [{ toy: { id: toy.id } }] });
    assert.deepEqual((await send('GET', `/v2/toys/${toy.id}/owners?fields=id`)).body, {
      owners: [{ owner: { id: owner.id } }],
    });
    assert.deepEqual((await send('GET', `/v2/toys/${toy.id}`)).body, { toy });

    const updated = await send('PUT', `/v2/toys/${toy.id}`, { material: 'wood', ownerIds: [] });
    assert.equal(updated.status, 200);
    assert.equal(updated.body.toy.material, 'wood');
    assert.deepEqual((await send('GET', `/v2/toys/${toy.id}/owners`)).body, { owners: [] });

    assert.equal((await send('DELETE', `/v2/toys/${toy.id}`)).status, 200);
    assert.equal((await send('GET', `/v2/toys/${toy.id}`)).body.code, 4000);

    const document = (await app.inject({ url: '/portal/openapi/v2.json' })).json();
    for (const path of ['/toys', '/toys/{id}', '/toys/count', '/toys/{id}/owners'])
      assert.ok(document.paths[path], `the OpenAPI document has ${path}`);
  } finally {
    await app.close();
    await drop();
  }
  process.stdout.write(`toys on ${backend}: schema, create, list, read, update, delete and OpenAPI ok\n`);
}

await check('sqlite');
if (TEST_DATABASE_URL) await check('postgres');
