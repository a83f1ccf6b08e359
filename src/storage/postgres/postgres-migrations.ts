// The PostgreSQL schema, as numbered migrations applied in order on start (each exactly once, under a lock).
//
// The tables and columns are those of the SQLite schema. Every table leads with tenant_id and
// every key includes it, so that a tenant-sharded PostgreSQL (Citus, distributed by tenant_id)
// takes the schema as it is. `seq` is the creation order; `id` the opaque public id, unique per
// tenant. Text filters compare lower(column), so their indexes are on that expression; an enum
// (state) holds lower-case values and is compared as stored.

function resourceTable(table: string, columns: string): string {
  return `
    CREATE TABLE ${table} (
      tenant_id text NOT NULL,
      seq bigserial NOT NULL,
      id text NOT NULL,
      ${columns},
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, seq),
      UNIQUE (tenant_id, id)
    );`;
}

/** Migration 1's search index, columns of words under a GIN index, which migration 8 replaced with the search keys. */
function firstSearchIndex(table: string): string {
  return `
    ALTER TABLE ${table} ADD COLUMN search_words text NOT NULL DEFAULT '',
      ADD COLUMN search_vector tsvector NOT NULL DEFAULT ''::tsvector;
    CREATE INDEX ${table}_search ON ${table} USING gin (search_vector);`;
}

function linkTable(table: string, self: string, target: string): string {
  return `
    CREATE TABLE ${table} (
      tenant_id text NOT NULL,
      seq bigserial NOT NULL,
      ${self} text NOT NULL,
      ${target} text NOT NULL,
      PRIMARY KEY (tenant_id, seq),
      UNIQUE (tenant_id, ${self}, ${target})
    );
    CREATE INDEX ${table}_${target.replace(/_id$/, '')} ON ${table} (tenant_id, ${target}, seq);`;
}

/** An index for a case-insensitive filter: lower(column) as the filters compare it, then creation order. */
function filterIndex(table: string, column: string): string {
  return `CREATE INDEX ${table}_${column} ON ${table} (tenant_id, lower(${column}), seq);`;
}

/**
 * The search index of a resource (SPEC §5): one row per key an item is found by (src/storage/search-keys.ts), keyed
 * (tenant, key, seq), so that a tier is one range of it in creation order with the tenant inside.
 */
function searchKeysTable(table: string): string {
  return `
    CREATE TABLE ${table}_search_keys (
      tenant_id text NOT NULL,
      key text COLLATE "C" NOT NULL,
      seq bigint NOT NULL,
      PRIMARY KEY (tenant_id, key, seq)
    );`;
}

/** The resources migration 8 gives a search index; their stored items get their keys when it runs. */
export const SEARCH_INDEXED: readonly string[] = ['dogs', 'owners', 'veterinarians', 'foods'];

/** The resources whose items migration 10 counts: those of migration 1 (a later resource starts with no rows). */
const COUNTED = ['dogs', 'owners', 'veterinarians', 'foods'];

/** A timestamptz column as RFC 3339 text in UTC with milliseconds (migration 13). */
const RFC3339_TEXT = (column: string): string =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The indexes of `sort=name` and `sort=createdAt` (definition.ts SORT_INDEXED), read forwards or backwards. The sort
 * compares lower(name) by code point with nulls first (postgres-sql.ts orderBy), and an index serves an ORDER BY only
 * in its own collation and null order.
 */
function sortIndexes(table: string): string {
  return `
    CREATE INDEX ${table}_name_order ON ${table} (tenant_id, (lower(name) COLLATE "C") NULLS FIRST, seq);
    CREATE INDEX ${table}_created ON ${table} (tenant_id, created_at NULLS FIRST, seq);`;
}

