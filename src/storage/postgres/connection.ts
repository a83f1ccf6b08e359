// The connection pool and the two ways SQL runs on it: one statement on any connection, or a transaction on one.
import net from 'node:net';
import postgres from 'postgres';
import { defaultPgPoolSize } from '../../config.js';
import { StorageError, type StorageErrorKind } from '../storage-error.js';
import { Deadlines } from './deadlines.js';
import { GroupCommit, type Write } from './group-commit.js';
import { ReadBatcher } from './read-batch.js';

/** Runs SQL: rows come back as arrays of column values, in the order of the SELECT list. */
export interface Executor {
  rows<Row extends unknown[] = unknown[]>(sql: string, params: readonly unknown[]): Promise<Row[]>;
  /** Runs a statement and gives the number of rows it changed. */
  run(sql: string, params: readonly unknown[]): Promise<number>;
}

/**
 * A transaction's executor. Its statements are pipelined on its reserved connection (the driver sends each at
 * once, behind those still running), and `rows` or `run` wait only for their own answer. `queue` sends a statement
 * whose result nothing needs and does not wait at all; its failure fails the transaction at COMMIT. A transaction
 * therefore costs a round trip per point where the work needs an answer, not one per statement.
 */
export interface Transaction extends Executor {
  queue(sql: string, params: readonly unknown[]): void;
  /**
   * Runs `sql`, a COPY … FROM STDIN, with `data` as its input, and returns once the data is handed to the connection
   * (a round trip: the server must accept the COPY first). Like `queue`, its outcome is known at COMMIT.
   */
  copyIn(sql: string, data: Buffer): Promise<void>;
}

/** How long close waits for running queries before it destroys the connections. */
const CLOSE_WAIT_SECONDS = 2;
/** How long a connection may take to open (TCP, TLS, authentication) before the attempt fails. */
const CONNECT_SECONDS = 5;
/**
 * How long an operation may wait for PostgreSQL (a connection included) before its request fails with 9002, and how
 * long a connection may owe an answer in silence before it is closed (deadlines.ts).
 */
const ANSWER_DEADLINE_MS = 5000;
/**
 * The wait (s) before the next attempt to connect after `failures` failed ones in a row: from 0.1 s, doubling, at most
 * 1 s, with jitter. The driver's own backoff grows to 20 s and only falls back once a connection opens, so after an
 * outage of a few seconds a request waited for its connection up to 25 s, long after PostgreSQL was back.
 */
