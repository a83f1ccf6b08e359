// The connection pool and the two ways SQL runs on it: one statement on any connection, or a transaction on one.
import pg from 'pg';
import type { PoolClient, QueryArrayConfig } from 'pg';
import { defaultPgPoolSize } from '../../config.js';
import { StorageError, type StorageErrorKind } from '../storage-error.js';

/** Runs SQL: rows come back as arrays of column values, in the order of the SELECT list. */
export interface Executor {
  rows<Row extends unknown[] = unknown[]>(sql: string, params: readonly unknown[]): Promise<Row[]>;
  /** Runs a statement and gives the number of rows it changed. */
  run(sql: string, params: readonly unknown[]): Promise<number>;
}

/**
 * A transaction's executor. Its statements are pipelined on the connection (pg's pipeline mode): each is sent at
 * once, behind those still running, and `rows` or `run` wait only for their own answer. `queue` sends a statement
 * whose result nothing needs and does not wait at all; its failure fails the transaction at COMMIT. A transaction
 * therefore costs a round trip per point where the work needs an answer, not one per statement.
 */
export interface Transaction extends Executor {
  queue(sql: string, params: readonly unknown[]): void;
}

/** Deadlock and serialization failures: PostgreSQL rolled the transaction back, and running it again is safe. */
const RETRYABLE = new Set(['40P01', '40001']);
const ATTEMPTS = 3;
/** How many SQL texts become named prepared statements: far more than the service's fixed texts. */
const NAMED_STATEMENTS = 500;

/** SQLSTATEs (or their two-character class) that mean the database failed, not the statement. */
const SQLSTATE_FAILURES: Readonly<Record<string, StorageErrorKind>> = {
  '08': 'unavailable', // connection exception (08P01, a protocol violation, is a bug: excepted below)
  '57P01': 'unavailable',
  '57P02': 'unavailable',
  '57P03': 'unavailable', // shutting down, crashed, starting
  '53': 'unavailable', // insufficient resources: disk full, out of memory…
  '53300': 'busy', // too many connections
  '40001': 'busy',
  '40P01': 'busy', // serialization failure, deadlock: still failing after ATTEMPTS runs
  '55P03': 'busy', // lock not available
};

/** Socket errors of a connection that could not be made or broke. */
const NETWORK_FAILURES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/**
 * node-postgres's own connection failures carry no code, only these texts (pg/lib/client.js and
 * pg-pool): a server that closed the connection, or no connection within connectionTimeoutMillis.
 */
const DRIVER_FAILURES = ['Connection terminated', 'timeout exceeded when trying to connect'];

/** A failure of the database itself as a StorageError; any other error (a bug, an ApiError) as it was. */
export function postgresFailure(error: unknown, closed = false): unknown {
  if (error instanceof StorageError) return error;
  let kind: StorageErrorKind | undefined;
  const code = (error as { code?: unknown } | null)?.code;
  if (error instanceof pg.DatabaseError && typeof code === 'string') {
    kind = SQLSTATE_FAILURES[code] ?? (code === '08P01' ? undefined : SQLSTATE_FAILURES[code.slice(0, 2)]);
  } else if (typeof code === 'string' && NETWORK_FAILURES.has(code)) {
    kind = 'unavailable';
  } else if (closed || (error instanceof Error && DRIVER_FAILURES.some((text) => error.message.startsWith(text)))) {
    kind = 'unavailable';
  }
  return kind ? new StorageError(kind, { cause: error }) : error;
}

export class Connection implements Executor {
  readonly pool: pg.Pool;
  /** Statements run so far (transaction control not counted): lets tests check that reads are batched. */
  queryCount = 0;
  /**
   * The first distinct SQL texts become named prepared statements, parsed and planned once per
   * connection. Texts vary with the request (the number of filter values), so past the bound a
   * new text is sent unnamed, parsed each time, rather than kept on every connection for good.
   */
  private readonly names = new Map<string, string>();
  private readonly namedStatements: number;
  /** After close, every query fails with the pool's "Cannot use a pool after calling end": the database is gone. */
  private closed = false;
  /** Turns a rejected query's driver error into a StorageError (one function per connection, not one per query). */
  private readonly failed = (error: unknown): never => {
    throw postgresFailure(error, this.closed);
  };

