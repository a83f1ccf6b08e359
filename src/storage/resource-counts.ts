// A tenant's number of items per resource, kept in `resource_counts` by every create and delete in its own
// transaction (migration 10), so that a count without criteria reads a few rows instead of counting the tenant's rows.
import type { Criteria, Scope, TenantScope } from './storage.js';

/**
 * The statements, in PostgreSQL's placeholders, each `$n` once and in order (SQLite runs them with `?`). A count is
 * split into slots: the slot is the column's default, 0 on SQLite (one writer), the server process's id modulo 16 on
 * PostgreSQL, so that concurrent creates of one tenant on other connections do not queue on one row's lock until
 * each commits. A slot may go below zero (a delete counts on its own connection's slot); the sum is the count.
 */
export const COUNT_SQL = {
  /** Adds $3 (1 or −1) to the count of resource $2 for tenant $1, in the write's transaction. */
  add: `INSERT INTO resource_counts AS c (tenant_id, resource, n) VALUES ($1, $2, $3)
  ON CONFLICT (tenant_id, resource, slot) DO UPDATE SET n = c.n + excluded.n`,
  read: 'SELECT coalesce(sum(n), 0) FROM resource_counts WHERE tenant_id = $1 AND resource = $2',
} as const;

/** The tenant whose kept count answers `criteria`: a tenant's whole collection (no filter, parent or search). */
export function keptCountScope(scope: Scope, criteria: Criteria): TenantScope | undefined {
  if (scope.kind !== 'tenant' || criteria.filters.length > 0) return undefined;
  return criteria.related === undefined && criteria.q === undefined ? scope : undefined;
}