export const migrations: ReadonlyArray<{ version: number; description: string; sql: string }> = [
  {
    version: 1,
    description: 'dogs, owners, veterinarians, foods and their links',
    sql: `
      ${resourceTable(
        'dogs',
        `
        name text NOT NULL,
        fur_color text,
        state text NOT NULL DEFAULT 'registered',
        location text,
        owner_id text,
        veterinarian_id text`,
      )}
      ${filterIndex('dogs', 'fur_color')}
      CREATE INDEX dogs_state ON dogs (tenant_id, state, seq);
      ${filterIndex('dogs', 'location')}
      CREATE INDEX dogs_owner ON dogs (tenant_id, owner_id, seq);
      CREATE INDEX dogs_veterinarian ON dogs (tenant_id, veterinarian_id, seq);
      -- The open adoption listing reads adoptable dogs of every tenant, in creation order.
      CREATE INDEX dogs_adoptable ON dogs (seq) WHERE state = 'adoptable';

      ${resourceTable(
        'owners',
        `
        name text NOT NULL,
        email text,
        location text`,
      )}
      ${filterIndex('owners', 'location')}

      ${resourceTable(
        'veterinarians',
        `
        name text NOT NULL,
        clinic text,
        location text`,
      )}
      ${filterIndex('veterinarians', 'clinic')}
      ${filterIndex('veterinarians', 'location')}

      ${resourceTable(
        'foods',
        `
        name text NOT NULL,
        brand text`,
      )}
      ${filterIndex('foods', 'brand')}

      ${linkTable('dog_foods', 'dog_id', 'food_id')}
      ${linkTable('owner_veterinarians', 'owner_id', 'veterinarian_id')}
      ${SEARCH_INDEXED.map(firstSearchIndex).join('')}`,
  },
  {
    version: 2,
    description: 'Idempotency-Key records of POST requests',
    sql: `
      CREATE TABLE idempotency_keys (
        tenant_id text NOT NULL,
        client_id text NOT NULL,
        key text NOT NULL,
        fingerprint text NOT NULL,
        answer text,
        created_at bigint NOT NULL,
        PRIMARY KEY (tenant_id, client_id, key)
      );
      CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);`,
  },
  {
    version: 3,
    description: 'accounts (tenants), OAuth clients and access tokens, secrets only as hashes',
    // Looked up by their own keys (an email, a client id, a token hash), not by tenant: under
    // Citus these are small reference tables, or distributed by their key.
    sql: `
      CREATE TABLE accounts (
        id text PRIMARY KEY,
        email text NOT NULL UNIQUE,
        password_hash text NOT NULL,
        created_at timestamptz NOT NULL
      );
      CREATE TABLE clients (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        name text NOT NULL,
        secret_hash text NOT NULL,
        scopes text NOT NULL,
        created_at timestamptz NOT NULL
      );
      CREATE INDEX clients_tenant ON clients (tenant_id);
      CREATE TABLE access_tokens (
        token_hash text PRIMARY KEY,
        tenant_id text NOT NULL,
        client_id text NOT NULL,
        scopes text NOT NULL,
        issued_at bigint NOT NULL,
        expires_at bigint NOT NULL,
        revoked_at bigint
      );
      CREATE INDEX access_tokens_expiry ON access_tokens (expires_at);`,
  },
  {
    version: 4,
    description: 'portal sessions: the id only as a hash, the account, the CSRF secret, created and expiry times',
    sql: `
      CREATE TABLE sessions (
        id_hash text PRIMARY KEY,
        account_id text NOT NULL,
        csrf_secret text NOT NULL,
        created_at bigint NOT NULL,
        expires_at bigint NOT NULL
      );
      CREATE INDEX sessions_account ON sessions (account_id);
      CREATE INDEX sessions_expiry ON sessions (expires_at);`,
  },
  {
    version: 5,
    description: 'the code flow: client types and redirect URIs, authorization codes, refresh tokens, token chains',
    // As in SQLite: a chain (one consent) ties a code, its refresh tokens and access tokens together for revocation.
    // Looked up by their own keys (a code or token hash, a chain id), like the other auth tables.
    sql: `
      ALTER TABLE clients ADD COLUMN type text NOT NULL DEFAULT 'confidential';
      ALTER TABLE clients ADD COLUMN redirect_uris text NOT NULL DEFAULT '[]';
      ALTER TABLE access_tokens ADD COLUMN chain_id text;
      CREATE INDEX access_tokens_chain ON access_tokens (chain_id);
      CREATE TABLE authorization_codes (
        code_hash text PRIMARY KEY,
        chain_id text NOT NULL,
        client_id text NOT NULL,
        account_id text NOT NULL,
        redirect_uri text NOT NULL,
        scopes text NOT NULL,
        code_challenge text NOT NULL,
        expires_at bigint NOT NULL,
        used_at bigint
      );
      CREATE INDEX authorization_codes_expiry ON authorization_codes (expires_at);
      CREATE TABLE refresh_tokens (
        token_hash text PRIMARY KEY,
        chain_id text NOT NULL,
        client_id text NOT NULL,
        account_id text NOT NULL,
        scopes text NOT NULL,
        expires_at bigint NOT NULL,
        retired_at bigint,
        revoked_at bigint
      );
      CREATE INDEX refresh_tokens_chain ON refresh_tokens (chain_id);
      CREATE INDEX refresh_tokens_expiry ON refresh_tokens (expires_at);`,
  },
  {
    version: 6,
    description: 'the request log: API requests per account and app, for the developer portal',
    // Tenant data like the resources (distributed by tenant_id under Citus). time is ms since the epoch;
    // duration_ms has sub-millisecond precision; status_class is status / 100. Unlike SQLite's, seq is one sequence
    // (several nodes write) and the indexes cost the database server, not the nodes: an app's range, the request id,
    // and time for pruning by age.
    sql: `
      CREATE TABLE request_log (
        tenant_id text NOT NULL,
        seq bigserial NOT NULL,
        client_id text NOT NULL,
        time bigint NOT NULL,
        method text NOT NULL,
        path text NOT NULL,
        version integer NOT NULL,
        status integer NOT NULL,
        status_class integer NOT NULL,
        code integer,
        message text,
        duration_ms double precision NOT NULL,
        request_id text NOT NULL,
        PRIMARY KEY (tenant_id, seq)
      );
      CREATE INDEX request_log_app ON request_log (tenant_id, client_id, seq);
      CREATE INDEX request_log_request ON request_log (tenant_id, request_id);
      CREATE INDEX request_log_age ON request_log (time);`,
  },
  {
    version: 7,
    description: 'the usage kept beside the request log: requests per account, app, hour and status class',
    // Tenant data (distributed by tenant_id under Citus). One row per app and hour (its start, ms since the epoch,
    // UTC), added to at each flush, kept 31 days, beyond the log's REQUEST_LOG_DAYS and its 10,000 per app.
    sql: `
      CREATE TABLE request_usage (
        tenant_id text NOT NULL,
        client_id text NOT NULL,
        hour bigint NOT NULL,
        count_2xx bigint NOT NULL,
        count_3xx bigint NOT NULL,
        count_4xx bigint NOT NULL,
        count_5xx bigint NOT NULL,
        PRIMARY KEY (tenant_id, client_id, hour)
      );
      CREATE INDEX request_usage_age ON request_usage (hour);`,
  },
  {
    version: 8,
    description: 'the search index: prefix keys of each item tagged with their tier, read in creation order (SPEC §5)',
    // One row per key an item is found by (src/storage/search-keys.ts); the primary key (tenant, key, seq) makes a
    // tier one index range in creation order, with the tenant inside it. COLLATE "C": keys compare as bytes, the
    // same as on SQLite. Items stored before this migration get their keys on start (PostgresStorage.migrate).
    // The tsvector columns of migration 1 go (with their GIN index): the keys are the one search index.
    sql: SEARCH_INDEXED.map(
      (table) => `${searchKeysTable(table)} ALTER TABLE ${table} DROP COLUMN search_words, DROP COLUMN search_vector;`,
    ).join(''),
  },
  {
    version: 9,
    description: 'the open adoption listing filtered by colour or location reads its page by index',
    // Like dogs_adoptable, across tenants: without these, a colour few adoptable dogs have walked them all
    // (test/pg/plans.test.ts).
    sql: `
      CREATE INDEX dogs_adoptable_fur_color ON dogs (lower(fur_color), seq) WHERE state = 'adoptable';
      CREATE INDEX dogs_adoptable_location ON dogs (lower(location), seq) WHERE state = 'adoptable';`,
  },
  {
    version: 10,
    description: 'the number of items per tenant and resource, kept by every create and delete',
    // Tenant data (distributed by tenant_id under Citus). storage/resource-counts.ts: a write adds to the slot of its
    // server process (the default), so that concurrent writes of one tenant on other connections do not wait for
    // each other's commit on one row; a count is the sum of at most 16 rows. Filled from the rows already stored,
    // in the migration's transaction (slot 0).
    sql: `
      CREATE TABLE resource_counts (
        tenant_id text NOT NULL,
        resource text NOT NULL,
        slot integer NOT NULL DEFAULT (pg_backend_pid() % 16),
        n bigint NOT NULL,
        PRIMARY KEY (tenant_id, resource, slot)
      );
      ${COUNTED.map(
        (table) =>
          `INSERT INTO resource_counts (tenant_id, resource, slot, n) SELECT tenant_id, '${table}', 0, count(*) FROM ${table} GROUP BY tenant_id;`,
      ).join('\n      ')}`,
  },
  {
    version: 11,
    description: 'a sort by name or by creation time reads its page by index, in either direction',
    // DESC reads an index backwards (nulls last); an Incremental Sort puts each run of equal names back in creation
    // order, a few rows, instead of sorting the whole tenant for ten items.
    sql: COUNTED.map(sortIndexes).join(''),
  },
  {
    version: 12,
    description: 'the request log as one row per flush and app, its requests packed as on SQLite',
    // A flush of 2,000 requests was 2,000 rows and 8,000 index entries, written in one burst on the database server
    // (docs/decisions.md, Performance); it is now a row per app. A row's seqs are a block of
    // SEQS_PER_ROW from the sequence (postgres-request-log.ts), so that several nodes never wait for each other. The
    // bytes are stored uncompressed (EXTERNAL): records are short texts compression gains little on. The rows kept so
    // far are packed into the new table on start (migrate.ts) and the old table dropped.
    sql: `
      ALTER TABLE request_log RENAME TO request_log_unpacked;
      ALTER TABLE request_log_unpacked RENAME CONSTRAINT request_log_pkey TO request_log_unpacked_pkey;
      DROP INDEX request_log_request;
      DROP INDEX request_log_age;
      CREATE SEQUENCE request_log_rows;
      CREATE TABLE request_log (
        tenant_id text NOT NULL,
        client_id text NOT NULL,
        first_seq bigint NOT NULL,
        count integer NOT NULL,
        first_time bigint NOT NULL,
        last_time bigint NOT NULL,
        count_2xx integer NOT NULL,
        count_3xx integer NOT NULL,
        count_4xx integer NOT NULL,
        count_5xx integer NOT NULL,
        entries bytea NOT NULL,
        PRIMARY KEY (tenant_id, client_id, first_seq)
      );
      ALTER TABLE request_log ALTER COLUMN entries SET STORAGE EXTERNAL;
      CREATE INDEX request_log_age ON request_log (last_time);`,
  },
  {
    version: 13,
    description: "an item's timestamps kept as the service writes them, RFC 3339 text in UTC with milliseconds",
    // As SQLite keeps them. timestamptz's output was the dearer part of a row's (a page's PostgreSQL time fell
    // 15%), and Node made each value RFC 3339 again. The text is of one width, so its order under
    // "C" is the time's (sort=createdAt, its index rebuilt by the ALTER); finer digits are cut as rfc3339 cut them.
    sql: COUNTED.map(
      (table) => `
      ALTER TABLE ${table}
        ALTER COLUMN created_at TYPE text COLLATE "C" USING ${RFC3339_TEXT('created_at')},
        ALTER COLUMN updated_at TYPE text COLLATE "C" USING ${RFC3339_TEXT('updated_at')};`,
    ).join(''),
  },
  {
    version: 14,
    description:
      "a tenant's write stamp: the writes of each count's slot, which every create, update and delete adds to",
    // storage/search-cache.ts: a node serves a kept search answer while the sum of its tenant's writes is the one it
    // was read under. A row written before counts as one write; a slot's writes only grow.
    sql: `ALTER TABLE resource_counts ADD COLUMN writes bigint NOT NULL DEFAULT 1;`,
  },
  {
    version: 15,
    description: "a request-log row's first seq by default a new block of the sequence, for rows written by COPY",
    // postgres-request-log.ts: a flush's rows go in by COPY, which cannot compute a column, so the block is the
    // column's default (as PACKED_INSERT computes it). SEQS_PER_ROW is 65536.
    sql: `ALTER TABLE request_log ALTER COLUMN first_seq SET DEFAULT nextval('request_log_rows') * 65536;`,
  },
  {
    version: 16,
    description: "a request-log row's oldest records hidden by pruning instead of the row rewritten",
    // postgres-request-log.ts (HIDE, PRUNE_APP): pruning by count removed the start of the row across its cut by reading
    // the row, up to 200 KB, and writing the rest back; it now counts them out in place.
    sql: `ALTER TABLE request_log ADD COLUMN hidden integer NOT NULL DEFAULT 0;`,
  },
];
