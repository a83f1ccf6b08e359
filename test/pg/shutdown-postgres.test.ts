// The real process on SIGTERM, on PostgreSQL: it stops accepting, finishes the requests in flight, closes its pool,
// exits 0.
import { test } from 'node:test';
import { assertStored, sigtermWithRequestsInFlight } from '../ops/shutdown-scenario.js';
import { createDatabase, skipWithoutPostgres } from './databases.js';

test(
  'PostgreSQL: SIGTERM stops accepting, lets the requests in flight finish, closes the pool and exits 0',
  { skip: skipWithoutPostgres },
  async (t) => {
    const database = await createDatabase();
    t.after(() => database.drop());
    const env = { DATABASE_URL: database.url };
    const outcome = await sigtermWithRequestsInFlight(t, env);
    await assertStored(t, outcome.service.dataDir, env, outcome);
  },
);
