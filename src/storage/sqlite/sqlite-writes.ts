// Renders write plans and Idempotency-Key statements as SQLite SQL, run synchronously inside a group commit's
// transaction.
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
import {
  answerParams,
  claimParams,
  IDEMPOTENCY_SQL,
  keyParams,
  verdictOf,
  type KeyRecord,
} from '../idempotency-keys.js';
import { toItem } from '../items.js';
import { COUNT_SQL } from '../resource-counts.js';
import { MissingReferences } from '../storage-error.js';
import { changedKeys, itemKeys } from '../search-keys.js';
import type { IdempotencyClaim, IdempotencyKey, TenantScope } from '../storage.js';
import { currentQuery, insertQuery, searchKeyDelete, searchKeyInsert } from './sqlite-sql.js';
import type { Statements } from './statements.js';

/** The shared statements with SQLite's placeholders: each `$n` is used once and in order, so `?` binds the same. */
const KEYS_SQL = {
  claim: positional(IDEMPOTENCY_SQL.claim),
  read: positional(IDEMPOTENCY_SQL.read),
  answer: positional(IDEMPOTENCY_SQL.answer),
  release: positional(IDEMPOTENCY_SQL.release),
  sweep: positional(IDEMPOTENCY_SQL.sweep),
};

const COUNT_ADD = positional(COUNT_SQL.add);

export function positional(sql: string): string {
  return sql.replace(/\$\d+/g, '?');
}

/** A row as it is now, read in the write's transaction: its seq (the rowid) and the item. */
export interface CurrentRow {
  readonly seq: number;
  readonly item: Item;
}

export class SqliteWrites {
  constructor(private readonly statements: Statements) {}

  create(scope: TenantScope, plan: CreatePlan): void {
    this.checkReferences(scope, plan.checks);
    const { lastInsertRowid } = this.statements.get(insertQuery(plan.def)).run(scope.tenantId, ...plan.row);
    this.indexKeys(scope, plan.def, lastInsertRowid, plan.item);
    this.replaceLinks(scope, plan.item.id!, plan.links);
    if (plan.answer) this.statements.get(KEYS_SQL.answer).run(...answerParams(scope, plan.answer));
    this.statements.get(COUNT_ADD).run(scope.tenantId, plan.count.resource, plan.count.by);
  }

  /** Writes only the changed columns, indexes the item again, and replaces the sets given. */
  update(scope: TenantScope, id: string, plan: UpdatePlan, { seq, item }: CurrentRow): Item {
    this.checkReferences(scope, plan.checks);
    const { def, changed } = plan;
    const before = itemKeys(def, item);
    applyUpdate(plan, item);
    const sql = `UPDATE ${def.name} SET ${changed.map((name) => `${columnOf(name)} = ?`).join(', ')} WHERE seq = ?`;
    this.statements.get(sql).run(...changed.map((name) => item[name]), seq);
    const { gone, added } = changedKeys(before, itemKeys(def, item));
    this.writeKeys(searchKeyDelete(def), scope, seq, gone);
    this.writeKeys(searchKeyInsert(def), scope, seq, added);
    this.replaceLinks(scope, id, plan.links);
    this.statements.get(COUNT_ADD).run(scope.tenantId, plan.count.resource, plan.count.by);
    return item;
  }

  /**
   * Deletes the row and its search keys, counts one item less, sets every ref to it to NULL and deletes every link
   * row holding it.
   */
  remove(scope: TenantScope, id: string, plan: RemovePlan, { seq, item }: CurrentRow): void {
    const { def, clear } = plan;
    this.statements.get(`DELETE FROM ${def.name} WHERE seq = ?`).run(seq);
    this.writeKeys(searchKeyDelete(def), scope, seq, itemKeys(def, item));
    this.statements.get(COUNT_ADD).run(scope.tenantId, plan.count.resource, plan.count.by);
    for (const { table, column } of clear.refColumns) {
      this.statements
        .get(`UPDATE ${table} SET ${column} = NULL WHERE tenant_id = ? AND ${column} = ?`)
        .run(scope.tenantId, id);
    }
    for (const { table, column } of clear.linkRows) {
      this.statements.get(`DELETE FROM ${table} WHERE tenant_id = ? AND ${column} = ?`).run(scope.tenantId, id);
    }
  }

  /** Writes an item's keys in the search index (search-keys.ts). */
  indexKeys(scope: TenantScope, def: ResourceDef, seq: number | bigint, item: Item): void {
    this.writeKeys(searchKeyInsert(def), scope, seq, itemKeys(def, item));
  }

  /** Runs `sql` (searchKeyInsert or searchKeyDelete) once for each of an item's `keys`. */
  private writeKeys(sql: string, scope: TenantScope, seq: number | bigint, keys: readonly string[]): void {
    if (keys.length === 0) return;
    const statement = this.statements.get(sql);
    for (const key of keys) statement.run(scope.tenantId, key, seq);
  }

  current(def: ResourceDef, scope: TenantScope, id: string): CurrentRow | undefined {
    const row = this.statements.raw(currentQuery(def)).get(scope.tenantId, id) as FieldValue[] | undefined;
    if (!row) return undefined;
    const names = representedFields(def);
    return { seq: Number(row[names.length]), item: toItem(names, row) };
  }

  /** Claims a key (after sweeping expired ones when `sweepBefore` is given); the transaction makes it atomic. */
  claim(scope: TenantScope, key: IdempotencyKey, time: number, sweepBefore: number | undefined): IdempotencyClaim {
    if (sweepBefore !== undefined) this.statements.get(KEYS_SQL.sweep).run(sweepBefore);
    if (this.statements.pluck(KEYS_SQL.claim).get(...claimParams(scope, key, time)) !== undefined)
      return { state: 'claimed' };
    const record = this.statements.raw(KEYS_SQL.read).get(...keyParams(scope, key)) as KeyRecord | undefined;
    return verdictOf(record, key) ?? { state: 'pending' };
  }

  complete(scope: TenantScope, key: IdempotencyKey, answer: string): void {
    this.statements.get(KEYS_SQL.answer).run(...answerParams(scope, { key, answer }));
  }

  release(scope: TenantScope, key: IdempotencyKey): void {
    this.statements.get(KEYS_SQL.release).run(...keyParams(scope, key));
  }

  /** Every non-null ref, and every id of a set, must name an item of its target resource in the same tenant. */
  private checkReferences(scope: TenantScope, checks: readonly ReferenceCheck[]): void {
    for (const { field, target, ids } of checks) {
      const found = new Set(
        this.statements
          .pluck(`SELECT id FROM ${target} WHERE tenant_id = ? AND id IN (SELECT value FROM json_each(?))`)
          .all(scope.tenantId, JSON.stringify(ids)) as string[],
      );
      const missing = ids.filter((id) => !found.has(id));
      if (missing.length > 0) throw new MissingReferences(field, target, missing);
    }
  }

  /** Each set replaces the item's rows in its link table, in the order given (the link's seq keeps it). */
  private replaceLinks(scope: TenantScope, id: string, links: readonly LinkSet[]): void {
    for (const { table, selfColumn, targetColumn, ids } of links) {
      this.statements.get(`DELETE FROM ${table} WHERE tenant_id = ? AND ${selfColumn} = ?`).run(scope.tenantId, id);
      const insert = this.statements.get(
        `INSERT INTO ${table} (tenant_id, ${selfColumn}, ${targetColumn}) VALUES (?, ?, ?)`,
      );
      for (const target of ids) insert.run(scope.tenantId, id, target);
    }
  }
}
