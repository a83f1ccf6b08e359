// An empty PostgreSQL database of its own for each test, on the server named by TEST_DATABASE_URL (npm test starts one).
//
// Each test gets a fresh schema, and its storage connects with `search_path` set to it, so the
// service's unqualified tables are that schema's: to the storage it is a whole empty database.
// A schema costs a few milliseconds; a CREATE DATABASE copies a template (megabytes, or a
// checkpoint) and took 5 to 10 times longer here. The migrations cost more than the schema (about 300 ms of
// PostgreSQL's CPU with the drop), so the tests that build the app take turns on one migrated schema per test file,
// emptied between them (reusedPostgresStorage); the storage and migration tests make their own.
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

/**
 * A test process's migrated schema, lent to one test at a time (reusedPostgresStorage). What a fresh one would hold is
 * known from the moment it was migrated: its tables and sequences, to empty, and a fingerprint of its catalog, to
 * check that the test left its shape alone.
 */
interface LentSchema {
  readonly database: TestDatabase;
  readonly empty: string;
  readonly fingerprint: string;
  lent: boolean;
}

let lent: Promise<LentSchema> | undefined;

// What a test may change to play an older version or a failure (drop a table, add a column or an index, a trigger
// that refuses writes): every relation's name, kind and columns, the functions, triggers and constraints, and the
// migrations applied.
const FINGERPRINT = `SELECT md5(concat_ws('|',
    (SELECT string_agg(c.relname || '/' || c.relkind::text || '/' || coalesce(a.attname, '') || '/'
        || coalesce(a.atttypid::text, ''), ',' ORDER BY c.relname, a.attnum)
      FROM pg_class c LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
      WHERE c.relnamespace = current_schema()::regnamespace),
    (SELECT string_agg(proname, ',' ORDER BY proname) FROM pg_proc WHERE pronamespace = current_schema()::regnamespace),
    (SELECT string_agg(t.tgname, ',' ORDER BY t.tgname) FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
      WHERE c.relnamespace = current_schema()::regnamespace AND NOT t.tgisinternal),
    (SELECT string_agg(conname, ',' ORDER BY conname) FROM pg_constraint
      WHERE connamespace = current_schema()::regnamespace),
    (SELECT string_agg(version::text, ',' ORDER BY version) FROM schema_migrations))) AS md5`;

async function migratedSchema(): Promise<LentSchema> {
  const { storage, database } = await createPostgresStorage();
  await storage.close();
  const sql = admin!;
  const inSchema = (kind: string) =>
    sql.unsafe<{ name: string }[]>(
      `SELECT quote_ident(relname) AS name FROM pg_class
        WHERE relnamespace = '${database.schema}'::regnamespace AND relkind = '${kind}' AND relname <> 'schema_migrations'`,
    );
  const tables = (await inSchema('r')).map((row) => row.name);
  const sequences = (await inSchema('S')).map((row) => row.name);
  // DELETE, not TRUNCATE: a test leaves a few rows, and TRUNCATE's new files for each of the 20 tables and their
  // indexes cost 32 ms a test against 2 (the schema has no triggers or foreign keys: a test that adds some changes the
  // fingerprint, and the schema is dropped instead). setval is ALTER SEQUENCE RESTART without its catalog update.
  const empty = [
    `SET LOCAL search_path = ${database.schema}`,
    ...tables.map((name) => `DELETE FROM ${name}`),
    // A schema without sequences gets no SELECT: an empty select list is not SQL.
    ...(sequences.length > 0 ? [`SELECT ${sequences.map((name) => `setval('${name}', 1, false)`).join(', ')}`] : []),
  ].join('; ');
  return { database, empty, fingerprint: await fingerprintOf(database), lent: false };
}

async function fingerprintOf(database: TestDatabase): Promise<string> {
  const [row] = await admin!.begin(async (sql) => {
    await sql.unsafe(`SET LOCAL search_path = ${database.schema}`);
    return sql.unsafe<{ md5: string }[]>(FINGERPRINT);
  });
  return row!.md5;
}

/**
 * A migrated storage for one test, on the process's lent schema when no other test holds it, else on a schema of its
 * own: a schema and its migrations cost PostgreSQL about 300 ms of CPU, emptying one a few. `release`, once the
 * storage is closed, empties the schema for the next test, or drops it when the test changed its shape. The schema
 * is dropped at the end of the process (dropLentSchema).
 */
export async function reusedPostgresStorage(): Promise<{ storage: PostgresStorage; release(): Promise<void> }> {
  const schema = await (lent ??= migratedSchema());
  if (schema.lent) {
    const { storage, database } = await createPostgresStorage();
    return { storage, release: () => database.drop() };
  }
  schema.lent = true;
  // Migrated when it was made, and its fingerprint checked since: nothing to migrate.
  const storage = new PostgresStorage(schema.database.url);
  const release = async () => {
    if ((await fingerprintOf(schema.database)) !== schema.fingerprint) {
      lent = undefined;
      await schema.database.drop();
      return;
    }
    await admin!.begin((sql) => sql.unsafe(schema.empty));
    schema.lent = false;
  };
  return { storage, release };
}

/** Drops the process's lent schema, if it made one: at the end of its test file. */
export async function dropLentSchema(): Promise<void> {
  const schema = await lent;
  lent = undefined;
  await schema?.database.drop();
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
