// Reads the schema of a PostgreSQL schema (information_schema, pg_index) into the form compareSchema takes.
import type { TestContext } from 'node:test';
import postgres from 'postgres';
import type { ActualSchema, ActualTable } from '../../src/storage/expected-schema.js';
import { createPostgresStorage } from './databases.js';

const COLUMNS = `SELECT table_name, column_name, is_nullable = 'NO' FROM information_schema.columns
  WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`;

// The key columns of every index but a partial one (which serves only queries that repeat its WHERE),
// an expression written as PostgreSQL prints it (lower(brand)), with the collation the index compares it in when
// that is not the expression's own (lower(name) COLLATE "C"): an index serves only comparisons in its collation. A
// column's own collation is its declared one; an expression's is taken as the database's default.
const INDEXES = `SELECT t.relname, i.relname, x.indisunique, am.amname,
    array(SELECT pg_get_indexdef(x.indexrelid, k, true) || coalesce((SELECT ' COLLATE "' || c.collname || '"'
        FROM pg_collation c WHERE c.oid = x.indcollation[k - 1] AND c.oid <> coalesce((SELECT a.attcollation
          FROM pg_attribute a WHERE a.attrelid = x.indrelid AND a.attnum = x.indkey[k - 1]), 100)), '')
      FROM generate_series(1, x.indnkeyatts) AS k ORDER BY k)
  FROM pg_index x
  JOIN pg_class i ON i.oid = x.indexrelid
  JOIN pg_class t ON t.oid = x.indrelid
  JOIN pg_am am ON am.oid = i.relam
  WHERE t.relnamespace = current_schema()::regnamespace AND x.indpred IS NULL`;

/** The schema of a fresh test database as the service's migrations leave it (dropped when the test ends). */
export async function migratedPostgresSchema(t: TestContext): Promise<ActualSchema> {
  const { storage, database } = await createPostgresStorage();
  t.after(async () => {
    await storage.close();
    await database.drop();
  });
  return introspectPostgres(database.url);
}

/** The tables of the connection's current schema (the test database's search_path). */
export async function introspectPostgres(url: string): Promise<ActualSchema> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const columns = await valueRows<[string, string, boolean]>(sql, COLUMNS);
    const indexes = await valueRows<[string, string, boolean, string, string[]]>(sql, INDEXES);
    const schema = new Map<
      string,
      { columns: Map<string, { notNull: boolean }>; indexes: Array<ActualTable['indexes'][number]> }
    >();
    const tableOf = (name: string) => {
      let table = schema.get(name);
      if (!table) schema.set(name, (table = { columns: new Map(), indexes: [] }));
      return table;
    };
    for (const [table, column, notNull] of columns) tableOf(table).columns.set(column, { notNull });
    for (const [table, name, unique, method, keys] of indexes) {
      tableOf(table).indexes.push({
        name,
        unique,
        method,
        columns: keys.map((key) => key.replace(/\s+/g, '').toLowerCase()),
      });
    }
    return schema;
  } finally {
    await sql.end();
  }
}

/** The rows of `query` as arrays of column values, in the order of its SELECT list: INDEXES has two named relname. */
async function valueRows<Row extends unknown[]>(sql: postgres.Sql, query: string): Promise<Row[]> {
  return (await sql.unsafe(query).values()) as unknown as Row[];
}
