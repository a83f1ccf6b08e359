// The PostgreSQL backend on its own: migrations under a lock, nodes sharing one database, atomic claims, batched reads.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import postgres from 'postgres';
import { ApiError } from '../../src/errors.js';
import { MissingReferences } from '../../src/storage/storage-error.js';
import { dogs } from '../../src/resources/dogs.js';
import { foods } from '../../src/resources/foods.js';
import { owners } from '../../src/resources/owners.js';
import { migrations } from '../../src/storage/postgres/postgres-migrations.js';
import { Connection } from '../../src/storage/postgres/connection.js';
import { PostgresStorage } from '../../src/storage/postgres/postgres-storage.js';
import { SqliteStorage } from '../../src/storage/sqlite/sqlite-storage.js';
import type { IdempotencyKey, TenantScope } from '../../src/storage/storage.js';
import { createDatabase, skipWithoutPostgres, type TestDatabase } from './databases.js';

const scope: TenantScope = { kind: 'tenant', tenantId: 'tenant-a' };
const skip = skipWithoutPostgres;

/** An empty database and `count` storages (nodes) on it, none migrated yet; all closed when the test ends. */
async function nodes(t: TestContext, count: number): Promise<{ database: TestDatabase; nodes: PostgresStorage[] }> {
  const database = await createDatabase();
  const started = Array.from({ length: count }, () => new PostgresStorage(database.url));
  t.after(async () => {
    await Promise.all(started.map((node) => node.close()));
    await database.drop();
  });
  return { database, nodes: started };
}

async function query<Row>(t: TestContext, url: string, sql: string): Promise<Row[]> {
  const client = postgres(url, { max: 1, onnotice: () => {} });
  t.after(() => client.end());
  return client.unsafe<Row[]>(sql);
}

test('five nodes starting at once on an empty database migrate it exactly once', { skip }, async (t) => {
  const { database, nodes: started } = await nodes(t, 5);
  await Promise.all(started.map((node) => node.migrate()));
  await started[0]!.migrate();
  const applied = await query<{ version: number }>(
    t,
    database.url,
    'SELECT version FROM schema_migrations ORDER BY version',
  );
  assert.deepEqual(
    applied.map((row) => row.version),
    migrations.map((migration) => migration.version),
  );
  await started[3]!.ping();
});

test(
  'every table of the registry leads with tenant_id, and so does its primary key (the path to tenant sharding)',
  { skip },
  async (t) => {
    const {
      database,
      nodes: [node],
    } = await nodes(t, 1);
    await node!.migrate();
    const columns = await query<{ table_name: string; column_name: string }>(
      t,
      database.url,
      `
    SELECT table_name, column_name FROM information_schema.columns
    WHERE table_schema = current_schema() AND ordinal_position = 1 AND table_name <> 'schema_migrations'
      AND table_name NOT IN ('accounts', 'clients', 'access_tokens', 'sessions', 'authorization_codes', 'refresh_tokens')`,
    );
    assert.deepEqual(columns.map((row) => row.table_name).sort(), [
      'dog_foods',
      'dogs',
      'dogs_search_keys',
      'foods',
      'foods_search_keys',
      'idempotency_keys',
      'owner_veterinarians',
      'owners',
      'owners_search_keys',
      'request_log',
      'request_usage',
      'resource_counts',
      'veterinarians',
      'veterinarians_search_keys',
    ]);
    for (const row of columns) assert.equal(row.column_name, 'tenant_id', row.table_name);
    const keys = await query<{ table_name: string; column_name: string }>(
      t,
      database.url,
      `
    SELECT k.table_name, k.column_name FROM information_schema.key_column_usage k
    JOIN information_schema.table_constraints c ON c.constraint_name = k.constraint_name AND c.table_schema = k.table_schema
    WHERE k.table_schema = current_schema() AND c.constraint_type = 'PRIMARY KEY' AND k.ordinal_position = 1
      AND k.table_name IN ('dogs', 'owners', 'veterinarians', 'foods', 'dog_foods', 'owner_veterinarians', 'idempotency_keys',
        'dogs_search_keys', 'owners_search_keys', 'veterinarians_search_keys', 'foods_search_keys')`,
    );
    assert.equal(keys.length, 11);
    for (const row of keys) assert.equal(row.column_name, 'tenant_id', row.table_name);
  },
);

