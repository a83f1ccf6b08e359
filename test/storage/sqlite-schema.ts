// Reads the schema of a SQLite database (sqlite_master, table_info, index_list, index_xinfo) into the form compareSchema takes.
import type Database from 'better-sqlite3';
import type { ActualSchema, ActualTable } from '../../src/storage/expected-schema.js';
import type { SqliteStorage } from '../../src/storage/sqlite/sqlite-storage.js';

interface ColumnInfo {
  name: string;
  notnull: number;
  pk: number;
}
interface IndexInfo {
  name: string;
  unique: number;
  partial: number;
}
interface KeyInfo {
  seqno: number;
  name: string | null;
  key: number;
}

/** The storage's own connection: the schema is read from the database the storage migrated (a test reaches it through a cast). */
export function databaseOf(storage: SqliteStorage): Database.Database {
  return (storage as unknown as { db: Database.Database }).db;
}

export function introspectSqlite(db: Database.Database): ActualSchema {
  const schema = new Map<string, ActualTable>();
  const tables = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table'").all() as Array<{
    name: string;
    sql: string;
  }>;
  for (const { name } of tables) {
    const columns = new Map(
      (db.pragma(`table_info(${quoted(name)})`) as ColumnInfo[])
        // An INTEGER PRIMARY KEY is the rowid: never null, though table_info says notnull 0.
        .map((column) => [column.name, { notNull: column.notnull === 1 || column.pk > 0 }] as const),
    );
    schema.set(name, { columns, indexes: indexesOf(db, name) });
  }
  return schema;
}

function indexesOf(db: Database.Database, table: string): ActualTable['indexes'] {
  const indexes: Array<ActualTable['indexes'][number]> = [];
  for (const index of db.pragma(`index_list(${quoted(table)})`) as IndexInfo[]) {
    // A partial index serves only queries that repeat its WHERE: it is no index of the column in general.
    if (index.partial) continue;
    const sql = (
      db.prepare('SELECT sql FROM sqlite_master WHERE type = ? AND name = ?').get('index', index.name) as
        { sql: string | null } | undefined
    )?.sql;
    const written = sql ? keyList(sql) : [];
    const keys = (db.pragma(`index_xinfo(${quoted(index.name)})`) as KeyInfo[]).filter((key) => key.key === 1);
    // An expression (ci(brand)) has no name in index_xinfo; its text is in the CREATE INDEX statement.
    const columns = keys.map((key) => key.name ?? written[key.seqno] ?? '?');
    indexes.push({ name: index.name, columns, unique: index.unique === 1 });
  }
  return indexes;
}

/** The key list of `CREATE INDEX … ON table (a, ci(b), c)`, each item lower case without spaces. */
function keyList(sql: string): string[] {
  const start = sql.indexOf('(', sql.search(/\bON\b/i));
  const items: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of sql.slice(start + 1)) {
    if (char === '(') depth += 1;
    if (char === ')' && depth-- === 0) break;
    if (char === ',' && depth === 0) {
      items.push(current);
      current = '';
    } else current += char;
  }
  items.push(current);
  return items.map((item) => item.replace(/\s+/g, '').toLowerCase());
}

function quoted(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