function reconnectDelay(failures: number): number {
  return Math.min(0.1 * 2 ** Math.max(0, failures - 1), 1) * (0.75 + Math.random() / 4);
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
  '57014': 'busy', // canceled: statement_timeout (a statement past its operation's deadline)
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
 * The driver's own connection failures (postgres/src/errors.js): the server closed the connection, the pool was ended
 * (close), no connection within connect_timeout, or a connection ended while a query waited on it.
 */
const DRIVER_FAILURES = new Set(['CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECT_TIMEOUT', 'CONNECTION_DESTROYED']);

/** A failure of the database itself as a StorageError; any other error (a bug, an ApiError) as it was. */
export function postgresFailure(error: unknown, closed = false): unknown {
  if (error instanceof StorageError) return error;
  let kind: StorageErrorKind | undefined;
  const code = (error as { code?: unknown } | null)?.code;
  if (error instanceof postgres.PostgresError && typeof code === 'string') {
    kind = SQLSTATE_FAILURES[code] ?? (code === '08P01' ? undefined : SQLSTATE_FAILURES[code.slice(0, 2)]);
  } else if (closed || isDriverFailure(error)) {
    kind = 'unavailable';
  }
  return kind ? new StorageError(kind, { cause: error }) : error;
}

/**
 * Whether a failed transaction's connection can still take its ROLLBACK: the server answered with an error and kept
 * the session. After any other failure the connection is gone, and the driver must not be given a statement for it
 * (postgres 3.4 would write to its closed socket); it reconnects that slot on its next use.
 */
export function connectionKept(error: unknown): boolean {
  if (!(error instanceof postgres.PostgresError)) return !isDriverFailure(error);
  return error.severity !== 'FATAL' && error.severity !== 'PANIC';
}

/**
 * Whether an error is a connection of the PostgreSQL driver failing (a socket error, or the driver's own CONNECTION_*
 * codes). postgres 3.4 may reject such an error where no one holds the promise (on a new connection, the query it sends
 * for the server's array types: docs/decisions.md, "The PostgreSQL driver"): the pool reconnects anyway, so
 * the process logs it instead of exiting (server.ts).
 */
export function isDriverFailure(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (NETWORK_FAILURES.has(code) || DRIVER_FAILURES.has(code));
}

/**
 * A timestamptz as the service writes and SQLite keeps it, RFC 3339 in UTC with milliseconds: from PostgreSQL's text
 * (`2026-11-26 04:21:44.8+00`, the fraction's trailing zeros dropped, none when whole) by string operations. Formatting
 * it in SQL instead (to_char) cost PostgreSQL 0.79 µs per value against 0.25 µs for its plain text, and a Date in Node
 * 0.48 µs against 0.06 µs for these slices.
 */
export function rfc3339(text: string): string {
  const end = Math.min(text.length - 3, 23);
  return `${text.slice(0, 10)}T${text.slice(11, end)}${FRACTION_PADDING[23 - end]}Z`;
}

/** What makes a fraction of milliseconds whole, by how many characters PostgreSQL's text falls short of `.SSS`. */
const FRACTION_PADDING: readonly string[] = ['', '0', '00', '', '.000'];

/** timestamptz (OID 1184) read by rfc3339; a parameter of it sent as given when text (no Date made and printed). */
const TIMESTAMPTZ: postgres.PostgresType<string> = {
  to: 1184,
  from: [1184],
  serialize: (value: unknown) => (typeof value === 'string' ? value : new Date(value as Date).toISOString()),
  parse: rfc3339,
};

/** The server's addresses as the driver parsed them from the URL (its `socket` option is given these). */
interface SocketTarget {
  readonly host: readonly string[];
  readonly port: readonly number[];
  readonly path?: string | false;
}

/**
 * The driver's sockets, connected with Nagle's algorithm off (postgres 3.4 leaves it on; PostgreSQL turns it off on its
 * side). A COPY's data and its CopyDone are two writes, and the second waited for the server's delayed ACK, 40 ms,
 * before PostgreSQL could end the COPY: the request log's flush by COPY took the p99 of GET one on the bench's rig from
 * 16 to 35 ms. The driver then writes its startup message, which the socket holds until it is connected; a connection
 * error reaches the driver as its own would, and its connect_timeout still runs. Several hosts are tried in turn.
 */
function noDelaySockets(deadlines: Deadlines): (target: SocketTarget) => net.Socket {
  let next = 0;
  return ({ host, port, path }) => {
    const socket = deadlines.watch(new net.Socket());
    socket.setNoDelay(true);
    if (path) return socket.connect(path);
    const at = next++ % host.length;
    return socket.connect(port[at] ?? port[0]!, host[at]!);
  };
}

/** Query options: a named (prepared) statement, or one parsed each time; never the simple protocol. */
const NAMED = { prepare: true, simple: false } as const;
const UNNAMED = { prepare: false, simple: false } as const;

type Parameters = postgres.ParameterOrJSON<never>[];

export class Connection implements Executor {
  /** The driver's pool: connections open as queries wait for one, up to PG_POOL_SIZE. */
  readonly sql: postgres.Sql;
  /** Statements run so far (transaction control not counted): lets tests check that reads are batched. */
  queryCount = 0;
  /**
   * The first distinct SQL texts become named prepared statements, parsed and planned once per connection (the driver
   * names them). Texts vary with the request (the number of filter values), so past the bound a new text is sent
   * unnamed, parsed each time, rather than kept on every connection for good.
   */
  private readonly named = new Set<string>();
  private readonly namedStatements: number;
  /** After close, every query fails with the driver's CONNECTION_ENDED: the database is gone. */
  private closed = false;
  /** Every operation answered or failed within ANSWER_DEADLINE_MS, and no socket left owing an answer in silence. */
  readonly deadlines: Deadlines;
  /** Turns a rejected query's driver error into a StorageError (one function per connection, not one per query). */
  private readonly failed = (error: unknown): never => {
    throw postgresFailure(error, this.closed);
  };
  /** Reads of one text made in the same event-loop turn, sent as one statement (read-batch.ts). */
  readonly batcher = new ReadBatcher(
    (sql, params) => this.rows(sql, params),
    (sql) => {
      const pending = this.sql.unsafe(sql, [], NAMED).describe();
      return this.deadlines.bound(pending.then((described) => described.types, this.failed));
    },
  );

  /** Writes that commit on their own, made in the same turn, committed in one transaction (group-commit.ts). */
  readonly commits = new GroupCommit({
    alone: (write) => this.answer(this, write),
    together: (writes) => this.transaction((tx) => Promise.all(writes.map((write) => this.answer(tx, write)))),
  });

  /**
   * `poolSize` is PG_POOL_SIZE: the pool opens connections as queries wait for one, up to that many; PostgreSQL's
   * own limit (max_connections) is shared by every node's pool.
   */
  constructor(
    connectionString: string,
    { poolSize = defaultPgPoolSize(), namedStatements = NAMED_STATEMENTS, deadlineMs = ANSWER_DEADLINE_MS } = {},
  ) {
    this.namedStatements = namedStatements;
    this.deadlines = new Deadlines(deadlineMs);
    const options = {
      max: poolSize,
      connect_timeout: CONNECT_SECONDS,
      backoff: reconnectDelay,
      idle_timeout: 30,
      // Migrations' IF NOT EXISTS notices are not the service's to print.
      onnotice: () => {},
      // As pg did: an undefined parameter is NULL.
      transform: { undefined: null },
      // Timestamps as the text rfc3339 reads: ISO dates, in UTC whatever the server's or the database's default.
      // Memoize caches an item looked up by seq in case the next key asks for it again; a search's keys never do, and
      // for the range of `q=rex` the cache (its every row a miss) was a fifth of the statement.
      // statement_timeout: a statement still running a second after its operation's deadline (deadlines.ts), whose
      // request has had its 9002, is cancelled by the server instead of running on for nobody (migrations lift it).
      connection: {
        TimeZone: 'UTC',
        DateStyle: 'ISO',
        enable_memoize: 'off',
        ...(deadlineMs > 0 ? { statement_timeout: deadlineMs + 1000 } : {}),
      },
      types: { timestamptz: TIMESTAMPTZ },
      // Not in the driver's types, though in its options (postgres/src/index.js).
      socket: noDelaySockets(this.deadlines),
    };
    this.sql = postgres(connectionString, options);
  }

  rows = <Row extends unknown[] = unknown[]>(sql: string, params: readonly unknown[]): Promise<Row[]> => {
    const pending = this.send(this.sql, sql, params);
    return this.deadlines.bound(pending.values().then(asRows<Row>, this.failed), cancelling(pending));
  };

  /**
   * A read on the pool that may leave with the other reads of its text made in this turn of the event loop, as one
   * statement (read-batch.ts): for statements that only read, outside a transaction.
   */
  readonly read = <Row extends unknown[] = unknown[]>(sql: string, params: readonly unknown[]): Promise<Row[]> =>
    this.batcher.read(sql, params) as Promise<Row[]>;

  run(sql: string, params: readonly unknown[]): Promise<number> {
    const pending = this.send(this.sql, sql, params);
    return this.deadlines.bound(pending.then(changed, this.failed), cancelling(pending));
  }

  /**
   * A statement that commits on its own (a create), committed with the others made in this turn (group-commit.ts):
   * its rows once they are durable.
   */
  commitRows<Row extends unknown[] = unknown[]>(sql: string, params: readonly unknown[]): Promise<Row[]> {
    return this.commits.write({ sql, params, answer: 'rows' }) as Promise<Row[]>;
  }

  /** As commitRows, for the number of rows the statement changed. */
  commitRun(sql: string, params: readonly unknown[]): Promise<number> {
    return this.commits.write({ sql, params, answer: 'count' }) as Promise<number>;
  }

  /**
   * As commitRun, for a write whose answer nobody needs: with the other calls of its text in the same group, it is
   * made by `batched` (group-commit.ts), one statement for all.
   */
  async commitBatchable(sql: string, params: readonly unknown[], batched: string): Promise<void> {
    await this.commits.write({ sql, params, answer: 'none', batched });
  }

  private answer(executor: Executor, write: Write): Promise<unknown> {
    return write.answer === 'rows' ? executor.rows(write.sql, write.params) : executor.run(write.sql, write.params);
  }

  /**
   * Runs `work` in one transaction (READ COMMITTED) and commits; a deadlock victim is run again. BEGIN and COMMIT are
   * pipelined with the work's statements, so a transaction whose statements need no answer is one round trip.
   */
  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    const run = { late: false };
    return this.deadlines.bound(this.runTransaction(work, run), () => (run.late = true));
  }

  /**
   * The transaction's attempts. Once it is late (its deadline passed: it has already failed), a connection the pool
   * hands over only now is given back at once; work already started goes on until it ends, since its connection can
   * only be released when its statements have answered.
   */
  private async runTransaction<T>(work: (tx: Transaction) => Promise<T>, run: { late: boolean }): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      let reserved: postgres.ReservedSql;
      try {
        // After close the driver would open a connection again for reserve (it refuses only queries).
        if (this.closed) throw Object.assign(new Error('the storage is closed'), { code: 'CONNECTION_ENDED' });
        reserved = await this.sql.reserve();
      } catch (error) {
        throw postgresFailure(error, this.closed);
      }
      if (run.late) {
        reserved.release();
        throw new StorageError('unavailable', { cause: new Error('a connection came after the deadline') });
      }
      const tx = new Pipelined(this, reserved);
      let kept = true;
      try {
        const value = await work(tx);
        await tx.commit();
        return value;
      } catch (thrown) {
        // The first statement that failed, not the "transaction is aborted" of those pipelined behind it.
        const error = tx.failure ?? thrown;
        kept = connectionKept(error) && (await reserved.unsafe('ROLLBACK').then(yes, no));
        if (attempt < ATTEMPTS && RETRYABLE.has(String((error as { code?: unknown }).code))) continue;
        throw postgresFailure(error, this.closed);
      } finally {
        // A connection that broke is not handed back: the driver has moved it to its closed ones already.
        if (kept) reserved.release();
      }
    }
  }

  /**
   * Ends the pool once its queries have answered. A connection that broke while a query ran never reports itself ended
   * to the driver (postgres 3.4), so after CLOSE_WAIT_SECONDS the rest are destroyed rather than waited for.
   */
  async close(): Promise<void> {
    this.closed = true;
    this.deadlines.stop();
    await this.sql.end({ timeout: CLOSE_WAIT_SECONDS });
  }

  /** Sends one statement (named while the bound allows) on the pool or on a transaction's connection. */
  send(target: postgres.Sql, sql: string, params: readonly unknown[]): postgres.PendingQuery<postgres.Row[]> {
    this.queryCount += 1;
    let options: typeof NAMED | typeof UNNAMED = NAMED;
    if (!this.named.has(sql)) {
      if (this.named.size < this.namedStatements) this.named.add(sql);
      else options = UNNAMED;
    }
    return target.unsafe(sql, params as Parameters, options);
  }

  /** How many SQL texts are named prepared statements (tests). */
  get namedCount(): number {
    return this.named.size;
  }
}

