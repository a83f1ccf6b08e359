// kill -9 under concurrent writes on PostgreSQL: every acknowledged write survives, nothing is half-applied.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { killUnderConcurrentWrites } from '../ops/write-crash-scenario.js';
import { none, postgresOrphans } from '../ops/write-crash-orphans.js';
import { createDatabase, skipWithoutPostgres } from './databases.js';

test(
  'PostgreSQL: kill -9 during concurrent creates, updates and deletes keeps every acknowledged write and no partial one',
  { skip: skipWithoutPostgres },
  async (t) => {
    const database = await createDatabase();
    t.after(() => database.drop());
    await killUnderConcurrentWrites(t, { DATABASE_URL: database.url });
    const orphans = await postgresOrphans(database.url);
    assert.deepEqual(
      orphans,
      none(orphans),
      'no link, reference or search row points at a missing item, and every kept count is its number of rows',
    );
  },
);
