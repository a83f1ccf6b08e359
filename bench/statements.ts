// `npm run bench -- --postgres --statements`: what each statement the server sends costs PostgreSQL per request
// (pg_stat_statements, counted over the operation's measured slices), for "where the time goes" (issue 18).
import type { BenchPostgres } from './postgres.js';

/** One statement's share of an operation: per request answered, and per call. */
export interface StatementFigure {
  /** The statement's text, its whitespace folded. */
  readonly query: string;
  readonly callsPerRequest: number;
  readonly rowsPerCall: number;
  /** Execution time (µs) per request answered: the statement's total over the slices ÷ the requests. */
  readonly execMicrosPerRequest: number;
}

/** Forgets what was counted: the next figures are of what runs from now on. */
export async function resetStatements(server: BenchPostgres): Promise<void> {
  await server.rows('SELECT pg_stat_statements_reset()');
}

/** The statements run in database `database` since the reset, costliest first, per each of `requests`. */
export async function statementFigures(
  server: BenchPostgres,
  database: string,
  requests: number,
): Promise<StatementFigure[]> {
  const rows = await server.rows(
    `SELECT s.query, s.calls::float8 AS calls, s.rows::float8 AS rows, s.total_exec_time AS ms
       FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
      WHERE d.datname = $1 AND s.calls > 0
      ORDER BY s.total_exec_time DESC`,
    [database],
  );
  return rows.map((row) => ({
    query: String(row.query).replace(/\s+/g, ' ').trim(),
    callsPerRequest: Number(row.calls) / requests,
    rowsPerCall: Number(row.rows) / Number(row.calls),
    execMicrosPerRequest: (Number(row.ms) * 1000) / requests,
  }));
}
