// The embedded backend: SQLite through better-sqlite3, WAL journal, prepared statements cached by SQL text.
import { lowerCase } from '../../query/lower-case.js';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import {
  representedFields,
  type AssociationDef,
  type FieldValue,
  type Item,
  type ResourceDef,
  type WriteValues,
} from '../../resources/definition.js';
import { resourceByName } from '../../resources/index.js';
import { planCreate, planRemove, planUpdate } from '../../plan/write-plan.js';
import { now } from '../ids.js';
import { IdempotencyPolicy } from '../idempotency-keys.js';
import { jsonPage, toItem } from '../items.js';
import type {
  Criteria,
  IdempotencyClaim,
  IdempotencyKey,
  IdempotentWrite,
  JsonPage,
  ListQuery,
  Page,
  Precondition,
  Scope,
  TenantScope,
  SearchHit,
  SearchQuery,
  Storage,
} from '../storage.js';
import { GroupCommit } from './group-commit.js';
import { Statements } from './statements.js';
import { SqliteAuthStore } from './sqlite-auth-store.js';
import { SqliteRequestLog } from './sqlite-request-log.js';
import { SqliteSessionStore } from './sqlite-session-store.js';
import { SqliteGrantStore } from './sqlite-grant-store.js';
import { migrations } from './sqlite-migrations.js';
import {
  BOUND_INTEGER,
  byIdQuery,
  jsonObjectOf,
  relatedQuery,
  selectList,
  sortKey,
  whereClause,
} from './sqlite-sql.js';
import { positional, SqliteWrites } from './sqlite-writes.js';
import { SqliteSearch } from './sqlite-search.js';
import { COUNT_SQL, keptCountScope, keyCount } from '../resource-counts.js';
import { SearchCache } from '../search-cache.js';

/** The migration that creates the search index (sqlite-migrations.ts). */
const SEARCH_KEYS_VERSION = 8;
const KEPT_COUNT = positional(COUNT_SQL.read);
const STAMP = positional(COUNT_SQL.stamp);

export class SqliteStorage implements Storage {
  readonly kind = 'sqlite' as const;
  /** The online backup in progress, if any. */
  private copying: Promise<unknown> | undefined;
  private readonly db: Database.Database;
  private readonly statements: Statements;
  private readonly writes: GroupCommit;
  /** Renders write plans; runs only inside `writes`. */
  private readonly plans: SqliteWrites;
  private readonly idempotency = new IdempotencyPolicy();
  /** Ranked search through the search index (SPEC §5). */
  private readonly ranked: SqliteSearch;
  /** The search answers kept under their tenant's write stamp (search-cache.ts). */
  readonly searchCache: SearchCache;
  readonly auth: SqliteAuthStore;
  readonly requestLog: SqliteRequestLog;
  readonly sessions: SqliteSessionStore;
  readonly grants: SqliteGrantStore;

  /**
   * Opens (creating if needed) `<dataDir>/registry.sqlite`, or an in-memory database for ':memory:'; keeps up to
   * `keptSearches` characters of search answers (search-cache.ts; 0: none).
   */
  constructor(dataDir: string | ':memory:', keptSearches?: number) {
    let file = ':memory:';
    if (dataDir !== ':memory:') {
      file = path.join(dataDir, 'registry.sqlite');
    }
    try {
      if (dataDir !== ':memory:') makeDirectory(dataDir);
      this.db = new Database(file);
    } catch (error) {
      // Say which setting: the system's own text (EEXIST, EACCES, "unable to open database file") names no setting.
      throw new Error(`DATA_DIR ${dataDir} cannot hold the database: ${(error as Error).message}`, { cause: error });
    }
    // The service owns its database file: an exclusive lock spares every read the shared-memory
    // locking of WAL mode, and keeps a second process (a second node on one DATA_DIR) out.
    this.db.pragma('locking_mode = EXCLUSIVE');
    this.db.pragma('journal_mode = WAL');
    // NORMAL in WAL mode: a committed write survives a crash of the process (not of the OS) — SPEC §10.
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 5000');
    // A 4 MiB page cache instead of better-sqlite3's 16 MiB: what misses it is in the OS's page
    // cache, and the bench measured no loss on any operation, but 40 MiB less peak RSS after searches.
    this.db.pragma('cache_size = -4000');
    this.statements = new Statements(this.db);
    this.writes = new GroupCommit(this.db);
    this.plans = new SqliteWrites(this.statements);
    this.ranked = new SqliteSearch(this.statements, this.plans);
    this.searchCache = new SearchCache((tenantId) => {
      try {
        return String(this.statements.pluck(STAMP).get(tenantId));
      } catch (error) {
        throw this.statements.failure(error);
      }
    }, keptSearches);
    this.auth = new SqliteAuthStore(this.statements, this.writes);
    this.requestLog = new SqliteRequestLog(this.statements, this.writes);
    this.sessions = new SqliteSessionStore(this.statements, this.writes);
    this.grants = new SqliteGrantStore(this.statements, this.writes);
    this.db.function('ci', { deterministic: true }, (value: unknown) =>
      typeof value === 'string' ? lowerCase(value) : value,
    );
  }

