// The count of a tenant's whole collection, kept by every create and delete in its own transaction (both backends).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build, createItem as create, newAccount, type TestApp } from '../helper.js';
import { rawRun, rawValue } from '../raw-sql.js';

async function count(api: TestApp, resource: string, token?: string): Promise<number> {
  const response = await api.request({ url: `/v1/${resource}/count`, token });
  assert.equal(response.statusCode, 200, response.body);
  return response.json().count;
}

/** The tenant's rows, counted in the database: what the kept count must always equal. */
async function rows(api: TestApp, table: string, tenantId = api.credentials.tenantId): Promise<number> {
  return Number(await rawValue(api.storage, `SELECT count(*) FROM ${table} WHERE tenant_id = ?`, [tenantId]));
}

async function remove(api: TestApp, resource: string, id: string | null, headers?: Record<string, string>) {
  return api.request({ method: 'DELETE', url: `/v1/${resource}/${id}`, headers });
}

test('the count follows creates, a batch of concurrent creates and deletes, and counts one tenant only', async (t) => {
  const api = await build(t);
  assert.equal(await count(api, 'dogs'), 0, 'no write yet: no kept count, zero');
  const first = await Promise.all([1, 2, 3].map((n) => create(api, 'dogs', { name: `Rex ${n}` })));
  assert.equal(await count(api, 'dogs'), 3);
  // Twenty at once: on SQLite one group commit, on PostgreSQL as many transactions on the pool's connections.
  const batch = await Promise.all(Array.from({ length: 20 }, (_, n) => create(api, 'dogs', { name: `Max ${n}` })));
  assert.equal(await count(api, 'dogs'), 23);
  const deleted = await Promise.all([...first, ...batch.slice(0, 4)].map((dog) => remove(api, 'dogs', dog.id)));
  assert.deepEqual(
    deleted.map((response) => response.statusCode),
    Array(7).fill(200),
  );
  assert.equal(await count(api, 'dogs'), 16);
  assert.equal(await rows(api, 'dogs'), 16);

  const other = await newAccount(api.app, api.storage);
  await Promise.all(['Fido', 'Bella'].map((name) => create(api, 'dogs', { name }, other.token)));
  await create(api, 'owners', { name: 'Ann' }, other.token);
  assert.equal(await count(api, 'dogs'), 16, "another tenant's creates are not counted");
  assert.equal(await count(api, 'dogs', other.token), 2);
  assert.equal(await count(api, 'owners', other.token), 1);
  assert.equal(await count(api, 'owners'), 0);
  await remove(api, 'dogs', batch[10]!.id);
  assert.equal(await count(api, 'dogs', other.token), 2, "nor are another tenant's deletes");
  assert.equal(await count(api, 'dogs'), 15);
});

test('every resource is counted, its creates with references and links too, and updates change no count', async (t) => {
  const api = await build(t);
  const vet = await create(api, 'veterinarians', { name: 'Dr. Lund' });
  const food = await create(api, 'foods', { name: 'Chow' });
  const owner = await create(api, 'owners', { name: 'Ann', veterinarianIds: [vet.id] });
  const dog = await create(api, 'dogs', { name: 'Rex', ownerId: owner.id, veterinarianId: vet.id, foodIds: [food.id] });
  const nested = await api.request({ method: 'POST', url: `/v1/owners/${owner.id}/dogs`, json: { name: 'Max' } });
  assert.equal(nested.statusCode, 200, nested.body);
  const updated = await api.request({ method: 'PUT', url: `/v1/dogs/${dog.id}`, json: { name: 'Rexy' } });
  assert.equal(updated.statusCode, 200, updated.body);
  for (const [resource, expected] of [
    ['dogs', 2],
    ['owners', 1],
    ['veterinarians', 1],
    ['foods', 1],
  ] as const) {
    assert.equal(await count(api, resource), expected, resource);
    assert.equal(await rows(api, resource), expected, resource);
  }
  assert.equal((await remove(api, 'owners', owner.id)).statusCode, 200);
  assert.equal(await count(api, 'owners'), 0);
  assert.equal(await count(api, 'dogs'), 2, "deleting the owner clears the dogs' ownerId, it deletes no dog");
});

