// An Idempotency-Key survives kill -9 between the write and the answer, on SQLite: the retry replays the first answer.
import { test } from 'node:test';
import { retryAfterCrashBetweenWriteAndAnswer } from './crash-scenario.js';

test('SQLite: after kill -9 between the committed create and its answer, the retry with the same key gets the same dog and creates none', async (t) => {
  await retryAfterCrashBetweenWriteAndAnswer(t);
});
