// Applies the PostgreSQL migrations on start: in one transaction, under an advisory lock, recorded in
// schema_migrations.
import { representedFields, type FieldValue } from '../../resources/definition.js';
import { resourceByName } from '../../resources/index.js';
import { toItem } from '../items.js';
import { batchOf } from '../request-log-records.js';
import { PACKED_INSERT, packedParams } from './postgres-request-log.js';
import { itemKeys } from '../search-keys.js';
import { migrations, SEARCH_INDEXED } from './postgres-migrations.js';
import { selectList } from './postgres-sql.js';
import { connectionKept, type Connection, type Executor } from './connection.js';

/** The migration that creates the search index (postgres-migrations.ts). */
const SEARCH_KEYS_VERSION = 8;
/** The migration that packs the request log (postgres-migrations.ts). */
const PACKED_LOG_VERSION = 12;
/** Items read, and their keys written, per statement when the stored items are indexed. */
const ITEMS_PER_BATCH = 500;
/** Requests packed per statement when the log is packed: a flush's worth. */
const REQUESTS_PER_BATCH = 2000;

/**
 * The key of the advisory lock the nodes take to migrate ("dogreg" in ASCII): when several
 * start at once, one applies the migrations and the others wait, then find nothing left to do.
 */
const MIGRATION_LOCK = 0x646f67726567;

export async function runMigrations(connection: Connection): Promise<void> {
  const sql = await connection.sql.reserve();
  // Statements with parameters as an Executor, for the indexing shared with a test's bulk load.
  const client: Executor = {
    rows: <Row extends unknown[]>(text: string, params: readonly unknown[]) =>
      sql.unsafe(text, params as never[]).values() as unknown as Promise<Row[]>,
    run: (text: string, params: readonly unknown[]) =>
      sql.unsafe(text, params as never[]).then((result) => result.count),
  };
  let healthy = true;
  try {
    await sql.unsafe('BEGIN');
    // A migration may build indexes for minutes, and wait for another node's: no statement_timeout (connection.ts).
    await sql.unsafe('SET LOCAL statement_timeout = 0');
    // Held until COMMIT or ROLLBACK; a transaction-level lock also works behind a transaction pooler.
    await client.run('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await sql.unsafe(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY,
      description text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const rows = await client.rows<[number]>('SELECT version FROM schema_migrations', []);
    const applied = new Set(rows.map((row) => row[0]));
    const pending = migrations.filter((migration) => !applied.has(migration.version));
    for (const migration of pending) {
      // Several statements in one text: the simple protocol (unsafe without parameters).
      await sql.unsafe(migration.sql);
      if (migration.version === SEARCH_KEYS_VERSION) await indexStoredItems(client);
      if (migration.version === PACKED_LOG_VERSION) await packStoredRequests(client);
      await client.run('INSERT INTO schema_migrations (version, description) VALUES ($1, $2)', [
        migration.version,
        migration.description,
      ]);
    }
    if (pending.length > 0) await analyzeSchema(client);
    await sql.unsafe('COMMIT');
  } catch (error) {
    // A broken connection must not be written to, not even ROLLBACK (connection.ts, connectionKept).
    healthy = connectionKept(error);
    if (healthy) await sql.unsafe('ROLLBACK').catch(() => (healthy = false));
    throw error;
  } finally {
    if (healthy) sql.release();
  }
}

/**
 * A table or index just made has no statistics until autovacuum's next round, and a read planned meanwhile may walk a
 * tenant (docs/decisions.md, "Plans that do not depend on luck"). So the migration ends with ANALYZE of the schema's
 * own tables (only those: the database may hold others'), a sample of each, in the same transaction.
 */
async function analyzeSchema(client: Executor): Promise<void> {
  const rows = await client.rows<[string]>(
    `SELECT quote_ident(relname) FROM pg_class WHERE relnamespace = current_schema()::regnamespace AND relkind = 'r'`,
    [],
  );
  await client.run(`ANALYZE ${rows.map((row) => row[0]).join(', ')}`, []);
}

/**
 * The items stored before the search index existed get their keys, in the transaction that creates it (and a test's
 * bulk load, test/pg/plan-seed.ts, through the same code).
 */
export async function indexStoredItems(client: Executor): Promise<void> {
  for (const def of SEARCH_INDEXED.map((name) => resourceByName(name)!)) {
    const names = representedFields(def);
    // In batches along the primary key (tenant, seq), so that memory stays bounded however many items there are.
    let after: unknown[] = ['', 0];
    for (;;) {
      const rows = await client.rows<FieldValue[]>(
        `SELECT ${selectList(def)}, t.seq, t.tenant_id FROM ${def.name} t WHERE (t.tenant_id, t.seq) > ($1, $2)
          ORDER BY t.tenant_id, t.seq LIMIT ${ITEMS_PER_BATCH}`,
        after,
      );
      if (rows.length === 0) break;
      const tenants: unknown[] = [];
      const keys: string[] = [];
      const seqs: unknown[] = [];
      for (const row of rows) {
        for (const key of itemKeys(def, toItem(names, row))) {
          tenants.push(row[names.length + 1]);
          keys.push(key);
          seqs.push(row[names.length]);
        }
      }
      await client.run(
        `INSERT INTO ${def.name}_search_keys (tenant_id, key, seq) SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[])`,
        [tenants, keys, seqs],
      );
      const last = rows[rows.length - 1]!;
      after = [last[names.length + 1], last[names.length]];
    }
  }
}

/**
 * The requests logged one row each before migration 12 become packed rows, in each app's seq order (so in the order
 * of their new seqs), a buffer's worth at a time; then their table goes.
 */
export async function packStoredRequests(client: Executor): Promise<void> {
  let after: unknown[] = ['', '', 0];
  for (;;) {
    const rows = await client.rows<UnpackedRow>(
      `SELECT tenant_id, client_id, seq, time, method, path, version, status, code, message, duration_ms, request_id
        FROM request_log_unpacked WHERE (tenant_id, client_id, seq) > ($1, $2, $3)
        ORDER BY tenant_id, client_id, seq LIMIT ${REQUESTS_PER_BATCH}`,
      after,
    );
    if (rows.length === 0) break;
    const batch = batchOf(
      rows.map(([tenantId, clientId, , time, method, path, version, status, code, message, durationMs, requestId]) => ({
        tenantId,
        clientId,
        time: Number(time),
        method,
        path,
        version,
        status,
        code,
        message,
        durationMs,
        requestId,
      })),
    );
    for (const app of batch.apps()) await client.run(PACKED_INSERT, packedParams(app));
    const last = rows[rows.length - 1]!;
    after = [last[0], last[1], last[2]];
  }
  await client.run('DROP TABLE request_log_unpacked', []);
}

type UnpackedRow = [
  string,
  string,
  string,
  string,
  string,
  string,
  number,
  number,
  number | null,
  string | null,
  number,
  string,
];
