// The bench's PostgreSQL from the bench's side: starts bench/postgres-server.ts pinned to the server's core, and makes,
// copies, renames and drops its databases.
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import postgres from 'postgres';
import { DATA_DIR, start, stop as stopProcess } from './harness.js';

export interface BenchPostgres {
  /** The URL of database `name`; `options` are PostgreSQL settings for its sessions (`synchronous_commit=off`). */
  url(name: string, options?: string): string;
  /** Runs statements on the maintenance database (CREATE/DROP/ALTER DATABASE cannot run in the one they act on). */
  admin(...statements: string[]): Promise<void>;
  exists(name: string): Promise<boolean>;
  /** Runs a query on the maintenance database and gives its rows. */
  rows(text: string, values?: unknown[]): Promise<postgres.Row[]>;
  /** The postmaster's process id: PostgreSQL's CPU is its own and its children's. */
  pid(): number;
  /** Whether pg_stat_statements is loaded (startPostgres's `statements`). */
  readonly statements: boolean;
  stop(): Promise<void>;
}

/** Where the bench's cluster and its seeds' ids and clients are kept, between runs. */
export const POSTGRES_DIR = path.join(DATA_DIR, 'postgres');

/**
 * Starts (initialising on first use) the cluster kept in POSTGRES_DIR, pinned to core 0 like the API server; with
 * `statements`, with pg_stat_statements loaded (it costs every statement a little, so only when asked).
 */
export async function startPostgres({ statements = false } = {}): Promise<BenchPostgres> {
  const dataDir = POSTGRES_DIR;
  console.log(`starting PostgreSQL (data kept in ${dataDir}) ...`);
  const urlFile = path.join(dataDir, `url-${process.pid}`);
  fs.mkdirSync(dataDir, { recursive: true });
  fs.rmSync(urlFile, { force: true });
  const child = start(
    'PostgreSQL',
    [
      'node',
      '--import',
      'tsx',
      'bench/postgres-server.ts',
      dataDir,
      urlFile,
      String(process.pid),
      ...(statements ? ['statements'] : []),
    ],
    {},
  );
  const stop = async (): Promise<void> => {
    fs.rmSync(urlFile, { force: true });
    await stopProcess(child);
  };
  let base: string | undefined;
  // initdb takes a few seconds; a start after a crash replays the WAL first.
  for (let waited = 0; waited < 120_000 && child.exitCode === null && base === undefined; waited += 100) {
    if (fs.existsSync(urlFile)) base = fs.readFileSync(urlFile, 'utf8');
    else await sleep(100);
  }
  if (base === undefined) {
    await stop();
    throw new Error(`the bench's PostgreSQL did not start (see above; its data is in ${dataDir})`);
  }
  const url = (name: string, options?: string): string =>
    `${base}/${name}${options ? `?options=${encodeURIComponent(`-c ${options}`)}` : ''}`;
  // A connection for each statement, ended after it; its notices (DROP DATABASE IF EXISTS of none) are not printed.
  const query = async (text: string, values: unknown[] = []): Promise<postgres.Row[]> => {
    const client = postgres(url('postgres'), { max: 1, onnotice: () => {} });
    try {
      return await client.unsafe(text, values as postgres.ParameterOrJSON<never>[]);
    } finally {
      await client.end();
    }
  };
  if (statements) await query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  const postmaster = Number(fs.readFileSync(path.join(dataDir, 'cluster', 'postmaster.pid'), 'utf8').split('\n')[0]);
  return {
    url,
    rows: query,
    pid: () => postmaster,
    statements,
    admin: async (...statements) => {
      for (const statement of statements) await query(statement);
    },
    exists: async (name) => (await query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).length > 0,
    stop,
  };
}
