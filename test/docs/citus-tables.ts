// Reads the Citus table list of docs/deployment.md and checks it against a migrated schema (SQLite's or PostgreSQL's).
import fs from 'node:fs';
import type { ActualSchema } from '../../src/storage/expected-schema.js';

export const DEPLOYMENT_DOC = 'docs/deployment.md';

export type CitusKind = 'distributed' | 'reference' | 'local';

export interface CitusTable {
  readonly table: string;
  readonly kind: CitusKind;
  /** The distribution column of a distributed table. */
  readonly column?: string;
}

/** A `create_distributed_table` or `create_reference_table` statement of the doc's SQL block. */
export interface CitusStatement {
  readonly table: string;
  readonly column?: string;
  readonly colocateWith?: string;
}

const HEADER = '| table | Citus | distribution column |';
const KINDS: readonly string[] = ['distributed', 'reference', 'local'];

export function readDeploymentDoc(): string {
  return fs.readFileSync(DEPLOYMENT_DOC, 'utf8');
}

/** The section "The path to Citus", up to the next section of the same level. */
function citusSection(doc: string): string {
  const start = doc.indexOf('\n## The path to Citus\n');
  if (start < 0) throw new Error(`${DEPLOYMENT_DOC} has no section "## The path to Citus"`);
  const end = doc.indexOf('\n## ', start + 1);
  return doc.slice(start, end < 0 ? undefined : end);
}

/** The rows of the table that starts with HEADER: one per table, its kind and distribution column. */
export function citusTables(doc: string): CitusTable[] {
  const lines = citusSection(doc).split('\n');
  const header = lines.indexOf(HEADER);
  if (header < 0) throw new Error(`the Citus section of ${DEPLOYMENT_DOC} has no table headed "${HEADER}"`);
  const rows: CitusTable[] = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const [table = '', kind = '', column = ''] = line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim().replace(/^`|`$/g, ''));
    if (!KINDS.includes(kind)) throw new Error(`unknown kind "${kind}" in the row: ${line}`);
    rows.push({ table, kind: kind as CitusKind, ...(column ? { column } : {}) });
  }
  return rows;
}

/** The distribution statements of the section's SQL blocks. */
export function citusStatements(doc: string): { distributed: CitusStatement[]; reference: string[] } {
  const sql = [...citusSection(doc).matchAll(/```sql\n([\s\S]*?)```/g)].map((match) => match[1]).join('\n');
  const distributed = [
    ...sql.matchAll(/create_distributed_table\('(\w+)', '(\w+)'(?:, colocate_with => '(\w+)')?\)/g),
  ].map(([, table, column, colocateWith]) => ({ table: table!, column, colocateWith }));
  const reference = [...sql.matchAll(/create_reference_table\('(\w+)'\)/g)].map((match) => match[1]!);
  return { distributed, reference };
}

/** SQLite's own tables: its catalogue. */
export function withoutSqliteOnlyTables(schema: ActualSchema): ActualSchema {
  return new Map([...schema].filter(([name]) => !name.startsWith('sqlite_')));
}

/**
 * Every way the list and the schema disagree: a table in no row or in two, a row for no table, a
 * distributed table whose column is missing, nullable, or absent from one of its unique indexes
 * (the primary key is one), which Citus refuses.
 */
export function citusFaults(rows: readonly CitusTable[], schema: ActualSchema): string[] {
  const faults: string[] = [];
  const listed = new Map<string, number>();
  for (const row of rows) listed.set(row.table, (listed.get(row.table) ?? 0) + 1);
  for (const [table, count] of listed) if (count > 1) faults.push(`${table} is listed ${count} times`);
  for (const name of schema.keys()) if (!listed.has(name)) faults.push(`${name} is in no list`);
  for (const row of rows) {
    const table = schema.get(row.table);
    if (!table) {
      faults.push(`${row.table} is listed but is no table of the schema`);
      continue;
    }
    if (row.kind !== 'distributed') continue;
    const column = row.column === undefined ? undefined : table.columns.get(row.column);
    if (!row.column || !column) {
      faults.push(`${row.table} is distributed by "${row.column ?? ''}", which is no column of it`);
      continue;
    }
    if (!column.notNull) faults.push(`${row.table}.${row.column}, its distribution column, may be null`);
    for (const index of table.indexes) {
      if (index.unique && !index.columns.includes(row.column))
        faults.push(`${row.table}'s unique index ${index.name} (${index.columns.join(', ')}) lacks ${row.column}`);
    }
  }
  return faults;
}
