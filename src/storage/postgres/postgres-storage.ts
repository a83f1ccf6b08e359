// The scale-out backend: PostgreSQL through the `postgres` driver (connection.ts), shared by any number of stateless
// nodes (SPEC §10).
import {
  representedFields,
  searchableFields,
  type AssociationDef,
  type FieldValue,
  type Item,
  type ResourceDef,
  type WriteValues,
} from '../../resources/definition.js';
import { resourceByName } from '../../resources/index.js';
import { planCreate, planRemove, planUpdate } from '../../plan/write-plan.js';
import { answerParams, IDEMPOTENCY_SQL, IdempotencyPolicy, keyParams } from '../idempotency-keys.js';
import { jsonPage, rowsAsJson, toItem } from '../items.js';
import { oneRange, searchText, tierOfKey } from '../search-keys.js';
import { searchResources } from '../search-merge.js';
import { estimatePostings, POSTINGS_BOUND, type StreamSource } from '../search-tiers.js';
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
import { Connection } from './connection.js';
import { PostingsCache } from './postings-cache.js';
import { readOncePerBatch, SearchCache } from '../search-cache.js';
import { PostgresAuthStore } from './postgres-auth-store.js';
import { PostgresRequestLog } from './postgres-request-log.js';
import { PostgresSessionStore } from './postgres-session-store.js';
import { PostgresGrantStore } from './postgres-grant-store.js';
import { claimKey, createItem, removeItem, updateItem } from './postgres-writes.js';
import { runMigrations } from './migrate.js';
import { COUNT_SQL, keptCountScope, keyCount } from '../resource-counts.js';
import {
  deepQueries,
  listStatement,
  Params,
  postingsQuery,
  rangeQuery,
  rangesQuery,
  relatedQuery,
  selectList,
  streamsQuery,
  whereClause,
} from './postgres-sql.js';

type Row = FieldValue[];
type Read = <R extends unknown[]>(sql: string, params: readonly unknown[]) => Promise<R[]>;

/** A search read found that a key kept as having no postings has some now (postings-cache.ts). */
class StalePostings extends Error {}

/** Runs a search on the node's kept postings counts, and once more on fresh ones if they turned out stale. */
async function withFreshPostings<T>(run: (fresh: boolean) => Promise<T>): Promise<T> {
  try {
    return await run(false);
  } catch (error) {
    if (!(error instanceof StalePostings)) throw error;
    return run(true);
  }
}

/**
 * Whether a read's plan holds whatever its values, so that it may leave with the other reads of its text made in the
 * same turn (read-batch.ts), whose batched statement is planned without them. Not so for a relation through a link
 * table, planned from its parent's number of links, nor for the public view filtered by a colour or a place, planned
 * from how common the value is (a rare colour walked every adoptable dog): the plan test finds both walking when
 * batched. The public view's plain listing is batched: its enum value is in the text (whereClause), which proves its
 * partial index usable.
 */
function batchable(scope: Scope, criteria: Criteria): boolean {
  if (criteria.related && 'link' in criteria.related.association) return false;
  return scope.kind === 'tenant' || criteria.filters.every((filter) => filter.exact);
}

/** A search's keys joined by new lines, as the postings cache and statement take them; made once per kept keys. */
const joinedOfKeys = new WeakMap<readonly string[], string>();
function joinedKeys(keys: readonly string[]): string {
  let joined = joinedOfKeys.get(keys);
  if (joined === undefined) {
    joined = keys.join('\n');
    joinedOfKeys.set(keys, joined);
  }
  return joined;
}

/** A search hit of a range read (StreamSource.range's rows). */
type RangeHit = Awaited<ReturnType<StreamSource['range']>>[number];
/** Reads the first range of `def` (no `after`): its rows as StreamSource.range gives them. */
type FirstRange = (def: ResourceDef, keys: readonly [string, string], limit: number) => Promise<RangeHit[]>;

/**
 * The first range reads of a one-word /search, one per resource, sent as one statement (rangesQuery): searchResources
 * asks for every resource's at once (the same range and limit), and they leave together a microtask later, so that
 * the resources cost one call of one batched statement instead of a call of each resource's. Any other read (another
 * range or limit, or one asked after they left) takes the resource's own statement (`alone`).
 */