  async migrate(): Promise<void> {
    this.db.exec(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)',
    );
    const applied = new Set(
      (this.db.prepare('SELECT version FROM schema_migrations').all() as Array<{ version: number }>).map(
        (row) => row.version,
      ),
    );
    for (const migration of migrations) {
      if (applied.has(migration.version)) continue;
      this.db.transaction(() => {
        this.db.exec(migration.sql);
        if (migration.version === SEARCH_KEYS_VERSION) this.ranked.indexStoredItems();
        this.db
          .prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)')
          .run(migration.version, now());
      })();
    }
  }

  /** Statements run so far: lets tests check that loading associations is batched. */
  get queryCount(): number {
    return this.statements.count;
  }

  async ping(): Promise<void> {
    try {
      this.statements.get('SELECT 1').get();
    } catch (error) {
      throw this.statements.failure(error);
    }
  }

  /**
   * Copies the database into `file` while the service goes on answering: SQLite's online backup, a hundred pages per
   * turn of the event loop, with the writes made meanwhile on this connection copied too. Resolves with the pages.
   */
  async backup(file: string): Promise<number> {
    const copying = this.db.backup(file);
    this.copying = copying;
    try {
      return (await copying).totalPages;
    } finally {
      this.copying = undefined;
    }
  }

  async close(): Promise<void> {
    if (!this.db.open) return;
    // A backup in progress ends first (it takes a moment even at a million dogs): closing would cut it short.
    await this.copying?.catch(() => undefined);
    this.writes.drain();
    this.db.close();
  }

  async list(def: ResourceDef, scope: Scope, query: ListQuery): Promise<Page> {
    if (query.q !== undefined && !query.sort) return this.ranked.page(def, scope, query);
    const { rows, hasMore } = this.page(def, scope, query, selectList(def), (sql, params) =>
      this.readItems(def, sql, params),
    );
    return { items: rows, hasMore };
  }

  async listJson(def: ResourceDef, scope: Scope, query: ListQuery, fields: readonly string[]): Promise<JsonPage> {
    if (query.q !== undefined && !query.sort) {
      return this.searchCache.page(def, scope, query, fields, async () =>
        jsonPage(await this.ranked.page(def, scope, query), fields),
      );
    }
    const { rows, hasMore } = this.page(
      def,
      scope,
      query,
      jsonObjectOf(fields),
      (sql, params) => this.statements.pluck(sql).all(...params) as string[],
    );
    return { items: rows, hasMore };
  }

  /** One page of `columns` in the order of the query (sort, else creation order), read by `read`. */
  private page<Row>(
    def: ResourceDef,
    scope: Scope,
    query: ListQuery,
    columns: string,
    read: (sql: string, params: unknown[]) => Row[],
  ): { rows: Row[]; hasMore: boolean } {
    const { where, params } = whereClause(def, scope, query);
    if (where === undefined) return { rows: [], hasMore: false };
    const order: string[] = [];
    if (query.sort) order.push(`${sortKey(query.sort.field)} ${query.sort.descending ? 'DESC' : 'ASC'}`);
    order.push('t.seq');
    const sql = `SELECT ${columns} FROM ${def.name} t WHERE ${where} ORDER BY ${order.join(', ')} LIMIT ${BOUND_INTEGER} OFFSET ${BOUND_INTEGER}`;
    let rows: Row[];
    try {
      rows = read(sql, [...params, query.limit + 1, query.offset]);
    } catch (error) {
      throw this.statements.failure(error);
    }
    const hasMore = rows.length > query.limit;
    if (hasMore) rows.pop();
    return { rows, hasMore };
  }

  /** A tenant's whole collection from the count its writes keep; anything narrower counted through its indexes. */
  async count(def: ResourceDef, scope: Scope, criteria: Criteria): Promise<number> {
    const kept = keptCountScope(scope, criteria);
    try {
      if (kept) return this.statements.pluck(KEPT_COUNT).get(kept.tenantId, def.name) as number;
      const keys = keyCount(def, scope, criteria);
      if (keys !== undefined)
        return keys && (this.statements.pluck(positional(keys.sql)).get(...keys.params) as number);
      const { where, params } = whereClause(def, scope, criteria);
      if (where === undefined) return 0;
      return this.statements.pluck(`SELECT count(*) FROM ${def.name} t WHERE ${where}`).get(...params) as number;
    } catch (error) {
      throw this.statements.failure(error);
    }
  }

  async get(def: ResourceDef, scope: TenantScope, id: string): Promise<Item | undefined> {
    return this.readItems(def, byIdQuery(def), [scope.tenantId, id])[0];
  }

  async create(
    def: ResourceDef,
    scope: TenantScope,
    values: WriteValues,
    idempotency?: IdempotentWrite,
  ): Promise<Item> {
    const plan = planCreate(def, values, idempotency);
    await this.writes.run(() => this.plans.create(scope, plan));
    return plan.item;
  }

  async update(
    def: ResourceDef,
    scope: TenantScope,
    id: string,
    values: WriteValues,
    expect?: Precondition,
  ): Promise<Item | undefined> {
    const plan = planUpdate(def, values);
    return this.writes.run(() => {
      const row = this.plans.current(def, scope, id);
      if (!row) return undefined;
      expect?.(row.item);
      return this.plans.update(scope, id, plan, row);
    });
  }

  async remove(def: ResourceDef, scope: TenantScope, id: string, expect?: Precondition): Promise<boolean> {
    const plan = planRemove(def);
    return this.writes.run(() => {
      const row = this.plans.current(def, scope, id);
      if (!row) return false;
      expect?.(row.item);
      this.plans.remove(scope, id, plan, row);
      return true;
    });
  }

  async fetchRelated(
    association: AssociationDef,
    scope: TenantScope,
    keys: readonly string[],
    limitPerKey: number,
  ): Promise<Map<string, Item[]>> {
    const related = new Map<string, Item[]>();
    if (keys.length === 0) return related;
    const target = resourceByName(association.target)!;
    const oneKey = keys.length === 1;
    const params: unknown[] = [scope.tenantId, oneKey ? keys[0] : JSON.stringify(keys)];
    if (association.kind === 'many') params.push(limitPerKey);
    const names = representedFields(target);
    let rows: FieldValue[][];
    try {
      rows = this.statements.raw(relatedQuery(association, target, oneKey)).all(...params) as FieldValue[][];
    } catch (error) {
      throw this.statements.failure(error);
    }
    for (const row of rows) {
      const key = row[names.length] as string;
      const list = related.get(key);
      const item = toItem(names, row);
      if (list) list.push(item);
      else related.set(key, [item]);
    }
    return related;
  }

  async search(scope: TenantScope, query: SearchQuery): Promise<{ hits: SearchHit[]; hasMore: boolean }> {
    return this.searchCache.search(scope, query, () => this.ranked.search(scope, query));
  }

  async claimIdempotencyKey(scope: TenantScope, key: IdempotencyKey): Promise<IdempotencyClaim> {
    const time = Date.now();
    const sweepBefore = this.idempotency.sweepBefore(time);
    return this.writes.run(() => this.plans.claim(scope, key, time, sweepBefore));
  }

  async completeIdempotencyKey(scope: TenantScope, key: IdempotencyKey, answer: string): Promise<void> {
    await this.writes.run(() => this.plans.complete(scope, key, answer));
  }

  async releaseIdempotencyKey(scope: TenantScope, key: IdempotencyKey): Promise<void> {
    await this.writes.run(() => this.plans.release(scope, key));
  }

  /**
   * Rows as items. Rows are read as arrays and turned into objects here: better-sqlite3 builds
   * row objects property by property, which costs more than the whole query for a page of ten.
   */
  private readItems(def: ResourceDef, sql: string, params: unknown[]): Item[] {
    const names = representedFields(def);
    let rows: FieldValue[][];
    try {
      rows = this.statements.raw(sql).all(...params) as FieldValue[][];
    } catch (error) {
      throw this.statements.failure(error);
    }
    const items: Item[] = new Array(rows.length);
    for (let r = 0; r < rows.length; r += 1) items[r] = toItem(names, rows[r]!);
    return items;
  }
}

/**
 * Creates a folder and the missing ones above it, one at a time: Node 20's recursive mkdirSync never returns for a path
 * under /proc (each attempt answers ENOENT and it tries again).
 */
function makeDirectory(dir: string): void {
  const missing: string[] = [];
  const target = path.resolve(dir);
  for (let at = target; !fs.existsSync(at); at = path.dirname(at)) {
    missing.unshift(at);
    if (path.dirname(at) === at) break;
  }
  // A file of that name: mkdir says so (EEXIST).
  if (missing.length === 0 && !fs.statSync(target).isDirectory()) fs.mkdirSync(target);
  for (const each of missing) {
    try {
      fs.mkdirSync(each);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}
