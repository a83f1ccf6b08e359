// The kill -9 between write and answer, for either backend: a POST with an Idempotency-Key is retried on a new process after a crash.
import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { authorize, request, startService, tempDataDir } from './process-helper.js';

/** Runs the scenario on the storage `env` selects (DATA_DIR alone: SQLite; with DATABASE_URL: PostgreSQL). */
export async function retryAfterCrashBetweenWriteAndAnswer(
  t: TestContext,
  env: Record<string, string> = {},
): Promise<void> {
  const dataDir = tempDataDir(t);
  const crashing = await startService(t, dataDir, env, 'test/ops/crash-after-create.ts');
  const auth = await authorize(crashing);
  const post = {
    method: 'POST',
    path: '/v2/dogs',
    headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': 'crash-1' },
    body: JSON.stringify({ name: 'Rex', furColor: 'brown', location: 'Tromsø' }),
  };
  await assert.rejects(request(crashing, post), 'the process dies before it answers');
  assert.deepEqual(await crashing.exited, { code: null, signal: 'SIGKILL' });

  const restarted = await startService(t, dataDir, env);
  const retry = await request(restarted, post);
  assert.equal(retry.status, 201, retry.body);
  assert.equal(retry.headers['idempotent-replayed'], 'true');
  const dog = JSON.parse(retry.body).dog as Record<string, unknown>;
  // PUBLIC_URL defaults to the port: the first process's Location shows the answer was made before the crash.
  assert.equal(
    retry.headers.location,
    `http://localhost:${crashing.port}/v2/dogs/${String(dog.id)}`,
    'the first answer, replayed as it was',
  );
  assert.equal(dog.name, 'Rex');

  const read = await request(restarted, { path: `/v2/dogs/${String(dog.id)}`, headers: auth });
  assert.equal(read.status, 200, read.body);
  assert.deepEqual(JSON.parse(read.body).dog, dog, 'the replayed dog is the stored one');
  const list = await request(restarted, { path: '/v2/dogs', headers: { ...auth, prefer: 'count=exact' } });
  assert.equal(list.headers['x-total-count'], '1', 'no second dog');
  assert.deepEqual(JSON.parse(list.body).dogs, [{ dog }]);
}
