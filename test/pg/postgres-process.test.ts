// The real process with DATABASE_URL: nodes started at once share one PostgreSQL, and a 2xx write survives kill -9.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { authorize, eventually, request, startService, tempDataDir } from '../ops/process-helper.js';
import { createDatabase, skipWithoutPostgres } from './databases.js';

test(
  'two nodes on one database: a sign-up, a token and a dog written on one are there on the other, even after kill -9',
  { skip: skipWithoutPostgres },
  async (t) => {
    const database = await createDatabase();
    t.after(() => database.drop());
    // Both start on the empty database at the same moment: one migrates, the other waits for it.
    const env = { DATABASE_URL: database.url };
    const [first, second] = await Promise.all([
      startService(t, tempDataDir(t), env),
      startService(t, tempDataDir(t), env),
    ]);
    for (const node of [first, second]) {
      const ready = await request(node, { path: '/readyz' });
      assert.equal(ready.status, 200);
      assert.equal(JSON.parse(ready.body).database, 'postgres');
    }

    const headers = await authorize(first);
    const created = await request(first, {
      method: 'POST',
      path: '/v2/dogs',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Rex', furColor: 'brown', location: 'Tromsø', state: 'adoptable' }),
    });
    assert.equal(created.status, 201, created.body);
    const dog = JSON.parse(created.body).dog as Record<string, unknown>;
    first.child.kill('SIGKILL');
    assert.deepEqual(await first.exited, { code: null, signal: 'SIGKILL' });

    const read = await request(second, { path: `/v2/dogs/${String(dog.id)}`, headers });
    assert.equal(read.status, 200, read.body);
    assert.deepEqual(JSON.parse(read.body).dog, dog);
    const found = await request(second, { path: '/v2/dogs?q=tromso', headers });
    assert.deepEqual(JSON.parse(found.body).dogs, [{ dog }]);

    second.child.kill('SIGTERM');
    await eventually('the second node exiting', async () => second.child.exitCode !== null);
    assert.equal(second.child.exitCode, 0, 'SIGTERM closes the pool and exits 0');
  },
);
