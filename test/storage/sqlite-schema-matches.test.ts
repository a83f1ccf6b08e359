import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ResourceDef } from '../../src/resources/definition.js';
import { resources } from '../../src/resources/index.js';
import { DOG_FOODS, linkFrom, linkTables } from '../../src/resources/link-tables.js';
import { compareSchema, expectedSchema, type ActualSchema } from '../../src/storage/expected-schema.js';
import { SqliteStorage } from '../../src/storage/sqlite/sqlite-storage.js';
import { databaseOf, introspectSqlite } from './sqlite-schema.js';

async function migratedSchema(): Promise<ActualSchema> {
  const storage = new SqliteStorage(':memory:');
  await storage.migrate();
  try {
    return introspectSqlite(databaseOf(storage));
  } finally {
    await storage.close();
  }
}

/** The registry with one definition changed. */
function withChanged(name: string, change: (def: ResourceDef) => ResourceDef): ResourceDef[] {
  return resources.map((def) => (def.name === name ? change(def) : def));
}

test('the migrated SQLite schema has every table, column, search index and index the definitions imply', async () => {
  const expected = expectedSchema(resources, 'sqlite');
  assert.deepEqual(compareSchema(expected, await migratedSchema()), []);
  // The comparison covers every resource of the registry, its search keys and every link table.
  const names = resources
    .flatMap((def) => [def.name, `${def.name}_search_keys`])
    .concat(linkTables.map((link) => link.table));
  assert.deepEqual(expected.map((table) => table.name).sort(), names.sort());
  assert.ok(
    names.includes('dog_foods') && names.includes('owner_veterinarians') && names.includes('foods_search_keys'),
  );
});

test('a filter without an index is reported', async () => {
  // (A filter on name would be served by the index of sort=name, which has the same key.)
  const defs = withChanged('owners', (owners) => ({ ...owners, filters: { ...owners.filters, email: 'email' } }));
  assert.deepEqual(compareSchema(expectedSchema(defs, 'sqlite'), await migratedSchema()), [
    'owners has no index on (tenant_id, ci(email), seq) for the filter owners?email',
  ]);
});

test('a field without a column, and a reference without its index, are reported', async () => {
  const defs = withChanged('foods', (foods) => ({
    ...foods,
    fields: {
      ...foods.fields,
      calories: { kind: 'text', description: 'kcal' },
      makerId: { kind: 'ref', ref: 'owners', description: 'maker' },
    },
  }));
  assert.deepEqual(compareSchema(expectedSchema(defs, 'sqlite'), await migratedSchema()), [
    'column foods.calories is missing',
    'column foods.maker_id is missing',
    'foods has no index on (tenant_id, maker_id, seq) for the reference foods.makerId',
  ]);
});

test('a required field whose column accepts null, and a column no definition names, are reported', async () => {
  const defs = withChanged('foods', (foods) => ({
    ...foods,
    fields: { name: foods.fields.name!, brand: { ...foods.fields.brand!, required: true } },
  }));
  const actual = await migratedSchema();
  assert.deepEqual(compareSchema(expectedSchema(defs, 'sqlite'), actual), [
    'column foods.brand is nullable, the definition says NOT NULL',
  ]);
  const withoutBrand = withChanged('foods', (foods) => ({
    ...foods,
    fields: { name: foods.fields.name! },
    filters: {},
  }));
  assert.deepEqual(compareSchema(expectedSchema(withoutBrand, 'sqlite'), actual), [
    'column foods.brand is in no definition',
  ]);
});

test('a link table without its migration is reported, table and indexes', async () => {
  const toys = {
    table: 'dog_toys',
    sides: [
      { resource: 'dogs', column: 'dog_id' },
      { resource: 'toys', column: 'toy_id' },
    ],
  } as const;
  const defs = withChanged('dogs', (dogs) => ({
    ...dogs,
    fields: {
      ...dogs.fields,
      toyIds: { kind: 'refs', ref: 'toys', link: linkFrom(toys, 'dogs'), description: 'toys' },
    },
  }));
  assert.deepEqual(compareSchema(expectedSchema(defs, 'sqlite'), await migratedSchema()), [
    'table dog_toys is missing',
  ]);
  // A declared link table is required even when no definition reads it yet.
  assert.deepEqual(compareSchema(expectedSchema(resources, 'sqlite', [...linkTables, toys]), await migratedSchema()), [
    'table dog_toys is missing',
  ]);
});

test('a sixth resource in the registry without its migration is reported', async () => {
  const toys: ResourceDef = {
    name: 'toys',
    singular: 'toy',
    description: 'A toy.',
    filters: {},
    associations: {},
    fields: { name: { kind: 'text', required: true, searchable: true, description: 'Name.' } },
  };
  assert.deepEqual(compareSchema(expectedSchema([...resources, toys], 'sqlite'), await migratedSchema()), [
    'table toys is missing',
    'table toys_search_keys is missing',
  ]);
});

test('a link table whose pair is not unique, or whose other side has no index, is reported', async () => {
  const actual = new Map(await migratedSchema());
  const dogFoods = actual.get(DOG_FOODS.table)!;
  actual.set(DOG_FOODS.table, { ...dogFoods, indexes: [] });
  assert.deepEqual(compareSchema(expectedSchema(resources, 'sqlite'), actual), [
    'dog_foods has no unique index on (tenant_id, dog_id, food_id) for a pair is linked once in dog_foods',
    'dog_foods has no index on (tenant_id, dog_id) for the items linked to one dog_id',
    'dog_foods has no index on (tenant_id, food_id) for the items linked to one food_id',
  ]);
});