function firstRangesTogether(read: Read, tenantId: string, alone: FirstRange): FirstRange {
  const asked: Array<{ def: ResourceDef; resolve(rows: RangeHit[]): void; reject(error: unknown): void }> = [];
  let range: readonly [string, string] | undefined;
  let limit = 0;
  let sent = false;
  const send = async (): Promise<void> => {
    sent = true;
    const defs = asked.map((one) => one.def);
    try {
      const rows = await read<Row>(rangesQuery(defs), [tenantId, range![0], range![1], limit]);
      const hits = defs.map((): RangeHit[] => []);
      for (const row of rows) {
        const index = row[0] as unknown as number;
        const key = row[2] as string;
        hits[index]!.push({
          item: toItem(representedFields(defs[index]!), row, 3),
          seq: Number(row[1]),
          key,
          tier: tierOfKey(key),
        });
      }
      asked.forEach((one, index) => one.resolve(hits[index]!));
    } catch (error) {
      for (const one of asked) one.reject(error);
    }
  };
  return (def, keys, wanted) => {
    if (range === undefined) {
      range = keys;
      limit = wanted;
      queueMicrotask(() => void send());
    } else if (sent || wanted !== limit || keys[0] !== range[0] || keys[1] !== range[1]) {
      return alone(def, keys, wanted);
    }
    return new Promise((resolve, reject) => asked.push({ def, resolve, reject }));
  };
}

/** The fields a ranked page reads for `fields`: those, then the searchable ones it lacks (tierOf reads them). */
function rankedFields(def: ResourceDef, fields: readonly string[]): readonly string[] {
  const missing = searchableFields(def).filter((name) => !fields.includes(name));
  return missing.length === 0 ? fields : [...fields, ...missing];
}

export class PostgresStorage implements Storage {
  readonly kind = 'postgres' as const;
  private readonly db: Connection;
  private readonly idempotency = new IdempotencyPolicy();
  /** Accounts, OAuth clients and access tokens, in the same database. */
  readonly auth: PostgresAuthStore;
  readonly requestLog: PostgresRequestLog;
  readonly sessions: PostgresSessionStore;
  /** The code flow's clients, codes, refresh tokens and chains. */
  readonly grants: PostgresGrantStore;
  private closed = false;
  /** The postings counts of multi-word searches, kept by this node (postings-cache.ts). */
  readonly postingsCache = new PostingsCache();
  /** The search answers this node keeps under their tenant's write stamp (search-cache.ts). */
  readonly searchCache: SearchCache;

  /**
   * A pool of up to `poolSize` connections on `databaseUrl` (postgres://…), none opened before the first query; up to
   * `keptSearches` characters of search answers kept (search-cache.ts; 0: none).
   */
  constructor(databaseUrl: string, poolSize?: number, keptSearches?: number) {
    this.db = new Connection(databaseUrl, { poolSize });
    this.searchCache = new SearchCache(
      readOncePerBatch(
        async (tenantId) => String((await this.db.read<[string]>(COUNT_SQL.stamp, [tenantId]))[0]![0]),
        () => this.db.batcher.gathering,
      ),
      keptSearches,
    );
    this.auth = new PostgresAuthStore(this.db);
    this.requestLog = new PostgresRequestLog(this.db);
    this.sessions = new PostgresSessionStore(this.db);
    this.grants = new PostgresGrantStore(this.db);
  }

  /** Statements run so far: lets tests check that loading associations is batched. */
  get queryCount(): number {
    return this.db.queryCount;
  }

  /** Migrations may wait for another node's lock and build indexes for minutes: no deadline (deadlines.ts). */
  migrate(): Promise<void> {
    return this.db.deadlines.unwatched(() => runMigrations(this.db));
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
    if (query.q !== undefined && !query.sort) return this.rankedPage(def, scope, query);
    const { rows, hasMore } = await this.pageRows(def, scope, query);
    const names = representedFields(def);
    return { items: rows.map((row) => toItem(names, row)), hasMore };
  }

  /**
   * A page's rows (limit + 1 read, to know whether more follow): the columns of `fields` in their order, or of every
   * represented field.
   */
  private async pageRows(
    def: ResourceDef,
    scope: Scope,
    query: ListQuery,
    fields?: readonly string[],
  ): Promise<{ rows: Row[]; hasMore: boolean }> {
    const params = new Params();
    const sql = listStatement(def, scope, query, params, fields);
    if (sql === undefined) return { rows: [], hasMore: false };
    const rows = await this.reader(scope, query)<Row>(sql, params.values);
    const hasMore = rows.length > query.limit;
    if (hasMore) rows.pop();
    return { rows, hasMore };
  }

