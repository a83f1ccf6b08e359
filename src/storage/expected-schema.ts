// The database schema the resource definitions imply, and the comparison of a real (introspected) schema with it.
//
// Tests of each backend introspect the migrated database into an ActualSchema and compare it with
// expectedSchema(resources): a definition that gains a field, a filter, a reference or a link
// table without the migration that serves it fails there, not in production.
import { columnOf, SORT_INDEXED, type LinkRef, type ResourceDef } from '../resources/definition.js';
import { linkTables as declaredLinkTables, type LinkTable } from '../resources/link-tables.js';

export type Backend = 'sqlite' | 'postgres';

interface ExpectedColumn {
  readonly name: string;
  readonly notNull: boolean;
}

/**
 * An index the queries need: its key starts with `columns` (expressions written as the backend
 * writes them, `ci(brand)` or `lower(brand)`). A unique one must have exactly those columns, in any order.
 */
interface ExpectedIndex {
  readonly columns: readonly string[];
  readonly unique?: boolean;
  /** The access method, when it matters (a GIN or other non-B-tree index). */
  readonly method?: string;
  /** What in the definitions asks for it, for the report. */
  readonly why: string;
}

export interface ExpectedTable {
  readonly name: string;
  readonly columns: readonly ExpectedColumn[];
  readonly indexes: readonly ExpectedIndex[];
}

/** What a backend's introspection reports: per table, its columns and the key columns of its indexes. */
export interface ActualTable {
  readonly columns: ReadonlyMap<string, { readonly notNull: boolean }>;
  readonly indexes: ReadonlyArray<{
    readonly name: string;
    readonly columns: readonly string[];
    readonly unique: boolean;
    readonly method?: string;
  }>;
}

export type ActualSchema = ReadonlyMap<string, ActualTable>;

/** The tables, columns and indexes the definitions (and the declared link tables) imply on `backend`. */
export function expectedSchema(
  defs: readonly ResourceDef[],
  backend: Backend,
  links: readonly LinkTable[] = declaredLinkTables,
): ExpectedTable[] {
  const tables = defs.flatMap((def) => resourceTables(def, backend));
  const linkViews = new Map<string, LinkRef>();
  for (const def of defs) {
    for (const field of Object.values(def.fields)) if (field.link) linkViews.set(field.link.table, field.link);
    for (const association of Object.values(def.associations))
      if ('link' in association) linkViews.set(association.link.table, association.link);
  }
  for (const link of links)
    linkViews.set(link.table, {
      table: link.table,
      selfColumn: link.sides[0].column,
      targetColumn: link.sides[1].column,
    });
  for (const { table, selfColumn, targetColumn } of linkViews.values())
    tables.push(linkTable(table, selfColumn, targetColumn));
  return tables;
}

function resourceTables(def: ResourceDef, backend: Backend): ExpectedTable[] {
  const columns: ExpectedColumn[] = [
    { name: 'tenant_id', notNull: true },
    { name: 'seq', notNull: true },
    { name: 'id', notNull: true },
  ];
  const indexes: ExpectedIndex[] = [
    { columns: ['tenant_id', 'id'], unique: true, why: 'ids are unique per tenant' },
    { columns: ['tenant_id', 'seq'], why: 'a collection is read in creation order' },
  ];
  for (const [name, field] of Object.entries(def.fields)) {
    if (field.kind === 'refs') continue;
    columns.push({ name: columnOf(name), notNull: field.required === true || field.default !== undefined });
    if (field.kind === 'ref')
      indexes.push({ columns: ['tenant_id', columnOf(name), 'seq'], why: `the reference ${def.name}.${name}` });
  }
  columns.push({ name: 'created_at', notNull: true }, { name: 'updated_at', notNull: true });
  for (const [param, name] of Object.entries(def.filters)) {
    // An enum is compared as stored; every other filter through the backend's case folding (query/collection.ts).
    const column = def.fields[name]?.values ? columnOf(name) : folded(columnOf(name), backend);
    indexes.push({ columns: ['tenant_id', column, 'seq'], why: `the filter ${def.name}?${param}` });
  }
  for (const name of SORT_INDEXED) {
    if (name === 'createdAt' ? def.hidesTimestamps : !def.fields[name]) continue;
    const column = name === 'createdAt' ? 'created_at' : sortFolded(columnOf(name), backend);
    indexes.push({ columns: ['tenant_id', column, 'seq'], why: `the sort ${def.name}?sort=${name}` });
  }
  return [{ name: def.name, columns, indexes }, searchKeysTable(def)];
}

/** The search index of ranked search (SPEC §5): each tier is a range of (tenant, key) in creation order. */
function searchKeysTable(def: ResourceDef): ExpectedTable {
  return {
    name: `${def.name}_search_keys`,
    columns: ['tenant_id', 'key', 'seq'].map((name) => ({ name, notNull: true })),
    indexes: [{ columns: ['tenant_id', 'key', 'seq'], unique: true, why: `the search tiers of ${def.name}` }],
  };
}

function linkTable(table: string, first: string, second: string): ExpectedTable {
  const columns = ['tenant_id', 'seq', first, second].map((name) => ({ name, notNull: true }));
  return {
    name: table,
    columns,
    indexes: [
      { columns: ['tenant_id', first, second], unique: true, why: `a pair is linked once in ${table}` },
      { columns: ['tenant_id', first], why: `the items linked to one ${first}` },
      { columns: ['tenant_id', second], why: `the items linked to one ${second}` },
    ],
  };
}

function folded(column: string, backend: Backend): string {
  return backend === 'sqlite' ? `ci(${column})` : `lower(${column})`;
}

/** A sort's key as the index holds it: folded, and on PostgreSQL compared by code point (as introspected). */
function sortFolded(column: string, backend: Backend): string {
  return backend === 'sqlite' ? `ci(${column})` : `lower(${column})collate"c"`;
}

/** Every way `actual` falls short of (or goes beyond, for a resource's columns) `expected`; empty when they agree. */
export function compareSchema(expected: readonly ExpectedTable[], actual: ActualSchema): string[] {
  const differences: string[] = [];
  for (const table of expected) {
    const found = actual.get(table.name);
    if (!found) {
      differences.push(`table ${table.name} is missing`);
      continue;
    }
    for (const column of table.columns) {
      const real = found.columns.get(column.name);
      if (!real) differences.push(`column ${table.name}.${column.name} is missing`);
      else if (real.notNull !== column.notNull) {
        differences.push(
          `column ${table.name}.${column.name} is ${nullability(real.notNull)}, the definition says ` +
            `${nullability(column.notNull)}`,
        );
      }
    }
    const named = new Set(table.columns.map((column) => column.name));
    for (const name of found.columns.keys())
      if (!named.has(name)) differences.push(`column ${table.name}.${name} is in no definition`);
    for (const index of table.indexes) {
      if (!found.indexes.some((real) => serves(real, index))) {
        const method = index.method ? ` using ${index.method}` : '';
        differences.push(
          `${table.name} has no ${index.unique ? 'unique ' : ''}index on (${index.columns.join(', ')})${method} ` +
            `for ${index.why}`,
        );
      }
    }
  }
  return differences;
}

function nullability(notNull: boolean): string {
  return notNull ? 'NOT NULL' : 'nullable';
}

function serves(real: ActualTable['indexes'][number], index: ExpectedIndex): boolean {
  if (index.method && real.method !== index.method) return false;
  if (index.unique) {
    return (
      real.unique &&
      real.columns.length === index.columns.length &&
      index.columns.every((column) => real.columns.includes(column))
    );
  }
  return index.columns.every((column, position) => real.columns[position] === column);
}