/**
 * What a late statement undoes (deadlines.ts): one still queued for a connection leaves the queue (the driver's cancel
 * of a query it has not sent, which has no `state` yet). One already sent is left to the socket's watch: a cancel
 * request names the server process, not the statement, and could cancel the next statement of that connection.
 */
function cancelling(pending: { cancel(): unknown }): () => void {
  return () => {
    if ((pending as { state?: unknown }).state === undefined) void Promise.resolve(pending.cancel()).catch(() => {});
  };
}

const yes = (): boolean => true;
const no = (): boolean => false;

function asRows<Row>(rows: unknown): Row[] {
  return rows as Row[];
}

function changed(result: postgres.RowList<postgres.Row[]>): number {
  return result.count ?? 0;
}

/**
 * One transaction's statements on its connection, pipelined; the first failure is kept, in the order they ran. Once a
 * failure says the connection is gone, later statements fail with it without reaching the driver: postgres 3.4 would
 * write them to the closed socket from a timer and end the process (porsager/postgres#1208). For the same reason a
 * transaction's work awaits nothing but its own statements, so a connection can only close while one is in flight.
 */
class Pipelined implements Transaction {
  failure: unknown;
  private gone = false;
  /** Whether a COPY was sent (copyIn): its failure shows only as COMMIT's ROLLBACK. */
  private copied = false;
  /** The statements sent with `queue`: each settles (a failure is kept, not thrown) before COMMIT answers. */
  private readonly queued: Array<Promise<unknown>> = [];
  private readonly failed = (error: unknown): never => {
    this.keep(error);
    throw error;
  };
  private readonly kept = (error: unknown): void => {
    this.keep(error);
  };

