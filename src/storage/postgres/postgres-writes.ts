// Renders write plans and Idempotency-Key statements as PostgreSQL SQL, with the row locks that keep concurrent writes
// consistent.
import {
  columnOf,
  representedFields,
  type FieldValue,
  type Item,
  type ResourceDef,
} from '../../resources/definition.js';
import {
  applyUpdate,
  type CreatePlan,
  type LinkSet,
  type ReferenceCheck,
  type RemovePlan,
  type UpdatePlan,
} from '../../plan/write-plan.js';
import { claimParams, IDEMPOTENCY_SQL, keyParams, verdictOf, type KeyRecord } from '../idempotency-keys.js';
import { perDefinition } from '../../resources/per-definition.js';
import { toItem } from '../items.js';
import { MissingReferences } from '../storage-error.js';
import type { IdempotencyClaim, IdempotencyKey, Precondition, TenantScope } from '../storage.js';
import { COUNT_SQL } from '../resource-counts.js';
import { createChecked } from './postgres-create.js';
import type { Connection, Executor, Transaction } from './connection.js';
import { indexCreatedKeys, insertStatement, Params, selectList } from './postgres-sql.js';
import { changedKeys, itemKeys } from '../search-keys.js';

/** Claims released again and again under our feet: the client is told to retry, as for a claim in progress. */
const CLAIM_ROUNDS = 5;

/** One more (or one less) item in the tenant's count: a CTE of the write's own statement, $1 being the tenant. */
const countChange = (def: ResourceDef, by: 1 | -1): string =>
  `counted AS (${COUNT_SQL.add.replace('$2', `'${def.name}'`).replace('$3', String(by))})`;

/** The INSERT of one item, its search keys (the parameter after the INSERT's) and its count, one statement. */
const insertCounted = perDefinition(
  (def: ResourceDef): string =>
    `WITH created AS (${insertStatement(def)} RETURNING seq), ${indexCreatedKeys(def, representedFields(def).length + 2)}, ${countChange(def, 1)} SELECT 1`,
);

/**
 * The creates of several items (insertCounted's, whatever their tenants), one statement: each of insertCounted's
 * parameters is the array of every create's value, the keys of each as an array literal (group-commit.ts). The rows
 * are inserted in the calls' order, their keys found again by tenant and id, and each tenant's count grows by its
 * rows, the tenants in order (so that two such statements lock the counts' rows in the same order). Every column of a
 * resource's table is text, as every field value is.
 */
const insertCountedBatch = perDefinition((def: ResourceDef): string => {
  const columns = representedFields(def).map(columnOf);
  const arrays = [...columns.keys(), columns.length].map((index) => `$${index + 2}::text[]`);
  const names = columns.map((_, index) => `c${index}`);
  const id = names[columns.indexOf('id')]!;
  return `WITH input AS (SELECT * FROM unnest($1::text[], ${arrays.join(', ')}) WITH ORDINALITY AS r(tenant, ${names.join(', ')}, keys, n)),
    created AS (INSERT INTO ${def.name} (tenant_id, ${columns.join(', ')}) SELECT tenant, ${names.join(', ')} FROM input ORDER BY n
      RETURNING seq, tenant_id, id),
    indexed AS (INSERT INTO ${def.name}_search_keys (tenant_id, key, seq)
      SELECT c.tenant_id, k.key, c.seq FROM created c JOIN input r ON r.tenant = c.tenant_id AND r.${id} = c.id
      CROSS JOIN unnest(r.keys::text[]) AS k(key)),
    counted AS (INSERT INTO resource_counts AS c (tenant_id, resource, n)
      SELECT tenant, '${def.name}', count(*) FROM input GROUP BY tenant ORDER BY tenant
      ${COUNT_SQL.added})
    SELECT 1`;
});

/**
 * The INSERT of one item, its search keys, its count and the UPDATE of its key's answer, one statement: the answer,
 * the client and the key follow the keys.
 */
