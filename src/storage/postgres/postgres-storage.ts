// The scale-out backend: PostgreSQL through node-postgres, shared by any number of stateless nodes (SPEC §10).
import { columnOf, representedFields, type AssociationDef, type FieldValue, type Item, type ResourceDef, type WriteValues } from '../../resources/definition.js';
import { resourceByName, resources } from '../../resources/index.js';
import { now } from '../ids.js';
import { jsonPage, newItem, referencedIds, referenceNotFound, toItem } from '../items.js';
import { mergeSearchHits, searchWindow, type RankedHit } from '../search-merge.js';
import type {
  Criteria, IdempotencyClaim, IdempotencyKey, JsonPage, ListQuery, Page, Precondition, Scope, TenantScope, SearchHit, SearchQuery, Storage,
} from '../storage.js';
import { Connection, type Executor } from './connection.js';
import { PostgresAuthStore } from './postgres-auth-store.js';
import { IdempotencyKeys } from './idempotency.js';
import { runMigrations } from './migrate.js';
import { insertStatement, orderBy, Params, relatedQuery, selectList, whereClause } from './sql.js';
import { searchColumns } from './text-search.js';

type Row = FieldValue[];

export class PostgresStorage implements Storage {
  readonly kind = 'postgres' as const;
  private readonly db: Connection;
  private readonly idempotencyKeys: IdempotencyKeys;
  /** Accounts, OAuth clients and access tokens, in the same database. */
  readonly auth: PostgresAuthStore;
  private closed = false;

  /** A pool on `databaseUrl` (postgres://…); no connection is opened before the first query. */
  constructor(databaseUrl: string) {
    this.db = new Connection(databaseUrl);
    this.idempotencyKeys = new IdempotencyKeys(this.db);
    this.auth = new PostgresAuthStore(this.db);
  }

  /** Statements run so far: lets tests check that loading associations is batched. */
  get queryCount(): number {
    return this.db.queryCount;
  }

  migrate(): Promise<void> {
    return runMigrations(this.db.pool);
  }

  async ping(): Promise<void> {
    await this.db.rows('SELECT 1', []);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.db.close();
  }

  async list(def: ResourceDef, scope: Scope, query: ListQuery): Promise<Page> {
    const params = new Params();
    const clause = whereClause(scope, query, params);
    if (clause === undefined) return { items: [], hasMore: false };
    const sql = `SELECT ${selectList(def)} FROM ${def.name} t WHERE ${clause.where}
      ORDER BY ${orderBy(query.sort, clause.rank)} LIMIT ${params.add(query.limit + 1)} OFFSET ${params.add(query.offset)}`;
    const items = await this.readItems(this.db, def, sql, params.values);
    const hasMore = items.length > query.limit;
    if (hasMore) items.pop();
    return { items, hasMore };
  }

  /** The driver hands values over as JavaScript strings anyway, so the texts are written from the items. */
  async listJson(def: ResourceDef, scope: Scope, query: ListQuery, fields: readonly string[]): Promise<JsonPage> {
    return jsonPage(await this.list(def, scope, query), fields);
  }

  async count(def: ResourceDef, scope: Scope, criteria: Criteria): Promise<number> {
    const params = new Params();
    const clause = whereClause(scope, criteria, params);
    if (clause === undefined) return 0;
    const [row] = await this.db.rows<[string]>(`SELECT count(*) FROM ${def.name} t WHERE ${clause.where}`, params.values);
    return Number(row![0]);
  }

  async get(def: ResourceDef, scope: TenantScope, id: string): Promise<Item | undefined> {
    const sql = `SELECT ${selectList(def)} FROM ${def.name} t WHERE t.tenant_id = $1 AND t.id = $2`;
    return (await this.readItems(this.db, def, sql, [scope.tenantId, id]))[0];
  }

