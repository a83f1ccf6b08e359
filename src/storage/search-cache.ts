// Search answers a node keeps, each under the write stamp of its tenant when it was read: a search made again is a
// look-up, as long as the tenant wrote nothing since.
//
// A ranked page costs a range of search keys per tier and the items it finds (search-tiers.ts), several times a
// lookup's work, while the texts people search repeat (autocomplete sends `b`, `be`, `bel` for every user who types
// Bella). So a node keeps the answers of the texts last searched, by tenant, resource, text, page and fields.
//
// What keeps a kept answer right is the tenant's write stamp (resource-counts.ts): every write of a tenant's items
// (create, update, delete, the refs and links a delete clears) adds to it in the write's own transaction, in the
// database, so a write on any node changes it. Each search first reads the stamp — one small statement, batched with
// the other requests' on PostgreSQL — and serves the kept answer only when it was read under the same stamp. The
// stamp is read and answered before the search's read is sent, so an answer is never kept under a stamp newer than
// its data: a write committed in between makes it kept under the older stamp, which the next search no longer sees
// (one search more, never a stale answer). A kept answer is also dropped after KEPT_MS, for changes made to the
// database outside the service (an operator's UPDATE), which bump no stamp.
import { representedFields, type Item, type ResourceDef } from '../resources/definition.js';
import type { Filter } from '../query/collection.js';
import type { Criteria, JsonPage, ListQuery, Scope, SearchHit, SearchQuery, TenantScope } from './storage.js';

/** How long an answer is served under an unchanged stamp: the bound on a change made behind the service's back. */
const KEPT_MS = 10_000;
/**
 * How much a node keeps, in characters of the answers' JSON (about twice that in bytes): 4 MiB holds the pages of a
 * few thousand texts at the default limit, and keeps a node's memory within issue 3's bounds.
 */
const MOST_CHARACTERS = 4 * 1024 * 1024;

/** Reads a tenant's write stamp: the database's sum of its writes, as text (PostgreSQL's numeric comes so). */
export type ReadStamp = (tenantId: string) => Promise<string> | string;

/**
 * `read` shared by the searches of one tenant whose stamp reads would leave in one batch (postgres/read-batch.ts): one
 * stamp statement for them all. `gathering` is the batch being gathered, another object once it has left; a read is
 * shared only while it has not left, so every search's stamp is read after the search arrived, and a client that got
 * its write's answer always finds the write in its next search.
 */
export function readOncePerBatch(read: (tenantId: string) => Promise<string>, gathering: () => object): ReadStamp {
  let batch: object | undefined;
  let reads = new Map<string, Promise<string>>();
  return (tenantId) => {
    const now = gathering();
    if (now !== batch) {
      batch = now;
      reads = new Map();
    }
    let stamp = reads.get(tenantId);
    if (stamp === undefined) {
      stamp = read(tenantId);
      reads.set(tenantId, stamp);
    }
    return stamp;
  };
}

type SearchAnswer = { hits: SearchHit[]; hasMore: boolean };
type Answer = JsonPage | SearchAnswer;

interface Kept {
  readonly stamp: string;
  readonly at: number;
  readonly size: number;
  readonly answer: Answer;
}

export class SearchCache {
  private readonly kept = new Map<string, Kept>();
  /** The searches being read, by name, with the stamp read before each. */
  private readonly reading = new Map<string, { readonly stamp: string; readonly answer: Promise<Answer> }>();
  private characters = 0;
  /** Searches answered from a kept answer (or one being read), and those read from the index (/metrics). */
  hits = 0;
  misses = 0;

