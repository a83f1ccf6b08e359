// Test support: SQL straight on a storage's own database, for what the API never shows (link rows, key records' ages).
import type Database from 'better-sqlite3';
import type { Executor } from '../src/storage/postgres/connection.js';
import type { Storage } from '../src/storage/storage.js';

/** Runs `sql` (with `?` placeholders) on the storage's database and gives its first column of the first row. */
export async function rawValue(storage: Storage, sql: string, params: readonly unknown[] = []): Promise<unknown> {
  if (storage.kind === 'sqlite')
    return (storage as unknown as { db: Database.Database }).db
      .prepare(sql)
      .pluck()
      .get(...params);
  let n = 0;
  const [row] = await (storage as unknown as { db: Executor }).db.rows(
    sql.replace(/\?/g, () => `$${(n += 1)}`),
    params,
  );
  return row?.[0];
}

/** Runs a statement that returns no rows (an UPDATE, a DELETE). */
export async function rawRun(storage: Storage, sql: string, params: readonly unknown[] = []): Promise<void> {
  if (storage.kind === 'sqlite') {
    (storage as unknown as { db: Database.Database }).db.prepare(sql).run(...params);
    return;
  }
  let n = 0;
  await (storage as unknown as { db: Executor }).db.run(
    sql.replace(/\?/g, () => `$${(n += 1)}`),
    params,
  );
}

/** How many rows of `table` hold `value` in `column`. */
export async function rowsHolding(
  storage: Storage,
  table: string,
  column: string,
  value: string | null,
): Promise<number> {
  return Number(await rawValue(storage, `SELECT count(*) FROM ${table} WHERE ${column} = ?`, [value]));
}
