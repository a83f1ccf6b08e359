// docs/deployment.md's path to Citus against the migrated PostgreSQL schema, primary keys included.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { citusFaults, citusTables, readDeploymentDoc } from '../docs/citus-tables.js';
import { skipWithoutPostgres } from './databases.js';
import { migratedPostgresSchema } from './postgres-schema.js';

const skip = skipWithoutPostgres;

test(
  'every PostgreSQL table is in one Citus list; distribution columns are NOT NULL and in every key',
  { skip },
  async (t) => {
    const schema = await migratedPostgresSchema(t);
    const rows = citusTables(readDeploymentDoc());
    assert.deepEqual(citusFaults(rows, schema), []);
    // PostgreSQL reports the primary keys as unique indexes: (tenant_id, seq) of a resource, the hash of a token.
    const unique = (table: string) =>
      schema
        .get(table)!
        .indexes.filter((index) => index.unique)
        .map((index) => index.columns.join(','))
        .sort();
    assert.deepEqual(unique('dogs'), ['tenant_id,id', 'tenant_id,seq']);
    assert.deepEqual(unique('dog_foods'), ['tenant_id,dog_id,food_id', 'tenant_id,seq']);
    assert.deepEqual(unique('access_tokens'), ['token_hash']);
    assert.ok(schema.has('schema_migrations'));
  },
);