  /** `most` characters kept (0: none, and no stamp read: SEARCH_CACHE=off); `now` the clock. */
  constructor(
    private readonly readStamp: ReadStamp,
    private readonly most = MOST_CHARACTERS,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * A ranked page of `def` as JSON texts of `fields` (Storage.listJson with `q`), kept for its tenant; `read` reads it
   * from the index. The public view's pages are read each time: every tenant's writes change them.
   */
  page(
    def: ResourceDef,
    scope: Scope,
    query: ListQuery,
    fields: readonly string[],
    read: () => Promise<JsonPage>,
  ): Promise<JsonPage> {
    if (scope.kind !== 'tenant' || this.most === 0) return read();
    const name = `${def.name}\n${criteriaName(query)}\n${query.offset}\n${query.limit}\n${fields.join(',')}`;
    return this.through(scope, name, read, pageSize);
  }

  /** A search of several resources (Storage.search), kept for its tenant; `read` reads it from the index. */
  search(scope: TenantScope, query: SearchQuery, read: () => Promise<SearchAnswer>): Promise<SearchAnswer> {
    if (this.most === 0) return read();
    const types = query.types.map((def) => def.name).join(',');
    const name = `/search\n${types}\n${JSON.stringify(query.q)}\n${query.offset}\n${query.limit}`;
    return this.through(scope, name, read, hitsSize);
  }

  private async through<T extends Answer>(
    scope: TenantScope,
    key: string,
    read: () => Promise<T>,
    sizeOf: (answer: T) => number,
  ): Promise<T> {
    const name = `${scope.tenantId}\n${key}`;
    const stamp = await this.readStamp(scope.tenantId);
    const kept = this.kept.get(name);
    if (kept !== undefined && kept.stamp === stamp && this.now() - kept.at <= KEPT_MS) {
      // Used again: to the end of the map's order, which evicts from the front.
      this.kept.delete(name);
      this.kept.set(name, kept);
      this.hits += 1;
      return kept.answer as T;
    }
    // The same search read under the same stamp by a request before: its answer is this one's too (a hot text after a
    // write is read once, not once per request waiting for it).
    const reading = this.reading.get(name);
    if (reading !== undefined && reading.stamp === stamp) {
      this.hits += 1;
      return reading.answer as Promise<T>;
    }
    this.misses += 1;
    const mine = { stamp, answer: read() };
    this.reading.set(name, mine);
    try {
      const answer = await mine.answer;
      this.keep(name, { stamp, at: this.now(), size: sizeOf(answer), answer });
      return answer;
    } finally {
      if (this.reading.get(name) === mine) this.reading.delete(name);
    }
  }

  private keep(name: string, entry: Kept): void {
    const before = this.kept.get(name);
    if (before !== undefined) {
      this.kept.delete(name);
      this.characters -= before.size;
    }
    if (entry.size > this.most) return;
    this.kept.set(name, entry);
    this.characters += entry.size;
    for (const [oldest, { size }] of this.kept) {
      if (this.characters <= this.most) break;
      this.kept.delete(oldest);
      this.characters -= size;
    }
  }
}

/**
 * The criteria of a ranked page as text: the search text (quoted, so that a text holding new lines reads as no other
 * search), the filters and the parent.
 */
function criteriaName({ q, filters, related }: Criteria): string {
  const parent = related === undefined ? '' : `${JSON.stringify(related.association)}=${related.parentId}`;
  return `${JSON.stringify(q)}\n${filters.map(filterName).join('&')}\n${parent}`;
}

const filterName = (filter: Filter): string => `${filter.field}=${JSON.stringify(filter.values)}`;

const pageSize = (page: JsonPage): number => page.items.reduce((sum, item) => sum + item.length, 64);

/** A search's hits as kept: frozen, since every request that reads them shares them, and their size in characters. */
function hitsSize(answer: SearchAnswer): number {
  let size = 64;
  for (const { def, item } of answer.hits) {
    Object.freeze(item);
    size += itemSize(def, item);
  }
  return size;
}

function itemSize(def: ResourceDef, item: Item): number {
  let size = 16;
  for (const name of representedFields(def)) {
    const value = item[name];
    size += name.length + 4 + (typeof value === 'string' ? value.length : 8);
  }
  return size;
}