test('a write that fails or does nothing leaves the count as it was', async (t) => {
  const api = await build(t);
  const rex = await create(api, 'dogs', { name: 'Rex' });
  const missingOwner = await api.request({ method: 'POST', url: '/v1/dogs', json: { name: 'Max', ownerId: 'ghost' } });
  assert.equal(missingOwner.json().code, 3009, missingOwner.body);
  const missingFood = await api.request({ method: 'POST', url: '/v1/dogs', json: { name: 'Max', foodIds: ['ghost'] } });
  assert.equal(missingFood.json().code, 3009, missingFood.body);
  const invalid = await api.request({ method: 'POST', url: '/v1/dogs', json: { furColor: 'brown' } });
  assert.equal(invalid.statusCode, 400, invalid.body);
  assert.equal(await count(api, 'dogs'), 1);

  const stale = await remove(api, 'dogs', rex.id, { 'if-match': '"not-the-etag"' });
  assert.equal(stale.json().code, 4001, stale.body);
  const ghost = await remove(api, 'dogs', 'ghost');
  assert.equal(ghost.statusCode, 404, ghost.body);
  assert.equal(await count(api, 'dogs'), 1, 'a refused delete and a delete of nothing count nothing');
  const twice = await Promise.all([remove(api, 'dogs', rex.id), remove(api, 'dogs', rex.id)]);
  assert.deepEqual(twice.map((response) => response.statusCode).sort(), [200, 404]);
  assert.equal(await count(api, 'dogs'), 0, 'two deletes of one dog count it once');

  // At once: on SQLite one group commit, whose failing writes make it roll back and run again with a savepoint per
  // write, so only theirs (and their counts) are undone.
  const mixed = await Promise.all(
    ['Max', 'Fido', 'Luna', 'Milo'].map((name, n) =>
      api.request({ method: 'POST', url: '/v1/dogs', json: n % 2 ? { name, ownerId: 'ghost' } : { name } }),
    ),
  );
  assert.deepEqual(
    mixed.map((response) => response.statusCode),
    [200, 400, 200, 400],
  );
  assert.equal(await count(api, 'dogs'), 2, 'the refused writes of a batch are not counted, the others are');
  assert.equal(await rows(api, 'dogs'), 2);
  for (const response of mixed.filter((answer) => answer.statusCode === 200))
    assert.equal((await remove(api, 'dogs', response.json().dog.id)).statusCode, 200);

  const keyed = { 'idempotency-key': 'count-once' };
  const replays = [];
  for (let n = 0; n < 3; n += 1)
    replays.push(await api.request({ method: 'POST', url: '/v1/dogs', json: { name: 'Bella' }, headers: keyed }));
  assert.deepEqual(
    replays.map((response) => response.statusCode),
    [200, 200, 200],
  );
  assert.equal(await count(api, 'dogs'), 1, 'a replayed create is counted once');
  assert.equal(await rows(api, 'dogs'), 1);
});

test('a whole collection is answered from the kept count; filters, parents and Prefer: count=exact of them count rows', async (t) => {
  const api = await build(t);
  const owner = await create(api, 'owners', { name: 'Ann' });
  await create(api, 'dogs', { name: 'Rex', furColor: 'brown', ownerId: owner.id });
  await create(api, 'dogs', { name: 'Max', furColor: 'black' });
  // Changed behind the service's back: only a read of the kept count can see it.
  await rawRun(api.storage, "UPDATE resource_counts SET n = n + 100 WHERE tenant_id = ? AND resource = 'dogs'", [
    api.credentials.tenantId,
  ]);
  assert.equal(await count(api, 'dogs'), 102);
  const exact = await api.request({ url: '/v1/dogs?limit=1', headers: { prefer: 'count=exact' } });
  assert.equal(exact.headers['x-total-count'], '102');
  const filtered = await api.request({ url: '/v1/dogs/count?color=brown' });
  assert.equal(filtered.json().count, 1);
  const nested = await api.request({ url: `/v1/owners/${owner.id}/dogs`, headers: { prefer: 'count=exact' } });
  assert.equal(nested.headers['x-total-count'], '1');
  const searched = await api.request({ url: '/v1/dogs/count?q=rex' });
  assert.equal(searched.json().count, 1);
});

test('migration 10 fills the kept counts from the rows already stored, per tenant and resource', async (t) => {
  const api = await build(t);
  const other = await newAccount(api.app, api.storage);
  await Promise.all(['Rex', 'Max', 'Fido'].map((name) => create(api, 'dogs', { name })));
  await create(api, 'owners', { name: 'Ann' });
  await create(api, 'dogs', { name: 'Bella' }, other.token);
  // The database as it was before migration 10: no kept counts, and neither it nor the later migration that adds the
  // write stamp's column recorded.
  const stamp = api.storage.kind === 'postgres' ? 14 : 12;
  await rawRun(api.storage, 'DROP TABLE resource_counts');
  await rawRun(api.storage, `DELETE FROM schema_migrations WHERE version IN (10, ${stamp})`);
  await api.storage.migrate();
  assert.equal(Number(await rawValue(api.storage, 'SELECT count(*) FROM schema_migrations WHERE version = 10')), 1);
  assert.equal(await count(api, 'dogs'), 3);
  assert.equal(await count(api, 'owners'), 1);
  assert.equal(await count(api, 'foods'), 0);
  assert.equal(await count(api, 'dogs', other.token), 1);
  assert.equal(await count(api, 'owners', other.token), 0);
  await create(api, 'dogs', { name: 'Luna' });
  assert.equal(await count(api, 'dogs'), 4, 'writes after the migration add to what it filled in');
});
