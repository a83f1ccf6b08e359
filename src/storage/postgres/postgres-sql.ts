// SQL text for the PostgreSQL backend, built from resource definitions; values always travel as $n parameters.
import { columnOf, representedFields, type AssociationDef, type ResourceDef } from '../../resources/definition.js';
import type { Filter, Sort } from '../../query/collection.js';
import { perDefinition } from '../../resources/per-definition.js';
import type { Criteria, ListQuery, Scope } from '../storage.js';
import { matchRanges, matchSet, searchText, type TierStream } from '../search-keys.js';
import { SPREAD_UNIT } from '../search-tiers.js';

/** Positional parameters collected while a statement is written: add() gives the placeholder of a value. */
export class Params {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

const TIMESTAMPS = new Set(['createdAt', 'updatedAt']);

/**
 * The columns of a representation, in the order of representedFields, each named by its column (built once per
 * resource). An item's timestamps are kept as RFC 3339 text, as the service writes them (migration 13).
 */
export const selectList = perDefinition((def: ResourceDef): string =>
  representedFields(def)
    .map((name) => `t.${columnOf(name)}`)
    .join(', '),
);

/**
 * The ORDER BY of a sort. Text compares case-insensitively and by code point (COLLATE "C"), and
 * null sorts first, as in SQLite, so that both backends give the same order; ties in creation order.
 */
function orderBy(sort: Sort | undefined): string {
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

/**
 * The WHERE clause of tenant, filters, relation and search; undefined when nothing can match. The `spread` filter,
 * if any, compares with `v.value` instead of its values: one value of it per LATERAL subquery (listStatement).
 */
export function whereClause(
  def: ResourceDef,
  scope: Scope,
  criteria: Criteria,
  params: Params,
  spread?: Filter,
): Where | undefined {
  const clauses: string[] = [];
  // The public view reads every tenant's rows; a tenant's reads are bounded by its id.
  if (scope.kind === 'tenant') clauses.push(`t.tenant_id = ${params.add(scope.tenantId)}`);
  for (const filter of criteria.filters) {
    // An enum holds canonical lower-case values: compared as stored, so its plain index serves. One value is an
    // equality, so that the (tenant_id, column, seq) index gives the page in order, in a generic plan too (with
    // ANY, PostgreSQL reads every match and sorts them: the whole tenant's brown dogs for ten).
    const column = filterColumn(filter);
    if (scope.kind === 'public' && filter.exact && filter.values.length === 1 && filter !== spread) {
      // Across tenants, only a partial index serves an enum's value (dogs_adoptable), and a plan may use it only when
      // the value is in the text: a parameter's plan is made without it when the read is batched (read-batch.ts), and
      // may be generic. An enum's value is one of its definition's few words, so the statements stay few (as SQLite's).
      clauses.push(`${column} = '${filter.values[0]!.replaceAll("'", "''")}'`);
      continue;
    }
    clauses.push(
      filter === spread
        ? // A range of one value, not an equality: PostgreSQL would take the ORDER BY's value as settled and walk
          // every item in creation order for it, the estimate of a value it cannot see (v.value) being a common one.
          `${column} >= v.value AND ${column} <= v.value`
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
  if (criteria.q !== undefined) {
    // The match set (count, and q with sort): for each word, the item's seq among those of the keys it needs.
    // Ranked pages read the tiers instead (streamsQuery).
    const text = searchText(criteria.q);
    if (text === undefined) return undefined;
    const tenantId = scope.kind === 'tenant' ? scope.tenantId : undefined;
    clauses.push(`t.seq IN (${matchSet(def.name, matchRanges(text), tenantId, (value) => params.add(value))})`);
  }
  return { where: clauses.length > 0 ? clauses.join(' AND ') : 'true' };
}

/** The columns of selectList as read back from a subquery `r`. */
const outerList = perDefinition((def: ResourceDef): string =>
  representedFields(def)
    .map((name) => `r.${columnOf(name)}`)
    .join(', '),
);

/** What a filter compares: an enum's column as stored, a text column lower-cased (its index is on that). */
function filterColumn(filter: Filter): string {
  return filter.exact ? `t.${columnOf(filter.field)}` : `lower(t.${columnOf(filter.field)})`;
}

/**
 * The SELECT of a page (limit + 1 items, to know whether more follow); undefined when nothing can match. In creation
 * order, a filter of several values reads each value's first items by its own `(tenant_id, column, seq)` index range
 * in a LATERAL subquery, and the page is the first of their union: with `= ANY`, PostgreSQL reads every match of
 * every value and sorts them, the whole tenant's brown dogs for ten.
 */
export function listStatement(
  def: ResourceDef,
  scope: Scope,
  query: ListQuery,
  params: Params,
  fields?: readonly string[],
): string | undefined {
  const spread = query.sort || query.q !== undefined ? undefined : query.filters.find((f) => f.values.length > 1);
  const clause = whereClause(def, scope, query, params, spread);
  if (clause === undefined) return undefined;
  // Every represented field, or only those asked for (a page written as JSON reads no other column).
  const [inner, outer] = fields ? columnLists(def, fields) : [selectList(def), outerList(def)];
  if (!spread) {
    return `SELECT ${inner} FROM ${def.name} t WHERE ${clause.where}
      ORDER BY ${orderBy(query.sort)} LIMIT ${params.add(query.limit + 1)} OFFSET ${params.add(query.offset)}`;
  }
  const values = params.add(spread.values);
  const reach = params.add(query.offset + query.limit + 1);
  // Within one value (a range of it: whereClause), the value and then seq is seq's order, and only the filter's index
  // gives it without a sort: a plan that walked every item in creation order for a value no item has (a colour no
  // adoptable dog has, across tenants: 20,000 rows for nothing at 100,000 dogs) is then never cheaper.
  const column = filterColumn(spread);
  return `SELECT ${outer} FROM (SELECT DISTINCT unnest(${values}::text[])) AS v(value)
    CROSS JOIN LATERAL (SELECT ${inner}, t.seq FROM ${def.name} t WHERE ${clause.where}
      ORDER BY ${column}, t.seq LIMIT ${reach}) r
    ORDER BY r.seq LIMIT ${params.add(query.limit + 1)} OFFSET ${params.add(query.offset)}`;
}

/** The column lists of `fields` kept per definition, by the fields' names: they vary with the request, so few are kept. */
const keptColumnLists = perDefinition((_def: ResourceDef) => new Map<string, readonly [string, string]>());
const MOST_COLUMN_LISTS = 100;

/**
 * The columns of `fields` read from `t` and from the subquery `r`; a row of no field still reads one column (a SELECT
 * list is never empty). Only a represented field's name reaches the text.
 */
function columnLists(def: ResourceDef, fields: readonly string[]): readonly [string, string] {
  const kept = keptColumnLists(def);
  const key = fields.join(',');
  let lists = kept.get(key);
  if (lists === undefined) {
    const represented = representedFields(def);
    const columns = (fields.length > 0 ? fields : ['id']).map((name) => {
      if (!represented.includes(name)) throw new Error(`not a field name: ${name}`);
      return columnOf(name);
    });
    lists = [columns.map((column) => `t.${column}`).join(', '), columns.map((column) => `r.${column}`).join(', ')];
    if (kept.size < MOST_COLUMN_LISTS) kept.set(key, lists);
  }
  return lists;
}

/** The columns of `fields` read from `t` (columnLists), or of every represented field. */
function itemColumns(def: ResourceDef, fields: readonly string[] | undefined): string {
  return fields ? columnLists(def, fields)[0] : selectList(def);
}

/**
 * The streams of search tiers in one statement (search-tiers.ts): for each tier in order, its keys' first `limit`
 * rows in creation order (after `afterSeq` when given) that have one of each of its `also` sets of keys, joined to
 * their items and the criteria's filters and relation; rows are the item's columns (of `fields`, or all), its seq,
 * the tier. The tiers travel as arrays and LATERAL subqueries read each key, so the text, and its prepared plan, is
 * one whatever the query; the outer LIMIT stops the tiers after the page. A tier's keys are joined by new lines (keys hold letters,
 * digits, spaces, `|` and `~`), its `also` sets by new lines and a set's keys by tabs.
 *
 * In a tenant's scope, when every stream is one key with sets of one key (mergedWords), the keys' postings are merged
 * side by side in creation order (merge joins of index ranges) instead of a descent of the index for each candidate
 * and word: `rex oslo` at 100,000 dogs, 11 candidates, 122 → 87 µs a call in a batch of 50.
 *
 * Each row ends with `stale`: in a tenant's scope, whether any of the keys `none` (kept as having no postings, and so
 * left out of the streams: postings-cache.ts) has postings now; when no tier has a row, one row of nulls carries it.
 */
export function streamsQuery(
  def: ResourceDef,
  scope: Scope,
  criteria: Criteria,
  streams: readonly TierStream[],
  limit: number,
  afterSeq: number | undefined,
  fields?: readonly string[],
  none: readonly string[] = [],
): { sql: string; params: unknown[] } {
  const params = new Params();
  const tenant = scope.kind === 'tenant' ? params.add(scope.tenantId) : undefined;
  // The public view counts no kept postings (a key alone is no range of the index, whose rows lead with the tenant).
  const stale =
    tenant !== undefined
      ? `EXISTS (SELECT 1 FROM ${def.name}_search_keys z WHERE z.tenant_id = ${tenant}
        AND z.key = ANY(string_to_array(${params.add(none.join('\n'))}::text, E'\\n')))`
      : 'false';
  const where = whereClause(def, scope, { filters: criteria.filters, related: criteria.related }, params)!.where;
  const tiers = params.add(streams.map((stream) => stream.tier));
  const others = mergedWords(streams);
  if (tenant !== undefined && others > 0) {
    // One key per word, whose postings, all in creation order, are merged side by side: a descent of the index per
    // word in all.
    const keys = params.add(streams.map((stream) => stream.keys[0]!));
    const also = Array.from({ length: others }, (_, at) => params.add(streams.map((stream) => stream.also[at]![0]!)));
    const from = afterSeq === undefined ? undefined : params.add(afterSeq);
    const words = also.map((_, at) => `x${at}`);
    const arrays = also.map((param) => `${param}::text[]`).join(', ');
    const columns = words.map((x) => `${x}_key`).join(', ');
    const joins = words
      .map((x) => `JOIN ${def.name}_search_keys ${x} ON ${x}.tenant_id = k.tenant_id AND ${x}.seq = k.seq`)
      .join(' ');
    // Every side starts after the last row read: each index range then begins there.
    const bounds = ['k', ...words]
      .map((x) => `${x}.tenant_id = ${tenant}${from === undefined ? '' : ` AND ${x}.seq > ${from}`}`)
      .join(' AND ');
    const matches = words.map((x) => ` AND ${x}.key = s.${x}_key`).join('');
    const most = params.add(limit);
    const read = `SELECT r.* FROM unnest(${tiers}::int[], ${keys}::text[], ${arrays}) WITH ORDINALITY AS s(tier, key, ${columns}, n)
    CROSS JOIN LATERAL (SELECT i.*, k.seq AS seq_, s.tier FROM ${def.name}_search_keys k ${joins}
      ${keyItem(def, fields, where)} i
      WHERE ${bounds} AND k.key = s.key${matches}
      ORDER BY k.seq LIMIT ${most}) r`;
    return { sql: withStale(stale, read, most), params: params.values };
  }
  const keys = params.add(streams.map((stream) => stream.keys.join('\n')));
  const also = params.add(streams.map((stream) => stream.also.map((set) => set.join('\t')).join('\n')));
  let bounds = tenant !== undefined ? `k.tenant_id = ${tenant} AND ` : '';
  if (afterSeq !== undefined) bounds += `k.seq > ${params.add(afterSeq)} AND `;
  const most = params.add(limit);
  const read = `SELECT r.* FROM unnest(${tiers}::int[], ${keys}::text[], ${also}::text[]) WITH ORDINALITY AS s(tier, keys, also, n)
    CROSS JOIN LATERAL (SELECT m.* FROM unnest(string_to_array(s.keys, E'\\n')) AS kk(key)
      CROSS JOIN LATERAL (SELECT i.*, k.seq AS seq_, s.tier FROM ${def.name}_search_keys k
        ${keyItem(def, fields, where)} i
        WHERE ${bounds}k.key = kk.key
          AND NOT EXISTS (SELECT 1 FROM unnest(string_to_array(s.also, E'\\n')) AS a(keys) WHERE NOT EXISTS
            (SELECT 1 FROM ${def.name}_search_keys x WHERE x.tenant_id = k.tenant_id
              AND x.key = ANY(string_to_array(a.keys, E'\\t')) AND x.seq = k.seq))
        ORDER BY k.seq LIMIT ${most}) m
      ORDER BY m.seq_ LIMIT ${most}) r`;
  return { sql: withStale(stale, read, most), params: params.values };
}

/**
 * A streams statement: `stale` computed once, then the first `most` rows of `read`; when it has none, one row of nulls
 * that carries `stale`.
 */
function withStale(stale: string, read: string, most: string): string {
  return `SELECT p.*, g.stale FROM (SELECT ${stale} AS stale OFFSET 0) g LEFT JOIN LATERAL (
    ${read}
    LIMIT ${most}) p ON true`;
}

/**
 * The item of the search key row `k`, of `fields` (or all), if the criteria's `where` allows it: a LATERAL subquery
 * that cannot be pulled up (LIMIT 1), so that the keys lead, in index order, whatever the statistics say of the
 * filters (right after a bulk load, PostgreSQL read a filter's index and sorted its matches).
 */
function keyItem(def: ResourceDef, fields: readonly string[] | undefined, where: string): string {
  return `CROSS JOIN LATERAL (SELECT ${itemColumns(def, fields)} FROM ${def.name} t
        WHERE t.tenant_id = k.tenant_id AND t.seq = k.seq AND ${where} LIMIT 1)`;
}

/**
 * A deep ranked page's statement (search-deep.ts): the items of some seqs that the filters and relation allow, each row
 * the item's columns (of `fields`, or all), then its seq; undefined when nothing can match.
 */
export const deepQueries = {
  items(
    def: ResourceDef,
    scope: Scope,
    criteria: Criteria,
    fields: readonly string[] | undefined,
    seqs: readonly number[],
  ): Statement | undefined {
    const params = new Params();
    const found = whereClause(def, scope, { filters: criteria.filters, related: criteria.related }, params);
    if (found === undefined) return undefined;
    const sql = `SELECT ${itemColumns(def, fields)}, t.seq FROM ${def.name} t
      WHERE ${found.where} AND t.seq = ANY(${params.add(seqs)}::int8[])`;
    return { sql, params: params.values };
  },
};

interface Statement {
  readonly sql: string;
  readonly params: unknown[];
}

/** At most this many other words are merged with the lead's (a text per number): longer text looks them up. */
const MOST_MERGED = 3;

/**
 * How many other words each stream merges with its lead, when every stream is one key with sets of one key each,
 * the same number of them (words that each have postings under one key of the tier, as `rex oslo` has), up to
 * MOST_MERGED; else 0, and streamsQuery looks the other words up for each candidate.
 */
function mergedWords(streams: readonly TierStream[]): number {
  const others = streams[0]?.also.length ?? 0;
  if (others === 0 || others > MOST_MERGED) return 0;
  const merged = streams.every(
    (stream) =>
      stream.keys.length === 1 && stream.also.length === others && stream.also.every((set) => set.length === 1),
  );
  return merged ? others : 0;
}

/**
 * A range of search keys [from, to) in key order, then creation order, joined to their items and the criteria's
 * filters and relation: rows are the item's columns (of `fields`, or all), its seq and the key.
 */
export function rangeQuery(
  def: ResourceDef,
  scope: Scope,
  criteria: Criteria,
  [from, to]: readonly [string, string],
  limit: number,
  after?: { readonly key: string; readonly seq: number },
  fields?: readonly string[],
): { sql: string; params: unknown[] } {
  const params = new Params();
  const where = whereClause(def, scope, { filters: criteria.filters, related: criteria.related }, params)!.where;
  const tenant = scope.kind === 'tenant' ? `k.tenant_id = ${params.add(scope.tenantId)} AND ` : '';
  // Read on after a row: from that row on in (key, seq) order, a row value the index starts at (an OR of the key and
  // the seq read the key's rows before it again, a chunk of a deep page more each time).
  const start = after
    ? `(k.key, k.seq) > (${params.add(after.key)}, ${params.add(after.seq)})`
    : `k.key >= ${params.add(from)}`;
  const sql = `SELECT r.*, k.seq, k.key FROM ${def.name}_search_keys k
    ${keyItem(def, fields, where)} r
    WHERE ${tenant}${start} AND k.key < ${params.add(to)}
    ORDER BY k.key, k.seq LIMIT ${params.add(limit)}`;
  return { sql, params: params.values };
}

/**
 * The first `$4` rows of the key range [`$2`, `$3`) of each of `defs` in a tenant (`$1`), in one statement: what
 * rangeQuery reads for each, joined to its items. A row is the resource's index in `defs`, the seq, the key, then the
 * item's columns, padded with nulls to the widest resource's (every column is text: FieldKind). The one-word /search
 * reads its resources' first ranges so (postgres-storage.ts), one call of one statement instead of one of each.
 */
export function rangesQuery(defs: readonly ResourceDef[]): string {
  const key = defs.map((def) => def.name).join(',');
  let sql = rangesTexts.get(key);
  if (sql === undefined) {
    const width = Math.max(...defs.map((def) => representedFields(def).length));
    const branch = (def: ResourceDef, index: number): string => {
      const padding = ', NULL::text'.repeat(width - representedFields(def).length);
      return `(SELECT ${index}::int4, k.seq, k.key, r.*${padding} FROM ${def.name}_search_keys k
    ${keyItem(def, undefined, 'true')} r
    WHERE k.tenant_id = $1 AND k.key >= $2 AND k.key < $3 ORDER BY k.key, k.seq LIMIT $4)`;
    };
    sql = defs.map(branch).join('\n    UNION ALL ');
    rangesTexts.set(key, sql);
  }
  return sql;
}
/** rangesQuery's texts by the names of their resources (a handful of `types` lists). */
const rangesTexts = new Map<string, string>();

/**
 * How many postings each key has, up to `bound`, with how far those spread in creation order (search-tiers.ts
 * estimatePostings: `count + SPREAD_UNIT × (last seq − first seq)`): one row, the counts in the keys' order joined by
 * commas. The keys (`joined`) travel as one text joined by new lines (keys hold letters, digits, spaces, `|` and `~`)
 * and the counts come back as one, so a batch of two-word searches carries two values per call each way instead of
 * one per key; the text is one whatever the number of keys.
 */
export function postingsQuery(
  def: ResourceDef,
  scope: Scope,
  joined: string,
  bound: number,
): { sql: string; params: unknown[] } {
  const { tenant, all } = postingsTexts(def);
  if (scope.kind === 'tenant') return { sql: tenant, params: [joined, Math.trunc(bound), scope.tenantId] };
  return { sql: all, params: [joined, Math.trunc(bound)] };
}
/** postingsQuery's texts: $1 the keys, $2 the bound, $3 the tenant in a tenant's scope. */
const postingsTexts = perDefinition((def: ResourceDef) => {
  const text = (tenant: boolean): string =>
    `SELECT string_agg(p.n::text, ',' ORDER BY k.i) FROM unnest(string_to_array($1::text, E'\\n')) WITH ORDINALITY AS k(key, i)
    CROSS JOIN LATERAL (SELECT count(*) + ${SPREAD_UNIT} * coalesce(max(s.seq) - min(s.seq), 0) AS n FROM (SELECT seq FROM ${def.name}_search_keys
      WHERE ${tenant ? 'tenant_id = $3 AND ' : ''}key = k.key ORDER BY seq LIMIT $2::int) s) p`;
  return { tenant: text(true), all: text(false) };
});

/**
 * The search keys of the item a CTE `created` just inserted (RETURNING seq), as a CTE of the same statement: `$1` is
 * the tenant, parameter `at` the keys (a text array).
 */
export function indexCreatedKeys(def: ResourceDef, at: number): string {
  return `indexed AS (INSERT INTO ${def.name}_search_keys (tenant_id, key, seq)
    SELECT $1, k.key, created.seq FROM created, unnest($${at}::text[]) AS k(key))`;
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
 *
 * For `many`, each key is its own LATERAL subquery in creation order with its LIMIT: an index
 * range that stops at $3 items (the `(tenant_id, <ref>, seq)` index gives them in order), whatever
 * statistics PostgreSQL has. Numbering every key's items with a window function read all of them
 * first, and a join of the link rows planned without statistics walked the link table once per
 * target row (docs/decisions.md, "Plans that do not depend on luck").
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