const insertAnswering = perDefinition((def: ResourceDef): string => {
  const keys = representedFields(def).length + 2;
  const next = keys + 1;
  return `WITH created AS (${insertStatement(def)} RETURNING seq), ${indexCreatedKeys(def, keys)}, ${countChange(def, 1)}
    UPDATE idempotency_keys SET answer = $${next} WHERE tenant_id = $1 AND client_id = $${next + 1} AND key = $${next + 2}`;
});

/** The DELETE of one item (locked by this transaction: it is there) and its count, one statement. */
const deleteCounted = perDefinition(
  (def: ResourceDef): string =>
    `WITH deleted AS (DELETE FROM ${def.name} WHERE tenant_id = $1 AND seq = $2), ${countChange(def, -1)} SELECT 1`,
);

/**
 * Inserts the item, its search keys and its count, one statement that is its own transaction: the INSERT alone, or with a key's answer
 * the INSERT inside the UPDATE that stores the answer; with references or links, their checks, the links and the
 * answer as CTEs of it too (postgres-create.ts).
 */
export async function createItem(db: Connection, scope: TenantScope, plan: CreatePlan): Promise<void> {
  const params = [scope.tenantId, ...plan.row, itemKeys(plan.def, plan.item)];
  if (plan.checks.length > 0 || plan.links.length > 0) return createChecked(db, plan, params);
  if (!plan.answer) await db.commitBatchable(insertCounted(plan.def), params, insertCountedBatch(plan.def));
  else
    await db.commitRun(insertAnswering(plan.def), [
      ...params,
      plan.answer.answer,
      plan.answer.key.clientId,
      plan.answer.key.key,
    ]);
}

/** Replaces an item's search keys `before` with `after`, writing only those that changed. */
function reindex(
  tx: Transaction,
  def: ResourceDef,
  scope: TenantScope,
  seq: string,
  before: readonly string[],
  after: readonly string[],
): void {
  const { gone, added } = changedKeys(before, after);
  if (gone.length > 0) {
    tx.queue(`DELETE FROM ${def.name}_search_keys WHERE tenant_id = $1 AND seq = $2 AND key = ANY($3::text[])`, [
      scope.tenantId,
      seq,
      gone,
    ]);
  }
  if (added.length > 0) {
    tx.queue(`INSERT INTO ${def.name}_search_keys (tenant_id, key, seq) SELECT $1, unnest($3::text[]), $2`, [
      scope.tenantId,
      seq,
      added,
    ]);
  }
}

/**
 * Locks the item, checks `expect`, writes only the changed columns (and the search columns), replaces the sets given.
 * Two round trips: BEGIN, the lock and the reference checks together, then the writes with COMMIT.
 */
export async function updateItem(
  tx: Transaction,
  scope: TenantScope,
  id: string,
  plan: UpdatePlan,
  expect?: Precondition,
): Promise<Item | undefined> {
  const { def, changed } = plan;
  const checked = checkReferences(tx, scope, plan.checks);
  // Read after the lock's answer (or never, when the item is missing or `expect` throws): handled meanwhile.
  checked.catch(() => {});
  const row = await lockCurrent(tx, def, scope, id);
  if (!row) return undefined;
  expect?.(row.item);
  await checked;
  const before = itemKeys(def, row.item);
  const item = applyUpdate(plan, row.item);
  const params = new Params();
  const sets = changed.map((name) => `${columnOf(name)} = ${params.add(item[name])}`);
  tx.queue(
    `UPDATE ${def.name} SET ${sets.join(', ')} WHERE tenant_id = ${params.add(scope.tenantId)} AND seq = ${params.add(row.seq)}`,
    params.values,
  );
  reindex(tx, def, scope, row.seq, before, itemKeys(def, item));
  replaceLinks(tx, scope, id, plan.links);
  tx.queue(COUNT_SQL.add, [scope.tenantId, plan.count.resource, plan.count.by]);
  return item;
}

/**
 * Locks the item, checks `expect`, deletes it and counts it, sets every ref to it to NULL and deletes every link row
 * holding it. Two round trips: BEGIN with the lock, then the writes with COMMIT.
 */
