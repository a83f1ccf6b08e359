// The connection pool and the two ways SQL runs on it: one statement on any connection, or a transaction on one.
import pg from 'pg';
import type { PoolClient, QueryArrayConfig } from 'pg';

/** Runs SQL: rows come back as arrays of column values, in the order of the SELECT list. */
export interface Executor {
  rows<Row extends unknown[] = unknown[]>(sql: string, params: readonly unknown[]): Promise<Row[]>;
  /** Runs a statement and gives the number of rows it changed. */
  run(sql: string, params: readonly unknown[]): Promise<number>;
}

/** Enough connections for one node's concurrent requests; PostgreSQL's own limit is shared by every node. */
export const POOL_SIZE = 10;

/** Deadlock and serialization failures: PostgreSQL rolled the transaction back, and running it again is safe. */
const RETRYABLE = new Set(['40P01', '40001']);
const ATTEMPTS = 3;
/** How many SQL texts become named prepared statements: far more than the service's fixed texts. */
export const NAMED_STATEMENTS = 500;

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

  constructor(connectionString: string, private readonly namedStatements = NAMED_STATEMENTS) {
    this.pool = new pg.Pool({ connectionString, max: POOL_SIZE, connectionTimeoutMillis: 10_000, idleTimeoutMillis: 30_000 });
    // A connection that breaks while idle (a server restart) is dropped from the pool; the next
    // query opens a new one, and readiness reports the database meanwhile. Without a listener the
    // error would end the process.
    this.pool.on('error', () => {});
  }

  rows<Row extends unknown[] = unknown[]>(sql: string, params: readonly unknown[]): Promise<Row[]> {
    return this.send<Row>(this.pool, sql, params).then((result) => result.rows);
  }

  run(sql: string, params: readonly unknown[]): Promise<number> {
    return this.send(this.pool, sql, params).then((result) => result.rowCount ?? 0);
  }

  /** Runs `work` in one transaction (READ COMMITTED) and commits; a deadlock victim is run again. */
  async transaction<T>(work: (tx: Executor) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      const client = await this.pool.connect();
      let healthy = true;
      try {
        await client.query('BEGIN');
        const value = await work({
          rows: (sql, params) => this.send(client, sql, params).then((result) => result.rows as never),
          run: (sql, params) => this.send(client, sql, params).then((result) => result.rowCount ?? 0),
        });
        await client.query('COMMIT');
        return value;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {
          healthy = false;
        });
        if (attempt < ATTEMPTS && RETRYABLE.has(String((error as { code?: unknown }).code))) continue;
        throw error;
      } finally {
        // A connection that could not even roll back is closed rather than handed to the next request.
        client.release(!healthy);
      }
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  private send<Row extends unknown[]>(target: pg.Pool | PoolClient, sql: string, params: readonly unknown[]) {
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
