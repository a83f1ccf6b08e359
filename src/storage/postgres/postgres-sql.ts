// SQL text for the PostgreSQL backend, built from resource definitions; values always travel as $n parameters.
import { columnOf, representedFields, type AssociationDef, type ResourceDef } from '../../resources/definition.js';
import type { Sort } from '../../query/collection.js';
import { perDefinition } from '../../resources/per-definition.js';
import type { Criteria, Scope } from '../storage.js';
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
export function orderBy(sort: Sort | undefined): string {
  const keys: string[] = [];
  if (sort) {
    const column = `t.${columnOf(sort.field)}`;
    const key = TIMESTAMPS.has(sort.field) ? column : `lower(${column}) COLLATE "C"`;
    keys.push(sort.descending ? `${key} DESC NULLS LAST` : `${key} ASC NULLS FIRST`);
  }
  keys.push('t.seq');
  return keys.join(', ');
}

export interface Where {
  readonly where: string;
}

/** The WHERE clause of tenant, filters, relation and search; undefined when nothing can match. */
export function whereClause(scope: Scope, criteria: Criteria, params: Params): Where | undefined {
  const clauses: string[] = [];
  // The public view reads every tenant's rows; a tenant's reads are bounded by its id.
  if (scope.kind === 'tenant') clauses.push(`t.tenant_id = ${params.add(scope.tenantId)}`);
  for (const filter of criteria.filters) {
    // An enum holds canonical lower-case values: compared as stored, so its plain index serves.
    const column = `t.${columnOf(filter.field)}`;
    clauses.push(`${filter.exact ? column : `lower(${column})`} = ANY(${params.add(filter.values)}::text[])`);
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
  if (criteria.q !== undefined) {
    // The match set (count, and q with sort); ranked pages read the tiers instead (streamsQuery).
    const query = searchQuery(criteria.q);
    if (query === undefined) return undefined;
    clauses.push(`t.search_vector @@ ${params.add(query)}::tsquery`);
  }
  return { where: clauses.length > 0 ? clauses.join(' AND ') : 'true' };
}

/**
 * The streams of search tiers in one statement (search-tiers.ts): for each tier in order, its key's first `limit`
 * rows in creation order (after `afterSeq` when given) that have its `also` keys, joined to their items and the
 * criteria's filters and relation; rows are the item's columns, its seq, the tier. The tiers travel as arrays and a
 * LATERAL subquery reads each, so the text, and its prepared plan, is one whatever the query; the outer LIMIT stops
 * the tiers after the page. `also` keys are words (letters and digits), joined by spaces.
 */
export function streamsQuery(
  def: ResourceDef,
  scope: Scope,
  criteria: Criteria,
  streams: ReadonlyArray<{ readonly tier: number; readonly key: string; readonly also: readonly string[] }>,
  limit: number,
  afterSeq: number | undefined,
): { sql: string; params: unknown[] } {
  const params = new Params();
  const where = whereClause(scope, { filters: criteria.filters, related: criteria.related }, params)!.where;
  const tiers = params.add(streams.map((stream) => stream.tier));
  const keys = params.add(streams.map((stream) => stream.key));
  const also = params.add(streams.map((stream) => stream.also.join(' ')));
  let bounds = scope.kind === 'tenant' ? `k.tenant_id = ${params.add(scope.tenantId)} AND ` : '';
  if (afterSeq !== undefined) bounds += `k.seq > ${params.add(afterSeq)} AND `;
  const most = params.add(limit);
  const sql = `SELECT r.* FROM unnest(${tiers}::int[], ${keys}::text[], ${also}::text[]) WITH ORDINALITY AS s(tier, key, also, n)
    CROSS JOIN LATERAL (SELECT ${selectList(def)}, k.seq, s.tier FROM ${def.name}_search_keys k
      JOIN ${def.name} t ON t.tenant_id = k.tenant_id AND t.seq = k.seq
      WHERE ${bounds}k.key = s.key AND ${where}
        AND NOT EXISTS (SELECT 1 FROM unnest(string_to_array(s.also, ' ')) AS a(key) WHERE NOT EXISTS
          (SELECT 1 FROM ${def.name}_search_keys x WHERE x.tenant_id = k.tenant_id AND x.key = a.key AND x.seq = k.seq))
      ORDER BY k.seq LIMIT ${most}) r
    LIMIT ${most}`;
  return { sql, params: params.values };
}

/** How many postings each key has, up to `bound`: one row, a count per key. */
export function postingsQuery(
  def: ResourceDef,
  scope: Scope,
  keys: readonly string[],
  bound: number,
): { sql: string; params: unknown[] } {
  const params = new Params();
  const tenant = scope.kind === 'tenant' ? `tenant_id = ${params.add(scope.tenantId)} AND ` : '';
  const counts = keys.map(
    (key) =>
      `(SELECT count(*) FROM (SELECT 1 FROM ${def.name}_search_keys WHERE ${tenant}key = ${params.add(key)} LIMIT ${Math.trunc(bound)}) p)`,
  );
  return { sql: `SELECT ${counts.join(', ')}`, params: params.values };
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
 */
export function relatedQuery(association: AssociationDef, target: ResourceDef): string {
  if (association.kind === 'one') {
    return `SELECT ${selectList(target)}, t.id FROM ${target.name} t WHERE t.tenant_id = $1 AND t.id = ANY($2::text[])`;
  }
  let inner: string;
  if ('reverseField' in association) {
    const column = `t.${columnOf(association.reverseField)}`;
    inner = `SELECT ${selectList(target)}, ${column} AS k, t.seq AS s, ROW_NUMBER() OVER (PARTITION BY ${column} ORDER BY t.seq) AS n
      FROM ${target.name} t WHERE t.tenant_id = $1 AND ${column} = ANY($2::text[])`;
  } else {
    const { table, selfColumn, targetColumn } = association.link;
    inner = `SELECT ${selectList(target)}, l.${selfColumn} AS k, t.seq AS s, ROW_NUMBER() OVER (PARTITION BY l.${selfColumn} ORDER BY t.seq) AS n
      FROM ${table} l JOIN ${target.name} t ON t.tenant_id = l.tenant_id AND t.id = l.${targetColumn}
      WHERE l.tenant_id = $1 AND l.${selfColumn} = ANY($2::text[])`;
  }
  const columns = [...representedFields(target).map((name) => `r.${columnOf(name)}`), 'r.k'].join(', ');
  return `SELECT ${columns} FROM (${inner}) r WHERE r.n <= $3 ORDER BY r.s`;
}
