// A tenant's number of items per resource, kept in `resource_counts` by every create and delete in its own
// transaction (migration 10), so that a count without criteria reads a few rows instead of counting the tenant's rows;
// its write stamp, the writes counted in the same rows by every create, update and delete (search-cache.ts); and a
// count of search text alone, read from the search keys without a row.
import { matchRanges, matchSet, searchText } from './search-keys.js';
import type { Criteria, Scope, TenantScope } from './storage.js';

/** What an add does to a slot's row that exists: its count moves by the new row's `n`, its writes by one. */
const ADDED = 'ON CONFLICT (tenant_id, resource, slot) DO UPDATE SET n = c.n + excluded.n, writes = c.writes + 1';

/**
 * The statements, in PostgreSQL's placeholders, each `$n` once and in order (SQLite runs them with `?`). A count is
 * split into slots: the slot is the column's default, 0 on SQLite (one writer), the server process's id modulo 16 on
 * PostgreSQL, so that concurrent creates of one tenant on other connections do not queue on one row's lock until
 * each commits. A slot may go below zero (a delete counts on its own connection's slot); the sum is the count.
 */
export const COUNT_SQL = {
  /**
   * Adds $3 (1, 0 or −1) to the count of resource $2 for tenant $1 and one to its writes (a new row starts at one), in
   * the write's transaction.
   */
  add: `INSERT INTO resource_counts AS c (tenant_id, resource, n) VALUES ($1, $2, $3)
  ${ADDED}`,
  /** The ON CONFLICT clause of `add`, for a statement that inserts its rows from a SELECT (`c` the table's alias). */
  added: ADDED,
  read: 'SELECT coalesce(sum(n), 0) FROM resource_counts WHERE tenant_id = $1 AND resource = $2',
  /**
   * Tenant $1's write stamp: its writes of every resource, summed. Each slot's writes only grow, so the sum
   * changes with every write committed, whichever node and slot made it (search-cache.ts).
   */
  stamp: 'SELECT coalesce(sum(writes), 0) FROM resource_counts WHERE tenant_id = $1',
} as const;

/** The tenant whose kept count answers `criteria`: a tenant's whole collection (no filter, parent or search). */
export function keptCountScope(scope: Scope, criteria: Criteria): TenantScope | undefined {
  if (scope.kind !== 'tenant' || criteria.filters.length > 0) return undefined;
  return criteria.related === undefined && criteria.q === undefined ? scope : undefined;
}

/** A count that the search keys answer alone: one tenant's items that have a key in every range. */
export interface KeyCount {
  readonly sql: string;
  readonly params: readonly string[];
}

/**
 * The count of `criteria` when it is search text alone (no filter, no parent) in one tenant: the distinct items with a
 * key in each word's range (matchRanges), read from the keys' primary key without a row, since a key exists only with
 * its item. Each word is one index range of the keys, so no plan can walk the tenant's rows (a prepared statement's
 * generic plan did, probing each row's keys). Undefined for any other count; a count of text without a word is 0.
 * PostgreSQL's placeholders, each `$n` once and in order (SQLite runs it with `?`).
 */
export function keyCount(def: { readonly name: string }, scope: Scope, criteria: Criteria): KeyCount | 0 | undefined {
  if (scope.kind !== 'tenant' || criteria.q === undefined || criteria.filters.length > 0) return undefined;
  if (criteria.related !== undefined) return undefined;
  const text = searchText(criteria.q);
  if (text === undefined) return 0;
  const ranges = matchRanges(text);
  const params: string[] = [];
  const set = matchSet(def.name, ranges, scope.tenantId, (value) => `$${params.push(value)}`);
  // One word's range holds an item once per field and tier it is found in; an INTERSECT of several is distinct.
  const distinct = ranges.length === 1 ? `SELECT DISTINCT k.seq FROM (${set}) k` : set;
  return { sql: `SELECT count(*) FROM (${distinct}) d`, params };
}
