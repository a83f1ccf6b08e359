// The SQLite schema, as numbered migrations applied in order on start (each exactly once).
//
// Every table leads with tenant_id, so that tenancy and tenant sharding need no rewrite.
// `seq` is the creation order (the rowid); `id` is the opaque public id, unique per tenant.
// ci() is the service's case folding (registered by the storage), used by filter indexes.

function resourceTable(table: string, columns: string): string {
  return `
    CREATE TABLE ${table} (
      seq INTEGER PRIMARY KEY,
      tenant_id TEXT NOT NULL,
      id TEXT NOT NULL,
      ${columns},
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    );
    CREATE UNIQUE INDEX ${table}_id ON ${table} (tenant_id, id);
    CREATE INDEX ${table}_tenant_order ON ${table} (tenant_id, seq);`;
}

/** Migration 1's search index, an FTS5 table per resource, which migration 8 replaced with the search keys. */
function firstSearchIndex(table: string): string {
  return `CREATE VIRTUAL TABLE ${table}_fts USING fts5 (words, tokenize = 'unicode61 remove_diacritics 0');`;
}

/**
 * The search index of a resource (SPEC §5): one row per key an item is found by (src/storage/search-keys.ts), keyed
 * (tenant, key, seq), so that a tier is one range of it in creation order with the tenant inside.
 */
function searchKeysTable(table: string): string {
  return `
    CREATE TABLE ${table}_search_keys (
      tenant_id TEXT NOT NULL,
      key TEXT NOT NULL,
      seq INTEGER NOT NULL,
      PRIMARY KEY (tenant_id, key, seq)
    ) WITHOUT ROWID;`;
}

/**
 * The indexes of `sort=name` and `sort=createdAt` (definition.ts SORT_INDEXED), read forwards or backwards: a page of
 * a sorted list without sorting the tenant's items.
 */
function sortIndexes(table: string): string {
  return `
    CREATE INDEX ${table}_name_order ON ${table} (tenant_id, ci(name), seq);
    CREATE INDEX ${table}_created ON ${table} (tenant_id, created_at, seq);`;
}

/** The resources migration 8 gives a search index; their stored items get their keys when it runs. */
export const SEARCH_INDEXED: readonly string[] = ['dogs', 'owners', 'veterinarians', 'foods'];

/** The resources whose items migration 10 counts: those of migration 1 (a later resource starts with no rows). */
const COUNTED = ['dogs', 'owners', 'veterinarians', 'foods'];

