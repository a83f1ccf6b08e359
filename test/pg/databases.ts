// An empty PostgreSQL database of its own for each test, on the server named by TEST_DATABASE_URL (npm test starts one).
//
// Each test gets a fresh schema, and its storage connects with `search_path` set to it, so the
// service's unqualified tables are that schema's: to the storage it is a whole empty database.
// A schema costs a few milliseconds; a CREATE DATABASE copies a template (megabytes, or a
// checkpoint) and took 5 to 10 times longer here.
import type { TestContext } from 'node:test';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { PostgresStorage } from '../../src/storage/postgres/postgres-storage.js';

/** A database where tests may create and drop schemas; unset, tests run on SQLite and PostgreSQL-only ones are skipped. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;

/** Why a PostgreSQL-only test is skipped, or false when it runs. */
export const skipWithoutPostgres: string | false = TEST_DATABASE_URL
  ? false
  : 'needs TEST_DATABASE_URL (npm test starts a PostgreSQL)';

export interface TestDatabase {
  /** The schema that holds this test's tables. */
  readonly schema: string;
  /** The URL the storage connects with, as DATABASE_URL would give it. */
  readonly url: string;
  /** Drops everything the test created. */
  drop(): Promise<void>;
}

let admin: pg.Pool | undefined;

export async function createDatabase(): Promise<TestDatabase> {
  if (!TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set');
  // allowExitOnIdle: the pool does not keep a test file's process alive once its tests are done.
  admin ??= new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 2, allowExitOnIdle: true });
  const pool = admin;
  const schema = `t_${randomBytes(8).toString('hex')}`;
  await pool.query(`CREATE SCHEMA ${schema}`);
  const url = new URL(TEST_DATABASE_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    schema,
    url: url.toString(),
    drop: async () => void (await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)),
  };
}

/** A migrated storage on an empty database of its own. */
export async function createPostgresStorage(): Promise<{ storage: PostgresStorage; database: TestDatabase }> {
  const database = await createDatabase();
  const storage = new PostgresStorage(database.url);
  await storage.migrate();
  return { storage, database };
}

/** createPostgresStorage for one test: closed, and its database dropped, when the test ends. */
export async function postgresStorageFor(t: TestContext): Promise<PostgresStorage> {
  const { storage, database } = await createPostgresStorage();
  t.after(async () => {
    await storage.close();
    await database.drop();
  });
  return storage;
}
