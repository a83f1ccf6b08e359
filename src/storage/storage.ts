// The storage interface every backend implements (SQLite embedded, PostgreSQL for scale).
import type { AuthStore } from '../auth/auth-store.js';
import type { SessionStore } from '../auth/session-store.js';
import type { GrantStore } from '../auth/grant-store.js';
import type { Filter, Sort } from '../query/collection.js';
import type { AssociationDef, Item, ResourceDef, WriteValues } from '../resources/definition.js';
import type { RequestLogStore } from './request-log-store.js';

/**
 * Whose data a call may see: every row carries its tenant. A scope says which rows a call reads
 * and writes; a backend switches on its kind (never on the identity of a sentinel object).
 */
export type Scope = TenantScope | PublicScope;

/** One tenant's rows: the scope of every call made for a token. */
export interface TenantScope {
  readonly kind: 'tenant';
  readonly tenantId: string;
}

/**
 * Every tenant's rows, read-only: only the open adoption listing (SPEC §4) sees it, and it shows
 * public fields of adoptable dogs. Lists and counts take it; writes, reads by id, related items
 * and idempotency keys take a TenantScope only, so the compiler refuses it there.
 */
export interface PublicScope {
  readonly kind: 'public';
}

/** The one public view; it holds no data, so every caller may share it. */
export const PUBLIC_SCOPE: PublicScope = Object.freeze({ kind: 'public' });

/** The scope of one tenant. */
export function tenantScope(tenantId: string): TenantScope {
  return { kind: 'tenant', tenantId };
}

export interface Criteria {
  readonly filters: readonly Filter[];
  /** Only the items associated with one parent item (a nested path such as /owners/<id>/dogs). */
  readonly related?: { readonly association: AssociationDef; readonly parentId: string };
  /** Search text (SPEC §5); items must match every word. */
  readonly q?: string;
}

export interface ListQuery extends Criteria {
  readonly sort?: Sort;
  readonly limit: number;
  readonly offset: number;
}

export interface Page {
  readonly items: Item[];
  /** Whether an item exists after this page. */
  readonly hasMore: boolean;
}

/** A page whose items are JSON texts already (Storage.listJson). */
export interface JsonPage {
  readonly items: string[];
  readonly hasMore: boolean;
}

/** A check of the current item run inside the write's transaction (If-Match); it throws to abort. */
export type Precondition = (current: Item) => void;

/** What claiming an Idempotency-Key found (SPEC §4). */
export type IdempotencyClaim =
  | { readonly state: 'claimed' }
  | { readonly state: 'replay'; readonly answer: string }
  | { readonly state: 'mismatch' }
  | { readonly state: 'pending' };

export interface IdempotencyKey {
  readonly clientId: string;
  readonly key: string;
  /** A digest of the request: the same key with another fingerprint is a misuse. */
  readonly fingerprint: string;
}

/**
 * A claimed key whose answer a create commits in the same transaction as its item, so that a
 * retry after any crash replays it. The answer is made before the commit from the new item.
 */
export interface IdempotentWrite {
  readonly key: IdempotencyKey;
  /** The answer a retry replays, serialized, for the item being created. */
  answerFor(item: Item): string;
}

/** One hit of a search over several resources. */
export interface SearchHit {
  readonly def: ResourceDef;
  readonly item: Item;
}

export interface SearchQuery {
  readonly q: string;
  readonly types: readonly ResourceDef[];
  readonly limit: number;
  readonly offset: number;
}

export interface Storage {
  readonly kind: 'sqlite' | 'postgres';
  /** Accounts, OAuth clients and access tokens, in the same database. */
  readonly auth: AuthStore;
  /** The request log of the developer portal (SPEC §12), in the same database. */
  readonly requestLog: RequestLogStore;
  /** The portal's logins and sessions, in the same database. */
  readonly sessions: SessionStore;
  /** The code flow's clients, codes, refresh tokens and chains, in the same database. */
  readonly grants: GrantStore;
  /** Statements run so far: instrumentation (tests check that nested loading is batched). */
  readonly queryCount: number;
  /** How many searches the node's kept answers served, and how many it read (search-cache.ts; /metrics). */
  readonly searchCache: { readonly hits: number; readonly misses: number };
  /** Creates or upgrades the schema; safe to run on every start. */
  migrate(): Promise<void>;
  /** Resolves when the database answers; rejects otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
  /**
   * SQLite only: an online copy of the database into `file`, resolving with the pages copied (SIGUSR2,
   * online-backup.ts). PostgreSQL is backed up with its own tools (docs/deployment.md).
   */
  backup?(file: string): Promise<number>;

  list(def: ResourceDef, scope: Scope, query: ListQuery): Promise<Page>;
  /**
   * The page `list` reads, each item as its JSON text with only `fields` (represented fields, in
   * that order): exactly the text JSON.stringify writes for that object. A backend may build the
   * texts in the database, which saves turning every value into a JavaScript string and back
   * (docs/performance.md, Design choices).
   */
  listJson(def: ResourceDef, scope: Scope, query: ListQuery, fields: readonly string[]): Promise<JsonPage>;
  count(def: ResourceDef, scope: Scope, criteria: Criteria): Promise<number>;
  get(def: ResourceDef, scope: TenantScope, id: string): Promise<Item | undefined>;
  /**
   * Creates an item; a reference to an id the scope cannot see throws referenceNotFound. With a
   * claimed key, the key's answer is committed with the item.
   */
  create(def: ResourceDef, scope: TenantScope, values: WriteValues, idempotency?: IdempotentWrite): Promise<Item>;
  /** Changes the given fields; undefined when the item does not exist in the scope. */
  update(
    def: ResourceDef,
    scope: TenantScope,
    id: string,
    values: WriteValues,
    expect?: Precondition,
  ): Promise<Item | undefined>;
  /**
   * The items an association reaches from several items at once, in creation order and at most
   * `limitPerKey` per key: keyed by the parent's id (`many`) or by the target's id (`one`, whose
   * keys are the parents' ref values). One query, however many parents. Each key is given once (plan/expand.ts):
   * a key given twice is read twice.
   */
  fetchRelated(
    association: AssociationDef,
    scope: TenantScope,
    keys: readonly string[],
    limitPerKey: number,
  ): Promise<Map<string, Item[]>>;
  /**
   * Searches several resources at once: in SPEC §5's tiers, then dogs, owners, veterinarians, foods, then creation
   * order, so pages never overlap (storage/search-tiers.ts).
   */
  search(scope: TenantScope, query: SearchQuery): Promise<{ hits: SearchHit[]; hasMore: boolean }>;
  /** Deletes an item and clears every reference to it (refs set to null, link rows); false when it did not exist. */
  remove(def: ResourceDef, scope: TenantScope, id: string, expect?: Precondition): Promise<boolean>;

  /** Atomically claims a key, or reports the stored answer, a mismatch, or a claim still in progress. */
  claimIdempotencyKey(scope: TenantScope, key: IdempotencyKey): Promise<IdempotencyClaim>;
  /** Stores the answer (serialized) of a claimed key for replays, when no write committed it. */
  completeIdempotencyKey(scope: TenantScope, key: IdempotencyKey, answer: string): Promise<void>;
  /** Forgets a claimed key whose request failed, so that a corrected retry may use it. */
  releaseIdempotencyKey(scope: TenantScope, key: IdempotencyKey): Promise<void>;
}
