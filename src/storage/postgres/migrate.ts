// Applies the PostgreSQL migrations on start: in one transaction, under an advisory lock, recorded in
// schema_migrations.
import type pg from 'pg';
import { representedFields, type FieldValue } from '../../resources/definition.js';
import { resourceByName } from '../../resources/index.js';
import { toItem } from '../items.js';
import { itemKeys } from '../search-keys.js';
import { migrations, SEARCH_INDEXED } from './postgres-migrations.js';
import { selectList } from './postgres-sql.js';

/** The migration that creates the search index (postgres-migrations.ts). */
const SEARCH_KEYS_VERSION = 8;
/** Items read, and their keys written, per statement when the stored items are indexed. */
const ITEMS_PER_BATCH = 500;

/**
 * The key of the advisory lock the nodes take to migrate ("dogreg" in ASCII): when several
 * start at once, one applies the migrations and the others wait, then find nothing left to do.
 */
const MIGRATION_LOCK = 0x646f67726567;

export async function runMigrations(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  let healthy = true;
  try {
    await client.query('BEGIN');
    // Held until COMMIT or ROLLBACK; a transaction-level lock also works behind a transaction pooler.
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY,
      description text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
    const applied = new Set(rows.map((row) => row.version));
    const pending = migrations.filter((migration) => !applied.has(migration.version));
    for (const migration of pending) {
      await client.query(migration.sql);
      if (migration.version === SEARCH_KEYS_VERSION) await indexStoredItems(client);
      await client.query('INSERT INTO schema_migrations (version, description) VALUES ($1, $2)', [
        migration.version,
        migration.description,
      ]);
    }
    if (pending.length > 0) await analyzeSchema(client);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {
      healthy = false;
    });
    throw error;
  } finally {
    client.release(!healthy);
  }
}

/**
 * A table or index just made has no statistics until autovacuum's next round, and a read planned meanwhile may walk a
 * tenant (docs/performance.md, "Plans"). So the migration ends with ANALYZE of the schema's own tables (only those:
 * the database may hold others'), a sample of each, in the same transaction.
 */
async function analyzeSchema(client: pg.PoolClient): Promise<void> {
  const { rows } = await client.query<{ name: string }>(
    `SELECT quote_ident(relname) AS name FROM pg_class WHERE relnamespace = current_schema()::regnamespace AND relkind = 'r'`,
  );
  await client.query(`ANALYZE ${rows.map((row) => row.name).join(', ')}`);
}

/**
 * The items stored before the search index existed get their keys, in the transaction that creates it (and a test's
 * bulk load, test/pg/plan-seed.ts, through the same code).
 */
export async function indexStoredItems(client: pg.ClientBase): Promise<void> {
  for (const def of SEARCH_INDEXED.map((name) => resourceByName(name)!)) {
    const names = representedFields(def);
    // In batches along the primary key (tenant, seq), so that memory stays bounded however many items there are.
    let after: unknown[] = ['', 0];
    for (;;) {
      const { rows } = await client.query<FieldValue[]>({
        text: `SELECT ${selectList(def)}, t.seq, t.tenant_id FROM ${def.name} t WHERE (t.tenant_id, t.seq) > ($1, $2)
          ORDER BY t.tenant_id, t.seq LIMIT ${ITEMS_PER_BATCH}`,
        values: after,
        rowMode: 'array',
      });
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
      await client.query(
        `INSERT INTO ${def.name}_search_keys (tenant_id, key, seq) SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[])`,
        [tenants, keys, seqs],
      );
      const last = rows[rows.length - 1]!;
      after = [last[names.length + 1], last[names.length]];
    }
  }
}
