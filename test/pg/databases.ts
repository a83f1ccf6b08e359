// An empty PostgreSQL database of its own for each test, on the server named by TEST_DATABASE_URL (npm test starts one).
//
// Each test gets a fresh schema, and its storage connects with `search_path` set to it, so the
// service's unqualified tables are that schema's: to the storage it is a whole empty database.
// A schema costs a few milliseconds; a CREATE DATABASE copies a template (megabytes, or a
// checkpoint) and took 5 to 10 times longer here.
import type { TestContext } from 'node:test';
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
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

/**
 * How long the connections that create and drop schemas stay open unused. An open connection keeps a test file's
 * process (or a script's) alive, so once its last schema is dropped the process waits this long, no longer, to exit;
 * a test that outlasts it connects again for its drop (a few milliseconds).
 */
const ADMIN_IDLE_SECONDS = 0.1;

let admin: postgres.Sql | undefined;

export async function createDatabase(): Promise<TestDatabase> {
  if (!TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set');
  // DROP … CASCADE's notices are not the tests' to print.
  admin ??= postgres(TEST_DATABASE_URL, { max: 2, idle_timeout: ADMIN_IDLE_SECONDS, onnotice: () => {} });
  const sql = admin;
  const schema = `t_${randomBytes(8).toString('hex')}`;
  await sql.unsafe(`CREATE SCHEMA ${schema}`);
  const url = new URL(TEST_DATABASE_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    schema,
    url: url.toString(),
    drop: async () => void (await sql.unsafe(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)),
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

/** Two nodes (storages) on one empty database, migrated by the first; closed, and the database dropped, when the test ends. */
export async function twoNodesFor(t: TestContext): Promise<[PostgresStorage, PostgresStorage]> {
  const database = await createDatabase();
  const first = new PostgresStorage(database.url);
  const second = new PostgresStorage(database.url);
  t.after(async () => {
    await first.close();
    await second.close();
    await database.drop();
  });
  await first.migrate();
  return [first, second];
}