test('nodes share one database: what one writes, another reads, updates and deletes', { skip }, async (t) => {
  const {
    nodes: [first, second],
  } = await nodes(t, 2);
  await Promise.all([first!.migrate(), second!.migrate()]);
  const owner = await first!.create(owners, scope, { name: 'Ann', email: null, location: 'Oslo' });
  const dog = await first!.create(dogs, scope, { name: 'Rex', location: 'Tromsø', ownerId: owner.id! });
  assert.deepEqual(
    await second!.get(dogs, scope, dog.id!),
    dog,
    'the item reads back exactly as written, timestamps included',
  );
  assert.equal(
    await second!.get(dogs, { kind: 'tenant', tenantId: 'tenant-b' } as const, dog.id!),
    undefined,
    'another tenant does not see it',
  );
  const updated = await second!.update(dogs, scope, dog.id!, { location: 'Oslo' });
  assert.equal(updated?.location, 'Oslo');
  assert.deepEqual((await first!.list(dogs, scope, { filters: [], q: 'oslo', limit: 10, offset: 0 })).items, [updated]);
  assert.equal(await second!.remove(owners, scope, owner.id!), true);
  assert.equal((await first!.get(dogs, scope, dog.id!))?.ownerId, null, 'deleting the owner cleared the reference');
});

test(
  'a missing reference is refused with the same message as on SQLite, and nothing is written',
  { skip },
  async (t) => {
    const {
      nodes: [node],
    } = await nodes(t, 1);
    await node!.migrate();
    const sqlite = new SqliteStorage(':memory:');
    await sqlite.migrate();
    t.after(() => sqlite.close());
    const food = await node!.create(foods, scope, { name: 'Kibble' });
    const refused = async (storage: PostgresStorage | SqliteStorage, ids: string[]) => {
      try {
        await storage.create(dogs, scope, { name: 'Rex', ownerId: 'nobody', foodIds: ids });
      } catch (error) {
        assert.ok(error instanceof MissingReferences);
        return [error.field, error.target, error.ids];
      }
      assert.fail('the create was not refused');
    };
    assert.deepEqual(await refused(node!, [food.id!]), await refused(sqlite, []));
    assert.deepEqual(await refused(node!, [food.id!]), ['ownerId', 'owners', ['nobody']]);
    const other = { kind: 'tenant', tenantId: 'tenant-b' } as const;
    await assert.rejects(node!.create(dogs, other, { name: 'Rex', foodIds: [food.id!, 'gone'] }), (error: unknown) => {
      assert.ok(error instanceof MissingReferences);
      assert.deepEqual([error.field, error.target, error.ids], ['foodIds', 'foods', [food.id!, 'gone']]);
      return true;
    });
    assert.equal(await node!.count(dogs, scope, { filters: [] }), 0);
    assert.equal(await node!.count(dogs, other, { filters: [] }), 0);
  },
);

test(
  'concurrent claims of one Idempotency-Key on two nodes: exactly one claims; then replay, mismatch and release',
  { skip },
  async (t) => {
    const {
      nodes: [first, second],
    } = await nodes(t, 2);
    await first!.migrate();
    const key: IdempotencyKey = { clientId: 'client-1', key: 'k-1', fingerprint: 'body-1' };
    const claims = await Promise.all(
      Array.from({ length: 20 }, (_, index) => (index % 2 ? first! : second!).claimIdempotencyKey(scope, key)),
    );
    assert.equal(claims.filter((claim) => claim.state === 'claimed').length, 1);
    assert.equal(claims.filter((claim) => claim.state === 'pending').length, 19);

    assert.deepEqual(await first!.claimIdempotencyKey(scope, { ...key, fingerprint: 'body-2' }), { state: 'mismatch' });
    await second!.completeIdempotencyKey(scope, key, '{"status":201}');
    assert.deepEqual(await first!.claimIdempotencyKey(scope, key), { state: 'replay', answer: '{"status":201}' });
    await first!.releaseIdempotencyKey(scope, key);
    assert.equal((await second!.claimIdempotencyKey(scope, key)).state, 'replay', 'a completed key is not released');

    const failed: IdempotencyKey = { ...key, key: 'k-2' };
    assert.deepEqual(await first!.claimIdempotencyKey(scope, failed), { state: 'claimed' });
    await first!.releaseIdempotencyKey(scope, failed);
    assert.deepEqual(
      await second!.claimIdempotencyKey(scope, failed),
      { state: 'claimed' },
      'a released key can be claimed again',
    );
    assert.deepEqual(
      await second!.claimIdempotencyKey({ kind: 'tenant', tenantId: 'tenant-b' } as const, key),
      { state: 'claimed' },
      'keys are per tenant',
    );
  },
);

