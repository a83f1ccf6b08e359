// An Idempotency-Key survives kill -9 between the write and the answer, on PostgreSQL: the retry replays the first answer.
import { test } from 'node:test';
import { retryAfterCrashBetweenWriteAndAnswer } from '../ops/crash-scenario.js';
import { createDatabase, skipWithoutPostgres } from './databases.js';

test(
  'PostgreSQL: after kill -9 between the committed create and its answer, the retry with the same key gets the same dog and creates none',
  { skip: skipWithoutPostgres },
  async (t) => {
    const database = await createDatabase();
    t.after(() => database.drop());
    await retryAfterCrashBetweenWriteAndAnswer(t, { DATABASE_URL: database.url });
  },
);