export const migrations: ReadonlyArray<{ version: number; description: string; sql: string }> = [
  {
    version: 1,
    description: 'dogs, owners, veterinarians, foods and their links',
    sql: `
      ${resourceTable(
        'dogs',
        `
        name TEXT NOT NULL,
        fur_color TEXT,
        state TEXT NOT NULL DEFAULT 'registered',
        location TEXT,
        owner_id TEXT,
        veterinarian_id TEXT`,
      )}
      CREATE INDEX dogs_fur_color ON dogs (tenant_id, ci(fur_color), seq);
      CREATE INDEX dogs_state ON dogs (tenant_id, state, seq);
      CREATE INDEX dogs_location ON dogs (tenant_id, ci(location), seq);
      CREATE INDEX dogs_owner ON dogs (tenant_id, owner_id, seq);
      CREATE INDEX dogs_veterinarian ON dogs (tenant_id, veterinarian_id, seq);
      CREATE INDEX dogs_adoptable ON dogs (state, seq) WHERE state = 'adoptable';

      ${resourceTable(
        'owners',
        `
        name TEXT NOT NULL,
        email TEXT,
        location TEXT`,
      )}
      CREATE INDEX owners_location ON owners (tenant_id, ci(location), seq);

      ${resourceTable(
        'veterinarians',
        `
        name TEXT NOT NULL,
        clinic TEXT,
        location TEXT`,
      )}
      CREATE INDEX veterinarians_clinic ON veterinarians (tenant_id, ci(clinic), seq);
      CREATE INDEX veterinarians_location ON veterinarians (tenant_id, ci(location), seq);

      ${resourceTable(
        'foods',
        `
        name TEXT NOT NULL,
        brand TEXT`,
      )}
      CREATE INDEX foods_brand ON foods (tenant_id, ci(brand), seq);

      CREATE TABLE dog_foods (
        seq INTEGER PRIMARY KEY,
        tenant_id TEXT NOT NULL,
        dog_id TEXT NOT NULL,
        food_id TEXT NOT NULL
      );
      CREATE UNIQUE INDEX dog_foods_pair ON dog_foods (tenant_id, dog_id, food_id);
      CREATE INDEX dog_foods_food ON dog_foods (tenant_id, food_id, seq);

      CREATE TABLE owner_veterinarians (
        seq INTEGER PRIMARY KEY,
        tenant_id TEXT NOT NULL,
        owner_id TEXT NOT NULL,
        veterinarian_id TEXT NOT NULL
      );
      CREATE UNIQUE INDEX owner_veterinarians_pair ON owner_veterinarians (tenant_id, owner_id, veterinarian_id);
      CREATE INDEX owner_veterinarians_veterinarian ON owner_veterinarians (tenant_id, veterinarian_id, seq);
      ${SEARCH_INDEXED.map(firstSearchIndex).join('')}`,
  },
  {
    version: 2,
    description: 'Idempotency-Key records of POST requests',
    sql: `
      CREATE TABLE idempotency_keys (
        tenant_id TEXT NOT NULL,
        client_id TEXT NOT NULL,
        key TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        answer TEXT,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (tenant_id, client_id, key)
      );
      CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);`,
  },
  {
    version: 3,
    description: 'accounts (tenants), OAuth clients and access tokens, secrets only as hashes',
    sql: `
      CREATE TABLE accounts (
        id TEXT PRIMARY KEY,
        email TEXT NOT NULL UNIQUE,
        password_hash TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE TABLE clients (
        id TEXT PRIMARY KEY,
        tenant_id TEXT NOT NULL,
        name TEXT NOT NULL,
        secret_hash TEXT NOT NULL,
        scopes TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX clients_tenant ON clients (tenant_id);
      CREATE TABLE access_tokens (
        token_hash TEXT PRIMARY KEY,
        tenant_id TEXT NOT NULL,
        client_id TEXT NOT NULL,
        scopes TEXT NOT NULL,
        issued_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL,
        revoked_at INTEGER
      );
      CREATE INDEX access_tokens_expiry ON access_tokens (expires_at);`,
  },
  {
    version: 4,
    description: 'portal sessions: the id only as a hash, the account, the CSRF secret, created and expiry times',
    sql: `
      CREATE TABLE sessions (
        id_hash TEXT PRIMARY KEY,
        account_id TEXT NOT NULL,
        csrf_secret TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
      );
      CREATE INDEX sessions_account ON sessions (account_id);
      CREATE INDEX sessions_expiry ON sessions (expires_at);`,
  },
  {
    version: 5,
    description: 'the code flow: client types and redirect URIs, authorization codes, refresh tokens, token chains',
    // A chain is one consent: its code, refresh tokens and access tokens share chain_id, so that a replayed code or
    // a reused refresh token revokes all of them at once. Public clients keep an empty secret_hash (no secret
    // hashes to it).
    sql: `
      ALTER TABLE clients ADD COLUMN type TEXT NOT NULL DEFAULT 'confidential';
      ALTER TABLE clients ADD COLUMN redirect_uris TEXT NOT NULL DEFAULT '[]';
      ALTER TABLE access_tokens ADD COLUMN chain_id TEXT;
      CREATE INDEX access_tokens_chain ON access_tokens (chain_id);
      CREATE TABLE authorization_codes (
        code_hash TEXT PRIMARY KEY,
        chain_id TEXT NOT NULL,
        client_id TEXT NOT NULL,
        account_id TEXT NOT NULL,
        redirect_uri TEXT NOT NULL,
        scopes TEXT NOT NULL,
        code_challenge TEXT NOT NULL,
        expires_at INTEGER NOT NULL,
        used_at INTEGER
      );
      CREATE INDEX authorization_codes_expiry ON authorization_codes (expires_at);
      CREATE TABLE refresh_tokens (
        token_hash TEXT PRIMARY KEY,
        chain_id TEXT NOT NULL,
        client_id TEXT NOT NULL,
        account_id TEXT NOT NULL,
        scopes TEXT NOT NULL,
        expires_at INTEGER NOT NULL,
        retired_at INTEGER,
        revoked_at INTEGER
      );
      CREATE INDEX refresh_tokens_chain ON refresh_tokens (chain_id);
      CREATE INDEX refresh_tokens_expiry ON refresh_tokens (expires_at);`,
  },
  {
    version: 6,
    description: 'the request log: API requests per account and app, for the developer portal, packed by batch',
    // One row is one flush's requests of one app (entries: the records as the recorder packed them, oldest first;
    // src/storage/request-log-records.ts), so a flush of 500 requests is a few row inserts, not 500
    // (docs/decisions.md, Request log). Clustered by app (WITHOUT ROWID); the requests of a row are numbered
    // first_seq … first_seq + count - 1 (seq counted per app, seq order is time order). The time range and the
    // per-class counts let reads and pruning skip a row without unpacking it; entries is last, so that reading the
    // other columns leaves its overflow pages alone.
    sql: `
      CREATE TABLE request_log (
        tenant_id TEXT NOT NULL,
        client_id TEXT NOT NULL,
        first_seq INTEGER NOT NULL,
        count INTEGER NOT NULL,
        first_time INTEGER NOT NULL,
        last_time INTEGER NOT NULL,
        count_2xx INTEGER NOT NULL,
        count_3xx INTEGER NOT NULL,
        count_4xx INTEGER NOT NULL,
        count_5xx INTEGER NOT NULL,
        entries BLOB NOT NULL,
        PRIMARY KEY (tenant_id, client_id, first_seq)
      ) WITHOUT ROWID;`,
  },
  {
    version: 7,
    description: 'the usage kept beside the request log: requests per account, app, hour and status class',
    // One row per app and hour (hour: its start, ms since the epoch, UTC), added to at each flush, kept 31 days: the
    // usage page's 30 days outlive the log's REQUEST_LOG_DAYS and its 10,000 requests per app. hour leads its own
    // index for the pruning by age.
    sql: `
      CREATE TABLE request_usage (
        tenant_id TEXT NOT NULL,
        client_id TEXT NOT NULL,
        hour INTEGER NOT NULL,
        count_2xx INTEGER NOT NULL,
        count_3xx INTEGER NOT NULL,
        count_4xx INTEGER NOT NULL,
        count_5xx INTEGER NOT NULL,
        PRIMARY KEY (tenant_id, client_id, hour)
      ) WITHOUT ROWID;
      CREATE INDEX request_usage_age ON request_usage (hour);`,
  },
  {
    version: 8,
    description: 'the search index: prefix keys of each item tagged with their tier, read in creation order (SPEC §5)',
    // One row per key an item is found by (src/storage/search-keys.ts), clustered by (tenant, key, seq): a tier is
    // one range of it, in creation order, and the tenant is in the key, so no row is joined to learn its tenant.
    // Items stored before this migration get their keys when the storage starts (SqliteStorage.migrate).
    // The FTS5 tables of migration 1 go: the keys are the one search index.
    sql: SEARCH_INDEXED.map((table) => `${searchKeysTable(table)} DROP TABLE ${table}_fts;`).join(''),
  },
  {
    version: 9,
    description: 'the open adoption listing filtered by colour or location reads its page by index',
    // Like dogs_adoptable, across tenants: without these, a colour few adoptable dogs have walked them all.
    sql: `
      CREATE INDEX dogs_adoptable_fur_color ON dogs (ci(fur_color), seq) WHERE state = 'adoptable';
      CREATE INDEX dogs_adoptable_location ON dogs (ci(location), seq) WHERE state = 'adoptable';`,
  },
  {
    version: 10,
    description: 'the number of items per tenant and resource, kept by every create and delete',
    // storage/resource-counts.ts: one writer, so one slot (0) per tenant and resource; filled from the rows already
    // stored, in the migration's transaction.
    sql: `
      CREATE TABLE resource_counts (
        tenant_id TEXT NOT NULL,
        resource TEXT NOT NULL,
        slot INTEGER NOT NULL DEFAULT 0,
        n INTEGER NOT NULL,
        PRIMARY KEY (tenant_id, resource, slot)
      ) WITHOUT ROWID;
      ${COUNTED.map(
        (table) =>
          `INSERT INTO resource_counts (tenant_id, resource, n) SELECT tenant_id, '${table}', count(*) FROM ${table} GROUP BY tenant_id;`,
      ).join('\n      ')}`,
  },
  {
    version: 11,
    description: 'a sort by name or by creation time reads its page by index, in either direction',
    // ORDER BY ci(name), seq reads (tenant_id, ci(name), seq) forwards; DESC reads it backwards and puts each run of
    // equal names back in creation order (a few rows), instead of sorting the whole tenant for ten items.
    sql: COUNTED.map(sortIndexes).join(''),
  },
  {
    version: 12,
    description:
      "a tenant's write stamp: the writes of each count's row, which every create, update and delete adds to",
    // storage/search-cache.ts: the kept search answers of a tenant are served while the sum of its writes is the one
    // they were read under. A row written before counts as one write.
    sql: `ALTER TABLE resource_counts ADD COLUMN writes INTEGER NOT NULL DEFAULT 1;`,
  },
  {
    version: 13,
    description: 'the indexes of case-insensitive filters and sorts rebuilt for ci() as PostgreSQL lower-cases',
    // query/lower-case.ts: ci() was JavaScript's toLowerCase, whose final sigma and İ differ from PostgreSQL's lower();
    // an index holds ci() of each row as it was written, so each index on ci() is built again.
    sql: `${COUNTED.map((table) => `REINDEX ${table}_name_order;`).join(' ')}
      REINDEX dogs_fur_color; REINDEX dogs_location; REINDEX owners_location; REINDEX veterinarians_clinic;
      REINDEX veterinarians_location; REINDEX foods_brand; REINDEX dogs_adoptable_fur_color;
      REINDEX dogs_adoptable_location;`,
  },
];
