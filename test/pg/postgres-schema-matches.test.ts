// The migrated PostgreSQL schema against what the definitions imply (the same comparator as SQLite's test).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resources } from '../../src/resources/index.js';
import { linkTables } from '../../src/resources/link-tables.js';
import { compareSchema, expectedSchema } from '../../src/storage/expected-schema.js';
import { skipWithoutPostgres } from './databases.js';
import { migratedPostgresSchema } from './postgres-schema.js';

const skip = skipWithoutPostgres;

test(
  'the migrated PostgreSQL schema has every table, column, search index and index the definitions imply',
  { skip },
  async (t) => {
    const actual = await migratedPostgresSchema(t);
    const expected = expectedSchema(resources, 'postgres');
    assert.deepEqual(compareSchema(expected, actual), []);
    // Every resource of the registry, its search keys and every link table (the full-text columns are in its table).
    assert.deepEqual(
      expected.map((table) => table.name).sort(),
      resources
        .flatMap((def) => [def.name, `${def.name}_search_keys`])
        .concat(linkTables.map((link) => link.table))
        .sort(),
    );

    // The same comparison fails for a definition that gains a filter, a field or a reference without a migration.
    const changed = resources.map((def) =>
      def.name !== 'foods'
        ? def
        : {
            ...def,
            fields: { ...def.fields, makerId: { kind: 'ref' as const, ref: 'owners', description: 'maker' } },
            filters: { ...def.filters, name: 'name' },
          },
    );
    assert.deepEqual(compareSchema(expectedSchema(changed, 'postgres'), actual), [
      'column foods.maker_id is missing',
      'foods has no index on (tenant_id, maker_id, seq) for the reference foods.makerId',
      'foods has no index on (tenant_id, lower(name), seq) for the filter foods?name',
    ]);
    // Without its search keys a resource's search has no index.
    const withoutSearch = new Map(actual);
    withoutSearch.delete('dogs_search_keys');
    assert.deepEqual(compareSchema(expected, withoutSearch), ['table dogs_search_keys is missing']);
  },
);
