// Ranked search on SQLite (SPEC §5): pages in tiers read through the search index, and the index of stored items.
import { representedFields, type FieldValue, type ResourceDef } from '../../resources/definition.js';
import { resourceByName } from '../../resources/index.js';
import { toItem } from '../items.js';
import { searchText, tierOfKey } from '../search-keys.js';
import { searchResources } from '../search-merge.js';
import { POSTINGS_BOUND, type StreamSource } from '../search-tiers.js';
import {
  tenantScope,
  type Criteria,
  type ListQuery,
  type Page,
  type Scope,
  type SearchHit,
  type SearchQuery,
  type TenantScope,
} from '../storage.js';
import { SEARCH_INDEXED } from './sqlite-migrations.js';
import { postingsQuery, rangeQuery, selectList, streamsQuery, whereClause } from './sqlite-sql.js';
import type { SqliteWrites } from './sqlite-writes.js';
import type { Statements } from './statements.js';

/** Items read at a time when the stored items are indexed. */
const INDEX_BATCH = 1000;

/** A global search's criteria: none. */
const NO_CRITERIA: Criteria = { filters: [] };

export class SqliteSearch {
  constructor(
    private readonly statements: Statements,
    private readonly plans: SqliteWrites,
  ) {}

  /** A page of search results in SPEC §5's tiers, read through the search index until the page is full. */
  async page(def: ResourceDef, scope: Scope, query: ListQuery): Promise<Page> {
    const text = searchText(query.q!);
    if (text === undefined) return { items: [], hasMore: false };
    const source = this.streams(def, scope, query);
    const { hits, hasMore } = await searchResources([def], text, query, () => source);
    return { items: hits.map((hit) => hit.item), hasMore };
  }

  /** Each resource's first `offset + limit + 1` matches, merged by tier (search-merge.ts). */
  async search(scope: TenantScope, query: SearchQuery): Promise<{ hits: SearchHit[]; hasMore: boolean }> {
    const text = searchText(query.q);
    if (text === undefined) return { hits: [], hasMore: false };
    return searchResources(query.types, text, query, (def) => this.streams(def, scope, NO_CRITERIA));
  }

  /** The items stored before the search index existed get their keys, in the transaction that creates it. */
  indexStoredItems(): void {
    for (const def of SEARCH_INDEXED.map((name) => resourceByName(name)!)) {
      const names = representedFields(def);
      const sql = `SELECT ${selectList(def)}, t.seq, t.tenant_id FROM ${def.name} t WHERE t.seq > ? ORDER BY t.seq LIMIT ${INDEX_BATCH}`;
      // In batches: the connection cannot write while a statement still reads.
      for (let after = 0, rows = this.rows(sql, [after]); rows.length > 0; rows = this.rows(sql, [after])) {
        for (const row of rows) {
          after = Number(row[names.length]);
          this.plans.indexKeys(tenantScope(row[names.length + 1] as string), def, after, toItem(names, row));
        }
      }
    }
  }

  /** The search index of `def` limited to the scope and the criteria's filters and relation (search-tiers.ts). */
  private streams(def: ResourceDef, scope: Scope, criteria: Criteria): StreamSource {
    const { where, params } = whereClause(def, scope, { filters: criteria.filters, related: criteria.related });
    const names = representedFields(def);
    const tenant = scope.kind === 'tenant' ? scope.tenantId : undefined;
    const item = (row: FieldValue[]) => ({ seq: Number(row[names.length]), item: toItem(names, row) });
    return {
      items: async (seqs) => {
        const sql = `SELECT ${selectList(def)}, t.seq FROM ${def.name} t WHERE ${where} AND t.seq IN (SELECT value FROM json_each(?))`;
        return this.rows(sql, [...params, JSON.stringify(seqs)]).map(item);
      },
      read: async (streams, limit, afterSeq) => {
        const sql = streamsQuery(def, where!, streams, afterSeq !== undefined, tenant !== undefined);
        const args: unknown[] = [];
        for (const { keys, also } of streams) {
          for (const key of keys) {
            if (tenant !== undefined) args.push(tenant);
            args.push(key);
            if (afterSeq !== undefined) args.push(afterSeq);
            for (const set of also) args.push(...set);
            args.push(...params, limit);
          }
          if (keys.length > 1) args.push(limit);
        }
        args.push(limit);
        return this.rows(sql, args).map((row) => ({
          item: toItem(names, row),
          seq: Number(row[names.length]),
          tier: Number(row[names.length + 1]),
        }));
      },
      range: async ([from, to], limit, after) => {
        const args: unknown[] = tenant === undefined ? [] : [tenant];
        if (after) args.push(after.key, after.seq, to);
        else args.push(from, to);
        const sql = rangeQuery(def, where!, tenant !== undefined, after !== undefined);
        return this.rows(sql, [...args, ...params, limit]).map((row) => {
          const key = row[names.length + 1] as string;
          return { item: toItem(names, row), seq: Number(row[names.length]), key, tier: tierOfKey(key) };
        });
      },
      postings: async (keys) => {
        let args: readonly string[] = keys;
        if (tenant !== undefined) {
          const both: string[] = [];
          for (const key of keys) both.push(tenant, key);
          args = both;
        }
        const [counts] = this.rows(postingsQuery(def, keys.length, POSTINGS_BOUND, tenant !== undefined), args);
        const postings = new Map<string, number>();
        for (let index = 0; index < keys.length; index += 1) postings.set(keys[index]!, Number(counts![index]));
        return postings;
      },
    };
  }

  private rows(sql: string, args: readonly unknown[]): FieldValue[][] {
    try {
      return this.statements.raw(sql).all(...args) as FieldValue[][];
    } catch (error) {
      throw this.statements.failure(error);
    }
  }
}