  /**
   * A page of search results in SPEC §5's tiers, read through the search index until the page is full; its items of
   * `fields` and the searchable ones (which place an item in its tier) when given, else whole.
   */
  private async rankedPage(
    def: ResourceDef,
    scope: Scope,
    query: ListQuery,
    fields?: readonly string[],
  ): Promise<Page> {
    const text = searchText(query.q!);
    if (text === undefined) return { items: [], hasMore: false };
    const read = fields && rankedFields(def, fields);
    const { hits, hasMore } = await withFreshPostings((fresh) =>
      searchResources([def], text, query, () => this.streams(def, scope, query, read, fresh)),
    );
    return { items: hits.map((hit) => hit.item), hasMore };
  }

  /**
   * The search index of `def` limited to the scope and the criteria's filters and relation (search-tiers.ts); its items
   * of `fields` only when given. A tenant's postings counts come from the node's cache unless `fresh`; a read built on
   * kept counts fails with StalePostings when one it relied on changed (postings-cache.ts).
   */
  private streams(
    def: ResourceDef,
    scope: Scope,
    criteria: Criteria,
    fields?: readonly string[],
    fresh = false,
    firstRange?: FirstRange,
  ): StreamSource {
    const names = fields ?? representedFields(def);
    const read = this.reader(scope, criteria);
    const space = scope.kind === 'tenant' ? `${def.name}\n${scope.tenantId}` : undefined;
    /** The keys kept as having no postings, which the streams left out. */
    let none: readonly string[] = [];
    const readStreams: StreamSource['read'] = async (streams, limit, afterSeq) => {
      const { sql, params } = streamsQuery(def, scope, criteria, streams, limit, afterSeq, fields, none);
      const rows = await read<Row>(sql, params);
      if ((rows[0]?.[names.length + 2] as unknown) === true) throw new StalePostings();
      // No row of any tier: one row of nulls carries `stale`.
      if (rows[0]?.[names.length] === null) return [];
      return rows.map((row) => ({
        item: toItem(names, row),
        seq: Number(row[names.length]),
        tier: Number(row[names.length + 1]),
      }));
    };
    return {
      items: async (seqs) => {
        const statement = deepQueries.items(def, scope, criteria, fields, seqs);
        if (statement === undefined) return [];
        const rows = await this.db.rows<Row>(statement.sql, statement.params);
        return rows.map((row) => ({ item: toItem(names, row), seq: Number(row[names.length]) }));
      },
      read: readStreams,
      // Kept counts that left every tier out: the streams statement of no tier checks them.
      confirm: async () => {
        if (none.length > 0) await readStreams([], 1);
      },
      range: async (keys, limit, after) => {
        if (firstRange && after === undefined) return firstRange(def, keys, limit);
        const { sql, params } = rangeQuery(def, scope, criteria, keys, limit, after, fields);
        return (await read<Row>(sql, params)).map((row) => {
          const key = row[names.length + 1] as string;
          return { item: toItem(names, row), seq: Number(row[names.length]), key, tier: tierOfKey(key) };
        });
      },
      postings: async (keys) => {
        const joined = joinedKeys(keys);
        const kept = space === undefined || fresh ? undefined : this.postingsCache.get(space, joined);
        if (kept !== undefined) {
          none = kept.none;
          return kept.postings;
        }
        const { sql, params } = postingsQuery(def, scope, joined, POSTINGS_BOUND);
        const [[counted]] = await read<[string | null]>(sql, params);
        const postings = estimatePostings(keys, counted ?? '');
        if (space !== undefined) this.postingsCache.set(space, joined, postings);
        return postings;
      },
    };
  }

  /**
   * The driver hands values over as JavaScript strings, so the texts are written from the rows as they come, with no
   * item made on the way (rowsAsJson), and only the fields' columns are read; a ranked page's from its items, read
   * with the searchable fields besides.
   */
  async listJson(def: ResourceDef, scope: Scope, query: ListQuery, fields: readonly string[]): Promise<JsonPage> {
    if (query.q !== undefined && !query.sort) {
      return this.searchCache.page(def, scope, query, fields, async () =>
        jsonPage(await this.rankedPage(def, scope, query, fields), fields),
      );
    }
    const { rows, hasMore } = await this.pageRows(def, scope, query, fields);
    return { items: rowsAsJson(rows, fields), hasMore };
  }