  async create(def: ResourceDef, scope: TenantScope, values: WriteValues): Promise<Item> {
    const item = newItem(def, values);
    const { words, vector } = searchColumns(def, item);
    const params = [scope.tenantId, ...representedFields(def).map((name) => item[name]), words, vector];
    const links = linkSets(def, values);
    if (referencedIds(def, values).length === 0 && links.length === 0) {
      // Nothing to check or link: one statement, its own transaction.
      await this.db.run(insertStatement(def), params);
      return item;
    }
    await this.db.transaction(async (tx) => {
      await checkReferences(tx, def, scope, values);
      await tx.run(insertStatement(def), params);
      await replaceLinks(tx, scope, item.id!, links);
    });
    return item;
  }

  async update(def: ResourceDef, scope: TenantScope, id: string, values: WriteValues, expect?: Precondition): Promise<Item | undefined> {
    return this.db.transaction(async (tx) => {
      const row = await this.lockCurrent(tx, def, scope, id);
      if (!row) return undefined;
      const { seq, item } = row;
      expect?.(item);
      await checkReferences(tx, def, scope, values);
      const changed = Object.keys(values).filter((name) => def.fields[name]?.kind !== 'refs');
      for (const name of changed) item[name] = values[name] as FieldValue;
      item.updatedAt = now();
      changed.push('updatedAt');
      const { words, vector } = searchColumns(def, item);
      const params = new Params();
      const sets = changed.map((name) => `${columnOf(name)} = ${params.add(item[name])}`);
      sets.push(`search_words = ${params.add(words)}`, `search_vector = ${params.add(vector)}::tsvector`);
      await tx.run(`UPDATE ${def.name} SET ${sets.join(', ')} WHERE tenant_id = ${params.add(scope.tenantId)} AND seq = ${params.add(seq)}`, params.values);
      await replaceLinks(tx, scope, id, linkSets(def, values));
      return item;
    });
  }

  async remove(def: ResourceDef, scope: TenantScope, id: string, expect?: Precondition): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const row = await this.lockCurrent(tx, def, scope, id);
      if (!row) return false;
      expect?.(row.item);
      await tx.run(`DELETE FROM ${def.name} WHERE tenant_id = $1 AND seq = $2`, [scope.tenantId, row.seq]);
      for (const other of resources) {
        for (const [name, field] of Object.entries(other.fields)) {
          if (field.kind !== 'ref' || field.ref !== def.name) continue;
          const column = columnOf(name);
          await tx.run(`UPDATE ${other.name} SET ${column} = NULL WHERE tenant_id = $1 AND ${column} = $2`, [scope.tenantId, id]);
        }
      }
      for (const association of Object.values(def.associations)) {
        if (!('link' in association)) continue;
        const { table, selfColumn } = association.link;
        await tx.run(`DELETE FROM ${table} WHERE tenant_id = $1 AND ${selfColumn} = $2`, [scope.tenantId, id]);
      }
      return true;
    });
  }

  async fetchRelated(association: AssociationDef, scope: TenantScope, keys: readonly string[], limitPerKey: number): Promise<Map<string, Item[]>> {
    const related = new Map<string, Item[]>();
    if (keys.length === 0) return related;
    const target = resourceByName(association.target)!;
    const params: unknown[] = [scope.tenantId, keys];
    if (association.kind === 'many') params.push(limitPerKey);
    const names = representedFields(target);
    for (const row of await this.db.rows<Row>(relatedQuery(association, target), params)) {
      const key = row[names.length] as string;
      const item = toItem(names, row);
      const list = related.get(key);
      if (list) list.push(item);
      else related.set(key, [item]);
    }
    return related;
  }

  async search(scope: TenantScope, query: SearchQuery): Promise<{ hits: SearchHit[]; hasMore: boolean }> {
    const perType = await Promise.all(query.types.map(async (def, order): Promise<RankedHit[]> => {
      const params = new Params();
      const clause = whereClause(scope, { filters: [], q: query.q }, params);
      if (clause?.rank === undefined) return [];
      const sql = `SELECT ${selectList(def)}, ${clause.rank} FROM ${def.name} t WHERE ${clause.where}
        ORDER BY ${orderBy(undefined, clause.rank)} LIMIT ${params.add(searchWindow(query))}`;
      const names = representedFields(def);
      // ts_rank is higher for a better match; the merge wants lower, as SQLite's bm25 gives it.
      return (await this.db.rows<Row>(sql, params.values)).map((row) => ({ def, item: toItem(names, row), rank: -Number(row[names.length]), order }));
    }));
    return mergeSearchHits(perType.flat(), query);
  }

  claimIdempotencyKey(scope: TenantScope, key: IdempotencyKey): Promise<IdempotencyClaim> {
    return this.idempotencyKeys.claim(scope, key);
  }

  completeIdempotencyKey(scope: TenantScope, key: IdempotencyKey, answer: string): Promise<void> {
    return this.idempotencyKeys.complete(scope, key, answer);
  }

  releaseIdempotencyKey(scope: TenantScope, key: IdempotencyKey): Promise<void> {
    return this.idempotencyKeys.release(scope, key);
  }

  /** The item and its seq, locked until the transaction ends: a concurrent write of it waits. */
  private async lockCurrent(tx: Executor, def: ResourceDef, scope: TenantScope, id: string): Promise<{ seq: string; item: Item } | undefined> {
    const sql = `SELECT ${selectList(def)}, t.seq FROM ${def.name} t WHERE t.tenant_id = $1 AND t.id = $2 FOR UPDATE`;
    const [row] = await tx.rows<Row>(sql, [scope.tenantId, id]);
    if (!row) return undefined;
    const names = representedFields(def);
    return { seq: row[names.length] as string, item: toItem(names, row) };
  }

  private async readItems(executor: Executor, def: ResourceDef, sql: string, params: readonly unknown[]): Promise<Item[]> {
    const names = representedFields(def);
    return (await executor.rows<Row>(sql, params)).map((row) => toItem(names, row));
  }
}

