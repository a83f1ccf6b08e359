// docs/deployment.md's path to Citus against the schema: every table in one list, distribution columns in every key.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resources } from '../../src/resources/index.js';
import { expectedSchema, type ActualSchema } from '../../src/storage/expected-schema.js';
import { SqliteStorage } from '../../src/storage/sqlite/sqlite-storage.js';
import { databaseOf, introspectSqlite } from '../storage/sqlite-schema.js';
import { citusFaults, citusStatements, citusTables, readDeploymentDoc, withoutSqliteOnlyTables } from './citus-tables.js';

const doc = readDeploymentDoc();
const rows = citusTables(doc);

async function sqliteSchema(): Promise<ActualSchema> {
  const storage = new SqliteStorage(':memory:');
  await storage.migrate();
  try {
    return withoutSqliteOnlyTables(introspectSqlite(databaseOf(storage)));
  } finally {
    await storage.close();
  }
}

test('the Citus table of docs/deployment.md lists every table of the migrated schema once, keys fit', async () => {
  const schema = await sqliteSchema();
  assert.deepEqual(citusFaults(rows, schema), []);
  // The same tables as PostgreSQL's (SQLite's search index is a column there); more than the resources alone.
  assert.ok(schema.has('idempotency_keys') && schema.has('access_tokens') && schema.has('schema_migrations'));
  assert.ok(!schema.has('dogs_fts') && !schema.has('dogs_fts_data'));
});

test('every table the resource definitions imply is tenant data: distributed by tenant_id, keys with it', () => {
  const byName = new Map(rows.map((row) => [row.table, row]));
  for (const table of expectedSchema(resources, 'postgres')) {
    assert.deepEqual(byName.get(table.name), { table: table.name, kind: 'distributed', column: 'tenant_id' });
    for (const index of table.indexes.filter((each) => each.unique))
      assert.ok(index.columns.includes('tenant_id'), `${table.name} (${index.columns.join(', ')})`);
  }
});

test("the doc's SQL distributes exactly the tables its list says, the tenant tables co-located", () => {
  const { distributed, reference } = citusStatements(doc);
  assert.deepEqual(
    distributed.map(({ table, column }) => ({ table, column })),
    rows.filter((row) => row.kind === 'distributed').map(({ table, column }) => ({ table, column })),
  );
  assert.deepEqual(
    reference,
    rows.filter((row) => row.kind === 'reference').map((row) => row.table),
  );
  // One co-location group of tenant data, led by the first; a table distributed by anything else stands alone.
  const [first, ...others] = distributed.filter((statement) => statement.column === 'tenant_id');
  assert.equal(first?.colocateWith, undefined);
  for (const statement of others) assert.equal(statement.colocateWith, first!.table, statement.table);
  for (const statement of distributed.filter((each) => each.column !== 'tenant_id'))
    assert.equal(statement.colocateWith, 'none', statement.table);
});

test('the check finds a table in no list, a listed table that is gone, and a unique key without the column', async () => {
  const schema = new Map(await sqliteSchema());
  const dogs = schema.get('dogs')!;
  schema.set('toys', { columns: new Map([['id', { notNull: true }]]), indexes: [] });
  schema.delete('foods');
  schema.set('dogs', {
    ...dogs,
    indexes: [...dogs.indexes, { name: 'dogs_name', columns: ['name'], unique: true }],
  });
  const nullable = new Map(schema.get('idempotency_keys')!.columns);
  nullable.set('tenant_id', { notNull: false });
  schema.set('idempotency_keys', { ...schema.get('idempotency_keys')!, columns: nullable });
  const twice = [...rows, { table: 'accounts', kind: 'reference' as const }];
  assert.deepEqual(citusFaults(twice, schema), [
    'accounts is listed 2 times',
    'toys is in no list',
    "dogs's unique index dogs_name (name) lacks tenant_id",
    'foods is listed but is no table of the schema',
    'idempotency_keys.tenant_id, its distribution column, may be null',
  ]);
  const byHash = rows.map((row) => (row.table === 'clients' ? { ...row, kind: 'distributed' as const } : row));
  assert.deepEqual(citusFaults(byHash, await sqliteSchema()), ['clients is distributed by "", which is no column of it']);
});
