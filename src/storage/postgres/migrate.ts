// Applies the PostgreSQL migrations on start: in one transaction, under an advisory lock, recorded in
// schema_migrations.
import type pg from 'pg';
import { migrations } from './postgres-migrations.js';

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