  constructor(
    private readonly connection: Connection,
    private readonly reserved: postgres.ReservedSql,
  ) {
    this.queued.push(reserved.unsafe('BEGIN').catch(this.kept));
  }

  rows<Row extends unknown[] = unknown[]>(sql: string, params: readonly unknown[]): Promise<Row[]> {
    if (this.gone) return Promise.reject(this.failure);
    return this.connection
      .send(this.reserved, sql, params)
      .values()
      .then(asRows<Row>, this.failed);
  }

  run(sql: string, params: readonly unknown[]): Promise<number> {
    if (this.gone) return Promise.reject(this.failure);
    return this.connection.send(this.reserved, sql, params).then(changed, this.failed);
  }

  queue(sql: string, params: readonly unknown[]): void {
    if (!this.gone) this.queued.push(this.connection.send(this.reserved, sql, params).catch(this.kept));
  }

  /**
   * The driver (postgres 3.4) hands a COPY its stream when the server accepts it and ends the COPY when the stream
   * ends, but a failure the server reports after that never reaches the stream or the query, whose promise has
   * already settled: awaiting the stream's finish would wait forever. The data is therefore only written and the
   * stream ended (its `final` runs within `end`, after which the connection takes statements again), and the COPY's
   * outcome is the transaction's: COMMIT answers ROLLBACK if it failed. A broken connection destroys the stream, and
   * that error is kept like a queued statement's.
   */
  async copyIn(sql: string, data: Buffer): Promise<void> {
    if (this.gone) throw this.failure;
    this.connection.queryCount += 1;
    this.copied = true;
    const stream = await this.reserved.unsafe(sql).writable().catch(this.failed);
    stream.on('error', this.kept);
    await new Promise<void>((resolve) => stream.write(data, () => resolve()));
    stream.end();
  }

  /**
   * COMMIT behind everything sent, and the first failure if any: PostgreSQL answers the COMMIT of a transaction a
   * statement failed in with ROLLBACK, not an error.
   */
  async commit(): Promise<void> {
    if (this.gone) throw this.failure;
    const commit = this.reserved.unsafe('COMMIT').catch(this.kept);
    await Promise.all(this.queued);
    const result = await commit;
    if (this.failure !== undefined) throw this.failure;
    if (result?.command !== 'COMMIT') {
      // Only a COPY's failure comes to this (copyIn): any other statement's is kept above.
      const cause = this.copied ? ': the COPY failed (the driver does not pass on its error)' : '';
      throw new Error(`COMMIT answered ${result?.command}${cause}`);
    }
  }

  private keep(error: unknown): void {
    this.failure ??= error;
    if (!connectionKept(error)) this.gone = true;
  }
}