  /** A tenant's whole collection from the count its writes keep; anything narrower counted through its indexes. */
  async count(def: ResourceDef, scope: Scope, criteria: Criteria): Promise<number> {
    const kept = keptCountScope(scope, criteria);
    if (kept) return Number((await this.db.read<[string]>(COUNT_SQL.read, [kept.tenantId, def.name]))[0]![0]);
    const read = this.reader(scope, criteria);
    const keys = keyCount(def, scope, criteria);
    if (keys !== undefined) return keys && Number((await read<[string]>(keys.sql, keys.params))[0]![0]);
    const params = new Params();
    const clause = whereClause(def, scope, criteria, params);
    if (clause === undefined) return 0;
    const [row] = await read<[string]>(`SELECT count(*) FROM ${def.name} t WHERE ${clause.where}`, params.values);
    return Number(row![0]);
  }

  async get(def: ResourceDef, scope: TenantScope, id: string): Promise<Item | undefined> {
    const sql = `SELECT ${selectList(def)} FROM ${def.name} t WHERE t.tenant_id = $1 AND t.id = $2`;
    return (await this.readItems(def, sql, [scope.tenantId, id], this.db.read))[0];
  }

  async create(
    def: ResourceDef,
    scope: TenantScope,
    values: WriteValues,
    idempotency?: IdempotentWrite,
  ): Promise<Item> {
    const plan = planCreate(def, values, idempotency);
    await createItem(this.db, scope, plan);
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
    return this.db.transaction((tx) => updateItem(tx, scope, id, plan, expect));
  }

  async remove(def: ResourceDef, scope: TenantScope, id: string, expect?: Precondition): Promise<boolean> {
    const plan = planRemove(def);
    return this.db.transaction((tx) => removeItem(tx, scope, id, plan, expect));
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
    const params: unknown[] = [scope.tenantId, keys];
    if (association.kind === 'many') params.push(limitPerKey);
    const names = representedFields(target);
    for (const row of await this.db.read<Row>(relatedQuery(association, target), params)) {
      const key = row[names.length] as string;
      const item = toItem(names, row);
      const list = related.get(key);
      if (list) list.push(item);
      else related.set(key, [item]);
    }
    return related;
  }

  async search(scope: TenantScope, query: SearchQuery): Promise<{ hits: SearchHit[]; hasMore: boolean }> {
    const text = searchText(query.q);
    if (text === undefined) return { hits: [], hasMore: false };
    const everything = { filters: [] };
    return this.searchCache.search(scope, query, () =>
      withFreshPostings((fresh) => {
        // A word within the cap reads one range per resource (search-merge.ts): their first reads leave as one.
        const firstRange =
          oneRange(text) !== undefined && query.types.length > 1
            ? firstRangesTogether(this.db.read, scope.tenantId, (def, keys, limit) =>
                this.streams(def, scope, everything).range(keys, limit),
              )
            : undefined;
        return searchResources(query.types, text, query, (def) =>
          this.streams(def, scope, everything, undefined, fresh, firstRange),
        );
      }),
    );
  }

  claimIdempotencyKey(scope: TenantScope, key: IdempotencyKey): Promise<IdempotencyClaim> {
    const time = Date.now();
    return claimKey(this.db, scope, key, time, this.idempotency.sweepBefore(time));
  }

  async completeIdempotencyKey(scope: TenantScope, key: IdempotencyKey, answer: string): Promise<void> {
    await this.db.run(IDEMPOTENCY_SQL.answer, answerParams(scope, { key, answer }));
  }

  async releaseIdempotencyKey(scope: TenantScope, key: IdempotencyKey): Promise<void> {
    await this.db.run(IDEMPOTENCY_SQL.release, keyParams(scope, key));
  }

  /** The connection's batched read where the read's plan allows it (batchable), its read alone where not. */
  private reader(scope: Scope, criteria: Criteria): Read {
    return batchable(scope, criteria) ? this.db.read : this.db.rows;
  }

  private async readItems(def: ResourceDef, sql: string, params: readonly unknown[], read: Read): Promise<Item[]> {
    const names = representedFields(def);
    return (await read<Row>(sql, params)).map((row) => toItem(names, row));
  }
}