  /**
   * `poolSize` is PG_POOL_SIZE: the pool opens connections as queries wait for one, up to that many; PostgreSQL's
   * own limit (max_connections) is shared by every node's pool.
   */
  constructor(connectionString: string, { poolSize = defaultPgPoolSize(), namedStatements = NAMED_STATEMENTS } = {}) {
    this.namedStatements = namedStatements;
    this.pool = new pg.Pool({
      connectionString,
      max: poolSize,
      connectionTimeoutMillis: 10_000,
      idleTimeoutMillis: 30_000,
      // A transaction's statements go out without waiting for the answers before them (Transaction).
      pipeline: true,
    });
    // A connection that breaks while idle (a server restart) is dropped from the pool; the next
    // query opens a new one, and readiness reports the database meanwhile. Without a listener the
    // error would end the process.
    this.pool.on('error', () => {});
  }

  rows<Row extends unknown[] = unknown[]>(sql: string, params: readonly unknown[]): Promise<Row[]> {
    return this.send<Row>(this.pool, sql, params).then((result) => result.rows, this.failed);
  }

  run(sql: string, params: readonly unknown[]): Promise<number> {
    return this.send(this.pool, sql, params).then((result) => result.rowCount ?? 0, this.failed);
  }

  /**
   * Runs `work` in one transaction (READ COMMITTED) and commits; a deadlock victim is run again. BEGIN and COMMIT are
   * pipelined with the work's statements, so a transaction whose statements need no answer is one round trip.
   */
  async transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      let client: PoolClient;
      try {
        client = await this.pool.connect();
      } catch (error) {
        throw postgresFailure(error, this.closed);
      }
      const tx = new Pipelined(this, client);
      let healthy = true;
      try {
        const value = await work(tx);
        await tx.commit();
        return value;
      } catch (thrown) {
        // The first statement that failed, not the "transaction is aborted" of those pipelined behind it.
        const error = tx.failure ?? thrown;
        await client.query('ROLLBACK').catch(() => {
          healthy = false;
        });
        if (attempt < ATTEMPTS && RETRYABLE.has(String((error as { code?: unknown }).code))) continue;
        throw postgresFailure(error, this.closed);
      } finally {
        // A connection that could not even roll back is closed rather than handed to the next request.
        client.release(!healthy);
      }
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.pool.end();
  }

  /** Sends one statement (named once its text is known) on the pool or on a transaction's connection. */
  send<Row extends unknown[]>(target: pg.Pool | PoolClient, sql: string, params: readonly unknown[]) {
    this.queryCount += 1;
    let name = this.names.get(sql);
    if (name === undefined && this.names.size < this.namedStatements) {
      name = `s${this.names.size + 1}`;
      this.names.set(sql, name);
    }
    const config: QueryArrayConfig = { name, text: sql, values: params as unknown[], rowMode: 'array' };
    return target.query<Row>(config);
  }

  /** How many SQL texts are named prepared statements (tests). */
  get namedCount(): number {
    return this.names.size;
  }
}

/** One transaction's statements on its connection, pipelined; the first failure is kept, in the order they ran. */
class Pipelined implements Transaction {
  failure: unknown;
  /** The statements sent with `queue`: each settles (a failure is kept, not thrown) before COMMIT answers. */
  private readonly queued: Array<Promise<unknown>> = [];
  private readonly failed = (error: unknown): never => {
    this.failure ??= error;
    throw error;
  };
  private readonly kept = (error: unknown): void => {
    this.failure ??= error;
  };

  constructor(
    private readonly connection: Connection,
    private readonly client: PoolClient,
  ) {
    this.queued.push(client.query('BEGIN').catch(this.kept));
  }

  rows<Row extends unknown[] = unknown[]>(sql: string, params: readonly unknown[]): Promise<Row[]> {
    return this.connection.send<Row>(this.client, sql, params).then((result) => result.rows, this.failed);
  }

  run(sql: string, params: readonly unknown[]): Promise<number> {
    return this.connection.send(this.client, sql, params).then((result) => result.rowCount ?? 0, this.failed);
  }

  queue(sql: string, params: readonly unknown[]): void {
    this.queued.push(this.connection.send(this.client, sql, params).catch(this.kept));
  }

  /**
   * COMMIT behind everything sent, and the first failure if any: PostgreSQL answers the COMMIT of a transaction a
   * statement failed in with ROLLBACK, not an error.
   */
  async commit(): Promise<void> {
    const commit = this.client.query('COMMIT').catch(this.kept);
    await Promise.all(this.queued);
    const result = await commit;
    if (this.failure !== undefined) throw this.failure;
    if (result?.command !== 'COMMIT') throw new Error(`COMMIT answered ${result?.command}`);
  }
}
