// PG_POOL_SIZE reaches the pool: a burst of queries opens that many connections to PostgreSQL and no more.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { defaultPgPoolSize } from '../../src/config.js';
import { createStorage } from '../../src/storage/create-storage.js';
import { createDatabase, skipWithoutPostgres, TEST_DATABASE_URL } from './databases.js';

const skip = skipWithoutPostgres;

/** The connections a storage opened for a burst of 40 queries, counted by PostgreSQL under a name of their own. */
async function connectionsAfterBurst(t: TestContext, pgPoolSize: number | undefined): Promise<number> {
  const database = await createDatabase();
  const url = new URL(database.url);
  const name = `pool-${randomBytes(6).toString('hex')}`;
  url.searchParams.set('application_name', name);
  const storage = await createStorage({ dataDir: 'unused', databaseUrl: url.toString(), pgPoolSize });
  const admin = postgres(TEST_DATABASE_URL!, { max: 1, onnotice: () => {} });
  t.after(async () => {
    await storage.close();
    await admin.end();
    await database.drop();
  });
  assert.equal(storage.kind, 'postgres');
  await Promise.all(Array.from({ length: 40 }, () => storage.ping()));
  // Idle connections stay in the pool for 30 s, so every one the burst opened is still there.
  const rows = await admin<Array<{ count: string }>>`
    SELECT count(*) FROM pg_stat_activity WHERE application_name = ${name}`;
  return Number(rows[0]!.count);
}

test('PG_POOL_SIZE=3: forty queries at once share three connections', { skip }, async (t) => {
  assert.equal(await connectionsAfterBurst(t, 3), 3);
});

test('PG_POOL_SIZE unset: the pool opens defaultPgPoolSize() connections at most', { skip }, async (t) => {
  assert.equal(await connectionsAfterBurst(t, undefined), defaultPgPoolSize());
});
