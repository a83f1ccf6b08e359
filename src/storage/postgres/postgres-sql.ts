// SQL text for the PostgreSQL backend, built from resource definitions; values always travel as $n parameters.
import { columnOf, representedFields, type AssociationDef, type ResourceDef } from '../../resources/definition.js';
import type { Sort } from '../../query/collection.js';
import { perDefinition } from '../../resources/per-definition.js';
import type { Criteria, Scope } from '../storage.js';
import { matchRanges, searchText, type TierStream } from '../search-keys.js';

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
export function whereClause(def: ResourceDef, scope: Scope, criteria: Criteria, params: Params): Where | undefined {
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
    // The match set (count, and q with sort): for each word, the item's seq among those of the keys it needs.
    // Ranked pages read the tiers instead (streamsQuery).
    const text = searchText(criteria.q);
    if (text === undefined) return undefined;
    const owner = scope.kind === 'tenant' ? `m.tenant_id = ${params.add(scope.tenantId)} AND ` : '';
    for (const [from, to] of matchRanges(text)) {
      clauses.push(
        `t.seq IN (SELECT m.seq FROM ${def.name}_search_keys m WHERE ${owner}m.key >= ${params.add(from)} AND m.key < ${params.add(to)})`,
      );
    }
  }
  return { where: clauses.length > 0 ? clauses.join(' AND ') : 'true' };
}

/**
 * The streams of search tiers in one statement (search-tiers.ts): for each tier in order, its keys' first `limit`
 * rows in creation order (after `afterSeq` when given) that have one of each of its `also` sets of keys, joined to
 * their items and the criteria's filters and relation; rows are the item's columns, its seq, the tier. The tiers
 * travel as arrays and LATERAL subqueries read each key, so the text, and its prepared plan, is one whatever the
 * query; the outer LIMIT stops the tiers after the page. A tier's keys are joined by new lines (keys hold letters,
 * digits, spaces, `|` and `~`), its `also` sets by new lines and a set's keys by tabs.
 */
export function streamsQuery(
  def: ResourceDef,
  scope: Scope,
  criteria: Criteria,
  streams: readonly TierStream[],
  limit: number,
  afterSeq: number | undefined,
): { sql: string; params: unknown[] } {
  const params = new Params();
  const where = whereClause(def, scope, { filters: criteria.filters, related: criteria.related }, params)!.where;
  const tiers = params.add(streams.map((stream) => stream.tier));
  const keys = params.add(streams.map((stream) => stream.keys.join('\n')));
  const also = params.add(streams.map((stream) => stream.also.map((set) => set.join('\t')).join('\n')));
  let bounds = scope.kind === 'tenant' ? `k.tenant_id = ${params.add(scope.tenantId)} AND ` : '';
  if (afterSeq !== undefined) bounds += `k.seq > ${params.add(afterSeq)} AND `;
  const most = params.add(limit);
  const sql = `SELECT r.* FROM unnest(${tiers}::int[], ${keys}::text[], ${also}::text[]) WITH ORDINALITY AS s(tier, keys, also, n)
    CROSS JOIN LATERAL (SELECT m.* FROM unnest(string_to_array(s.keys, E'\\n')) AS kk(key)
      CROSS JOIN LATERAL (SELECT ${selectList(def)}, k.seq AS seq_, s.tier FROM ${def.name}_search_keys k
        JOIN ${def.name} t ON t.tenant_id = k.tenant_id AND t.seq = k.seq
        WHERE ${bounds}k.key = kk.key AND ${where}
          AND NOT EXISTS (SELECT 1 FROM unnest(string_to_array(s.also, E'\\n')) AS a(keys) WHERE NOT EXISTS
            (SELECT 1 FROM ${def.name}_search_keys x WHERE x.tenant_id = k.tenant_id
              AND x.key = ANY(string_to_array(a.keys, E'\\t')) AND x.seq = k.seq))
        ORDER BY k.seq LIMIT ${most}) m
      ORDER BY m.seq_ LIMIT ${most}) r
    LIMIT ${most}`;
  return { sql, params: params.values };
}

/**
 * A range of search keys [from, to) in key order, then creation order, joined to their items and the criteria's
 * filters and relation: rows are the item's columns, its seq and the key.
 */
export function rangeQuery(
  def: ResourceDef,
  scope: Scope,
  criteria: Criteria,
  [from, to]: readonly [string, string],
  limit: number,
  after?: { readonly key: string; readonly seq: number },
): { sql: string; params: unknown[] } {
  const params = new Params();
  const where = whereClause(def, scope, { filters: criteria.filters, related: criteria.related }, params)!.where;
  const tenant = scope.kind === 'tenant' ? `k.tenant_id = ${params.add(scope.tenantId)} AND ` : '';
  // Read on after a row: from its key, the rows of that key after its seq.
  const start = after
    ? `k.key >= ${params.add(after.key)} AND (k.key > ${params.add(after.key)} OR k.seq > ${params.add(after.seq)})`
    : `k.key >= ${params.add(from)}`;
  const sql = `SELECT ${selectList(def)}, k.seq, k.key FROM ${def.name}_search_keys k
    JOIN ${def.name} t ON t.tenant_id = k.tenant_id AND t.seq = k.seq
    WHERE ${tenant}${start} AND k.key < ${params.add(to)} AND ${where}
    ORDER BY k.key, k.seq LIMIT ${params.add(limit)}`;
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

/** The INSERT of one item: tenant, then the represented fields. */
export function insertStatement(def: ResourceDef): string {
  const columns = representedFields(def).map(columnOf);
  const values = columns.map((_, index) => `$${index + 2}`);
  return `INSERT INTO ${def.name} (tenant_id, ${columns.join(', ')}) VALUES ($1, ${values.join(', ')})`;
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