/**
 * Every non-null ref, and every id of a set, must name an item of its target resource in the same
 * tenant. The rows found are share-locked, so that a concurrent delete of one waits for this write
 * and then clears the reference it made, instead of leaving it dangling.
 */
async function checkReferences(tx: Executor, def: ResourceDef, scope: TenantScope, values: WriteValues): Promise<void> {
  for (const { name, ref, ids } of referencedIds(def, values)) {
    const rows = await tx.rows<[string]>(`SELECT id FROM ${ref} WHERE tenant_id = $1 AND id = ANY($2::text[]) FOR KEY SHARE`, [scope.tenantId, ids]);
    const found = new Set(rows.map((row) => row[0]));
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length > 0) throw referenceNotFound(name, ref, missing);
  }
}

interface LinkSet {
  readonly table: string;
  readonly selfColumn: string;
  readonly targetColumn: string;
  readonly ids: readonly string[];
}

/** The write-only sets given in the values, each with its link table. */
function linkSets(def: ResourceDef, values: WriteValues): LinkSet[] {
  const sets: LinkSet[] = [];
  for (const [name, field] of Object.entries(def.fields)) {
    const ids = values[name];
    if (field.kind === 'refs' && field.link && Array.isArray(ids)) sets.push({ ...field.link, ids: ids as readonly string[] });
  }
  return sets;
}

/** Each set replaces the item's links in its table, in the order given (the link's seq keeps it). */
async function replaceLinks(tx: Executor, scope: TenantScope, id: string, sets: readonly LinkSet[]): Promise<void> {
  for (const { table, selfColumn, targetColumn, ids } of sets) {
    await tx.run(`DELETE FROM ${table} WHERE tenant_id = $1 AND ${selfColumn} = $2`, [scope.tenantId, id]);
    if (ids.length === 0) continue;
    await tx.run(`INSERT INTO ${table} (tenant_id, ${selfColumn}, ${targetColumn})
      SELECT $1, $2, u.target FROM unnest($3::text[]) WITH ORDINALITY AS u(target, n) ORDER BY u.n`, [scope.tenantId, id, ids]);
  }
}