test(
  'fetchRelated loads an association of many parents in one query, at most limitPerKey each, in creation order',
  { skip },
  async (t) => {
    const {
      nodes: [node],
    } = await nodes(t, 1);
    await node!.migrate();
    const ann = await node!.create(owners, scope, { name: 'Ann' });
    const bob = await node!.create(owners, scope, { name: 'Bob' });
    const kibble = await node!.create(foods, scope, { name: 'Kibble' });
    const bones = await node!.create(foods, scope, { name: 'Bones' });
    for (const name of ['A1', 'A2', 'A3'])
      await node!.create(dogs, scope, { name, ownerId: ann.id!, foodIds: [bones.id!, kibble.id!] });
    await node!.create(dogs, scope, { name: 'B1', ownerId: bob.id! });

    const before = node!.queryCount;
    const byOwner = await node!.fetchRelated(owners.associations.dogs!, scope, [ann.id!, bob.id!, 'nobody'], 2);
    assert.equal(node!.queryCount - before, 1);
    assert.deepEqual(
      byOwner.get(ann.id!)?.map((dog) => dog.name),
      ['A1', 'A2'],
    );
    assert.deepEqual(
      byOwner.get(bob.id!)?.map((dog) => dog.name),
      ['B1'],
    );
    assert.equal(byOwner.has('nobody'), false);

    const dogIds = (await node!.list(dogs, scope, { filters: [], limit: 10, offset: 0 })).items.map((dog) => dog.id!);
    const byDog = await node!.fetchRelated(dogs.associations.foods!, scope, dogIds, 100);
    assert.deepEqual(
      byDog.get(dogIds[0]!)?.map((food) => food.name),
      ['Kibble', 'Bones'],
      'foods in their creation order',
    );
    const owned = await node!.fetchRelated(dogs.associations.owner!, scope, [ann.id!], 1);
    assert.equal(owned.get(ann.id!)?.[0]?.name, 'Ann');
  },
);

test(
  'a write waits for an If-Match check made on the locked row, and a failed check changes nothing',
  { skip },
  async (t) => {
    const {
      nodes: [first, second],
    } = await nodes(t, 2);
    await first!.migrate();
    const dog = await first!.create(dogs, scope, { name: 'Rex' });
    await assert.rejects(
      second!.update(dogs, scope, dog.id!, { name: 'Max' }, () => {
        throw new ApiError('preconditionFailed', 'stale');
      }),
      ApiError,
    );
    assert.equal((await first!.get(dogs, scope, dog.id!))?.name, 'Rex');
    // Two updates at once on two nodes: each runs its check on the row as the other left it.
    const seen: string[] = [];
    await Promise.all(
      ['Max', 'Bo'].map((name, index) =>
        (index ? first! : second!).update(dogs, scope, dog.id!, { name }, (current) => {
          seen.push(String(current.name));
        }),
      ),
    );
    assert.equal(seen.length, 2);
    assert.ok(
      seen.includes('Rex') && (seen.includes('Max') || seen.includes('Bo')),
      `each check saw a committed state: ${seen.join(', ')}`,
    );
  },
);

test(
  'past its bound of named statements, a connection sends new SQL texts unnamed, and they still run',
  { skip },
  async (t) => {
    const database = await createDatabase();
    const connection = new Connection(database.url, { namedStatements: 2 });
    t.after(async () => {
      await connection.close();
      await database.drop();
    });
    for (const n of [1, 2, 3, 4, 1])
      assert.deepEqual([...(await connection.rows(`SELECT ${n}::int + $1::int`, [10]))], [[n + 10]]);
    assert.equal(connection.namedCount, 2, 'only the first two texts were named');
  },
);