export async function removeItem(
  tx: Transaction,
  scope: TenantScope,
  id: string,
  plan: RemovePlan,
  expect?: Precondition,
): Promise<boolean> {
  const { def, clear } = plan;
  const row = await lockCurrent(tx, def, scope, id);
  if (!row) return false;
  expect?.(row.item);
  tx.queue(deleteCounted(def), [scope.tenantId, row.seq]);
  reindex(tx, def, scope, row.seq, itemKeys(def, row.item), []);
  for (const { table, column } of clear.refColumns) {
    tx.queue(`UPDATE ${table} SET ${column} = NULL WHERE tenant_id = $1 AND ${column} = $2`, [scope.tenantId, id]);
  }
  for (const { table, column } of clear.linkRows) {
    tx.queue(`DELETE FROM ${table} WHERE tenant_id = $1 AND ${column} = $2`, [scope.tenantId, id]);
  }
  return true;
}

/**
 * Claims a key with one atomic upsert, however many nodes race for it (after sweeping expired
 * keys when `sweepBefore` is given); a record released between the upsert and the read is
 * claimed on the next round.
 */
export async function claimKey(
  db: Executor,
  scope: TenantScope,
  key: IdempotencyKey,
  time: number,
  sweepBefore: number | undefined,
): Promise<IdempotencyClaim> {
  if (sweepBefore !== undefined) await db.run(IDEMPOTENCY_SQL.sweep, [sweepBefore]);
  for (let round = 0; round < CLAIM_ROUNDS; round += 1) {
    if ((await db.rows(IDEMPOTENCY_SQL.claim, claimParams(scope, key, time))).length > 0) return { state: 'claimed' };
    const [record] = await db.rows<[string, string | null]>(IDEMPOTENCY_SQL.read, keyParams(scope, key));
    const verdict = verdictOf(record as KeyRecord | undefined, key);
    if (verdict) return verdict;
  }
  return { state: 'pending' };
}

/** The item and its seq, locked until the transaction ends: a concurrent write of it waits. */
async function lockCurrent(
  tx: Executor,
  def: ResourceDef,
  scope: TenantScope,
  id: string,
): Promise<{ seq: string; item: Item } | undefined> {
  const sql = `SELECT ${selectList(def)}, t.seq FROM ${def.name} t WHERE t.tenant_id = $1 AND t.id = $2 FOR UPDATE`;
  const [row] = await tx.rows<FieldValue[]>(sql, [scope.tenantId, id]);
  if (!row) return undefined;
  const names = representedFields(def);
  return { seq: row[names.length] as string, item: toItem(names, row) };
}

/**
 * Every non-null ref, and every id of a set, must name an item of its target resource in the same
 * tenant. The rows found are share-locked, so that a concurrent delete of one waits for this write
 * and then clears the reference it made, instead of leaving it dangling. The checks are sent together.
 */
async function checkReferences(tx: Executor, scope: TenantScope, checks: readonly ReferenceCheck[]): Promise<void> {
  if (checks.length === 0) return;
  const found = await Promise.all(
    checks.map(({ target, ids }) =>
      tx.rows<[string]>(`SELECT id FROM ${target} WHERE tenant_id = $1 AND id = ANY($2::text[]) FOR KEY SHARE`, [
        scope.tenantId,
        ids,
      ]),
    ),
  );
  checks.forEach(({ field, target, ids }, index) => {
    const present = new Set(found[index]!.map((row) => row[0]));
    const missing = ids.filter((id) => !present.has(id));
    if (missing.length > 0) throw new MissingReferences(field, target, missing);
  });
}

/** Each set replaces the item's links in its table, in the order given (the link's seq keeps it). */
function replaceLinks(tx: Transaction, scope: TenantScope, id: string, sets: readonly LinkSet[]): void {
  for (const { table, selfColumn, targetColumn, ids } of sets) {
    tx.queue(`DELETE FROM ${table} WHERE tenant_id = $1 AND ${selfColumn} = $2`, [scope.tenantId, id]);
    if (ids.length === 0) continue;
    tx.queue(
      `INSERT INTO ${table} (tenant_id, ${selfColumn}, ${targetColumn})
      SELECT $1, $2, u.target FROM unnest($3::text[]) WITH ORDINALITY AS u(target, n) ORDER BY u.n`,
      [scope.tenantId, id, ids],
    );
  }
}
