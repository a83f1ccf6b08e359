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
    for (const migration of migrations) {
      if (applied.has(migration.version)) continue;
      await client.query(migration.sql);
      await client.query('INSERT INTO schema_migrations (version, description) VALUES ($1, $2)', [
        migration.version,
        migration.description,
      ]);
    }
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
