// SQL text for the PostgreSQL backend, built from resource definitions; values always travel as $n parameters.
import { columnOf, representedFields, type AssociationDef, type ResourceDef } from '../../resources/definition.js';
import type { Filter, Sort } from '../../query/collection.js';
import { perDefinition } from '../../resources/per-definition.js';
import type { Criteria, ListQuery, Scope } from '../storage.js';
import { searchQuery } from './text-search.js';

/** Positional parameters collected while a statement is written: add() gives the placeholder of a value. */
export class Params {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

const TIMESTAMPS = new Set(['createdAt', 'updatedAt']);
/** Timestamps are read back exactly as the service wrote them: RFC 3339 UTC with milliseconds. */
const RFC3339 = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/**
 * The columns of a representation, in the order of representedFields, each named by its column (built once per
 * resource).
 */
export const selectList = perDefinition((def: ResourceDef): string =>
  representedFields(def)
    .map((name) => {
      const column = columnOf(name);
      return TIMESTAMPS.has(name) ? `to_char(t.${column} AT TIME ZONE 'UTC', ${RFC3339}) AS ${column}` : `t.${column}`;
    })
    .join(', '),
);

/**
 * The ORDER BY of a sort. Text compares case-insensitively and by code point (COLLATE "C"), and
 * null sorts first, as in SQLite, so that both backends give the same order; ties in creation order.
 */
export function orderBy(sort: Sort | undefined, rank: string | undefined): string {
  const keys: string[] = [];
  if (sort) {
    const column = `t.${columnOf(sort.field)}`;
    const key = TIMESTAMPS.has(sort.field) ? column : `lower(${column}) COLLATE "C"`;
    keys.push(sort.descending ? `${key} DESC NULLS LAST` : `${key} ASC NULLS FIRST`);
  } else if (rank !== undefined) {
    keys.push(`${rank} DESC`);
  }
  keys.push('t.seq');
  return keys.join(', ');
}

export interface Where {
  readonly where: string;
  /** With search text: the relevance of a row (higher is better), for ORDER BY. */
  readonly rank?: string;
}

/**
 * The WHERE clause of tenant, filters, relation and search; undefined when nothing can match. The `spread` filter,
 * if any, compares with `v.value` instead of its values: one value of it per LATERAL subquery (listStatement).
 */
export function whereClause(scope: Scope, criteria: Criteria, params: Params, spread?: Filter): Where | undefined {
  const clauses: string[] = [];
  // The public view reads every tenant's rows; a tenant's reads are bounded by its id.
  if (scope.kind === 'tenant') clauses.push(`t.tenant_id = ${params.add(scope.tenantId)}`);
  for (const filter of criteria.filters) {
    // An enum holds canonical lower-case values: compared as stored, so its plain index serves. One value is an
    // equality, so that the (tenant_id, column, seq) index gives the page in order, in a generic plan too (with
    // ANY, PostgreSQL reads every match and sorts them: the whole tenant's brown dogs for ten).
    const column = filter.exact ? `t.${columnOf(filter.field)}` : `lower(t.${columnOf(filter.field)})`;
    clauses.push(
      filter === spread
        ? `${column} = v.value`
        : filter.values.length === 1
          ? `${column} = ${params.add(filter.values[0])}`
          : `${column} = ANY(${params.add(filter.values)}::text[])`,
    );
  }
  if (criteria.related) {
    const { association, parentId } = criteria.related;
    if ('reverseField' in association) {
      clauses.push(`t.${columnOf(association.reverseField)} = ${params.add(parentId)}`);
    } else if ('link' in association) {
      const { table, selfColumn, targetColumn } = association.link;
      clauses.push(
        `EXISTS (SELECT 1 FROM ${table} l WHERE l.tenant_id = t.tenant_id AND l.${selfColumn} = ${params.add(parentId)} AND l.${targetColumn} = t.id)`,
      );
    }
  }
  let rank: string | undefined;
  if (criteria.q !== undefined) {
    const query = searchQuery(criteria.q);
    if (query === undefined) return undefined;
    const tsquery = `${params.add(query)}::tsquery`;
    clauses.push(`t.search_vector @@ ${tsquery}`);
    // Normalization 1 divides by 1 + log(number of words): a short item that matches ranks higher.
    rank = `ts_rank(t.search_vector, ${tsquery}, 1)`;
  }
  return { where: clauses.length > 0 ? clauses.join(' AND ') : 'true', rank };
}

/** The columns of selectList as read back from a subquery `r`. */
const outerList = perDefinition((def: ResourceDef): string =>
  representedFields(def)
    .map((name) => `r.${columnOf(name)}`)
    .join(', '),
);

/**
 * The SELECT of a page (limit + 1 items, to know whether more follow); undefined when nothing can match. In creation
 * order, a filter of several values reads each value's first items by its own `(tenant_id, column, seq)` index range
 * in a LATERAL subquery, and the page is the first of their union: with `= ANY`, PostgreSQL reads every match of
 * every value and sorts them, the whole tenant's brown dogs for ten.
 */
export function listStatement(def: ResourceDef, scope: Scope, query: ListQuery, params: Params): string | undefined {
  const spread = query.sort || query.q !== undefined ? undefined : query.filters.find((f) => f.values.length > 1);
  const clause = whereClause(scope, query, params, spread);
  if (clause === undefined) return undefined;
  if (!spread) {
    return `SELECT ${selectList(def)} FROM ${def.name} t WHERE ${clause.where}
      ORDER BY ${orderBy(query.sort, clause.rank)} LIMIT ${params.add(query.limit + 1)} OFFSET ${params.add(query.offset)}`;
  }
  const values = params.add(spread.values);
  const reach = params.add(query.offset + query.limit + 1);
  return `SELECT ${outerList(def)} FROM (SELECT DISTINCT unnest(${values}::text[])) AS v(value)
    CROSS JOIN LATERAL (SELECT ${selectList(def)}, t.seq FROM ${def.name} t WHERE ${clause.where} ORDER BY t.seq LIMIT ${reach}) r
    ORDER BY r.seq LIMIT ${params.add(query.limit + 1)} OFFSET ${params.add(query.offset)}`;
}

/** The INSERT of one item: tenant, the represented fields, then the search columns. */
export function insertStatement(def: ResourceDef): string {
  const columns = representedFields(def).map(columnOf);
  const values = columns.map((_, index) => `$${index + 2}`);
  const words = columns.length + 2;
  return `INSERT INTO ${def.name} (tenant_id, ${columns.join(', ')}, search_words, search_vector)
    VALUES ($1, ${values.join(', ')}, $${words}, $${words + 1}::tsvector)`;
}

/**
 * One query for an association over many parents: rows are the target's columns, then the key
 * they belong to. The keys are one array parameter ($2), so the text is the same however many
 * there are; $1 is the tenant and $3 the most items per key.
 *
 * For `many`, each key is its own LATERAL subquery in creation order with its LIMIT: an index
 * range that stops at $3 items (the `(tenant_id, <ref>, seq)` index gives them in order), whatever
 * statistics PostgreSQL has. Numbering every key's items with a window function read all of them
 * first, and a join of the link rows planned without statistics walked the link table once per
 * target row (docs/performance.md, "Plans").
 */
export function relatedQuery(association: AssociationDef, target: ResourceDef): string {
  if (association.kind === 'one') {
    return `SELECT ${selectList(target)}, t.id FROM ${target.name} t WHERE t.tenant_id = $1 AND t.id = ANY($2::text[])`;
  }
  let inner: string;
  if ('reverseField' in association) {
    inner = `SELECT ${selectList(target)}, t.seq FROM ${target.name} t
      WHERE t.tenant_id = $1 AND t.${columnOf(association.reverseField)} = k.key ORDER BY t.seq LIMIT $3`;
  } else {
    const { table, selfColumn, targetColumn } = association.link;
    inner = `SELECT ${selectList(target)}, t.seq FROM ${table} l JOIN ${target.name} t ON t.tenant_id = l.tenant_id AND t.id = l.${targetColumn}
      WHERE l.tenant_id = $1 AND l.${selfColumn} = k.key ORDER BY t.seq LIMIT $3`;
  }
  return `SELECT ${outerList(target)}, k.key FROM unnest($2::text[]) AS k(key) CROSS JOIN LATERAL (${inner}) r ORDER BY r.seq`;
}
