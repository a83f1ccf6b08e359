// What `npm run bench` and `npm run bench:compare` share: servers pinned to a core, the seeded data, wrk runs, /proc readings.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Seeded } from './seed.js';

/** The size measured without --scale. */
export const DOGS = Number(process.env.BENCH_DOGS ?? 100_000);
export const DATA_DIR = path.resolve(process.env.BENCH_DATA_DIR ?? '.bench-data');

export interface Operation {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  /** Content-Type of the body (JSON unless said otherwise). */
  type?: string;
  /** Request headers; the API operations carry the bearer token. */
  headers: Record<string, string>;
  target?: number;
  /**
   * What the server is measured against: the bare baseline by default; `log off`, the same server with REQUEST_LOG=off
   * (the ratio is then the request log's cost, SPEC §12).
   */
  against?: 'log off';
  /**
   * The server measured: the service as `npm start` runs it by default; `search cache off`, the same server with
   * SEARCH_CACHE=off, whose every search reads the index (a text searched for the first time, or after a write).
   */
  server?: 'search cache off';
}

/** The environment of each variant of the server an operation names (`against`, `server`). */
export const VARIANT_ENV = {
  'log off': { REQUEST_LOG: 'off' },
  'search cache off': { SEARCH_CACHE: 'off' },
} as const satisfies Record<NonNullable<Operation['against'] | Operation['server']>, Record<string, string>>;

/**
 * The operations an index serves (GET one, a page, a filter, a search, a nested read): across the sizes of --scale
 * each may lose at most a third of its throughput (issue 16).
 */
export const INDEXED = new Set([
  'GET one (authorized)',
  'GET list (limit 10)',
  'list filtered by color',
  'list with fields',
  'search q',
  'search q, two words',
  'autocomplete q=b',
  'autocomplete q=be',
  'autocomplete q=bel',
  'owner with fields=name,dogs(name)',
  'global search',
  'search q, nothing kept',
  'search q, two words, nothing kept',
  'global search, nothing kept',
  'a page (limit=10&offset=20)',
  'filter (color=brown&limit=10)',
]);

export interface WrkResult {
  requests: number;
  seconds: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  failures: number;
  /** The latency distribution (ms) as its quantiles at QUANTILE_STEPS even steps, so that runs combine. */
  quantiles: readonly number[];
}

/** Steps of the quantiles a wrk run reports: 0.1% each. */
const QUANTILE_STEPS = 1000;

/**
 * How long (ms) each connection's first request waits, so that the server has accepted every connection before any is
 * loaded. Node 20's libuv accepts one connection per turn of the event loop, and a turn serves every request already
 * read, so without the wait the 50th of 50 new connections is accepted only after 49 ever longer turns: on a page of
 * SQLite its first request waited ~90 ms in the kernel's accept queue, and a slice's p99 was that ramp, not the
 * latency at 50 connections (docs/performance.md). The wait is not counted: wrk times a request from its sending, and
 * the rate is over the time after the wait (`loaded`).
 */
export const OPEN_MS = 100;

/**
 * Every wrk script's end: the first request of each of `connections` connections waits OPEN_MS (wrk asks `delay` before
 * each request; later ones go at once), and at the end the run prints the time it loaded the server (µs) and its
 * latencies (µs) at the middle of each step of QUANTILE_STEPS. wrk's own percentiles cannot be combined; these can
 * (combine), so that a p99 is that of every request measured.
 */
export function wrkScript(connections: number): string {
  return `local opened = 0
delay = function()
  if opened < ${connections} then
    opened = opened + 1
    return ${OPEN_MS}
  end
  return 0
end
done = function(summary, latency, requests)
  local q = {}
  for i = 1, ${QUANTILE_STEPS} do q[i] = latency:percentile((i - 0.5) * 100 / ${QUANTILE_STEPS}) end
  io.write("loaded " .. (summary.duration - ${OPEN_MS * 1000}) .. "\\n")
  io.write("quantiles " .. table.concat(q, ",") .. "\\n")
end
`;
}

/** The operations measured, with their targets (ratio to the baseline) where the issue sets one. */
export function benchOperations(
  { dogId, ownerId }: Pick<Seeded, 'dogId' | 'ownerId'>,
  { bearer, basic }: { bearer: string; basic: string },
): Operation[] {
  const auth = { authorization: bearer };
  return [
    { name: 'GET one (authorized)', method: 'GET', path: `/v1/dogs/${dogId}`, headers: auth, target: 0.5 },
    {
      name: 'GET one, request log on / off',
      method: 'GET',
      path: `/v1/dogs/${dogId}`,
      headers: auth,
      target: 0.95,
      against: 'log off',
    },
    { name: 'GET list (limit 10)', method: 'GET', path: '/v1/dogs?limit=10', headers: auth, target: 0.35 },
    { name: 'list filtered by color', method: 'GET', path: '/v1/dogs?color=brown', headers: auth },
    { name: 'list with fields', method: 'GET', path: '/v1/dogs?fields=name,furColor', headers: auth },
    { name: 'search q', method: 'GET', path: '/v1/dogs?q=rex', headers: auth, target: 0.2 },
    { name: 'search q, two words', method: 'GET', path: '/v1/dogs?q=rex%20oslo', headers: auth, target: 0.1 },
    // Name autocomplete: what a search box sends while a person types (issue 16).
    { name: 'autocomplete q=b', method: 'GET', path: '/v1/dogs?q=b&fields=id,name', headers: auth },
    { name: 'autocomplete q=be', method: 'GET', path: '/v1/dogs?q=be&fields=id,name', headers: auth },
    { name: 'autocomplete q=bel', method: 'GET', path: '/v1/dogs?q=bel&fields=id,name', headers: auth },
    {
      name: 'owner with fields=name,dogs(name)',
      method: 'GET',
      path: `/v1/owners/${ownerId}?fields=name,dogs(name)`,
      headers: auth,
      target: 0.3,
    },
    { name: 'global search', method: 'GET', path: '/v1/search?q=rex', headers: auth, target: 0.2 },
    // The same searches with no answer kept (storage/search-cache.ts): what a text costs the first time it is searched.
    {
      name: 'search q, nothing kept',
      method: 'GET',
      path: '/v1/dogs?q=rex',
      headers: auth,
      server: 'search cache off',
    },
    {
      name: 'search q, two words, nothing kept',
      method: 'GET',
      path: '/v1/dogs?q=rex%20oslo',
      headers: auth,
      server: 'search cache off',
    },
    {
      name: 'global search, nothing kept',
      method: 'GET',
      path: '/v1/search?q=rex',
      headers: auth,
      server: 'search cache off',
    },
    {
      name: 'POST',
      method: 'POST',
      path: '/v1/dogs',
      body: '{"name":"Bench","furColor":"brown","location":"Oslo"}',
      headers: auth,
      target: 0.25,
    },
    {
      name: 'token endpoint',
      method: 'POST',
      path: '/oauth2/token',
      body: 'grant_type=client_credentials',
      type: 'application/x-www-form-urlencoded',
      headers: { authorization: basic },
    },
    { name: 'GET /adoptions (open)', method: 'GET', path: '/v1/adoptions', headers: {} },
    // Issue 18's table: a page further in, a filter with a page size, and a count.
    { name: 'a page (limit=10&offset=20)', method: 'GET', path: '/v2/dogs?limit=10&offset=20', headers: auth },
    { name: 'filter (color=brown&limit=10)', method: 'GET', path: '/v2/dogs?color=brown&limit=10', headers: auth },
    { name: 'count', method: 'GET', path: '/v2/dogs/count', headers: auth },
  ];
}

/**
 * The environment of a server under load on the data `storage` names (DATA_DIR, and DATABASE_URL for PostgreSQL):
 * quiet logs, rate limits so high they never trip (so their cost is measured).
 */
export function serverEnv(port: number, storage: Record<string, string>): Record<string, string> {
  return {
    ...storage,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    RATE_LIMIT_PER_MINUTE: '100000000',
    RATE_LIMIT_OPEN_PER_MINUTE: '100000000',
  };
}

/** The command `npm start` runs after building (with its Node options), for `entry` (default dist/server.js), as a package.json says (default this one). */
export function serverCommand(
  entry = 'dist/server.js',
  packageJson = fs.readFileSync('package.json', 'utf8'),
): string[] {
  const pkg = JSON.parse(packageJson) as { scripts: { start: string } };
  const command = pkg.scripts.start.split('&&').pop()!.trim().split(/\s+/);
  if (command[0] !== 'node' || command.at(-1) !== 'dist/server.js')
    throw new Error(`npm start should end in node … dist/server.js, not: ${pkg.scripts.start}`);
  return [...command.slice(0, -1), entry];
}

/** The processes started and not yet exited: an interrupted bench stops them (stopAll). */
const running = new Set<ChildProcess>();

/** Starts a process pinned to core 0, where the servers run (wrk runs on core 1). */
export function start(name: string, command: string[], env: Record<string, string>): ChildProcess {
  const child = spawn('taskset', ['-c', '0', ...command], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  running.add(child);
  child.on('exit', (code, signal) => {
    running.delete(child);
    if (code !== 0 && signal !== 'SIGTERM') console.error(`${name} exited early (${code ?? signal})`);
  });
  return child;
}

/** Sends SIGTERM and waits until the process has exited (its port and its database are free again). */
export function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Stops every process `start` started that is still running (in parallel). */
export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((child) => stop(child)));
}

/** Waits until `url` answers 2xx (or anything at all, with `anyAnswer`: the baseline knows only the recorded requests). */
export async function waitFor(url: string, { anyAnswer = false, seconds = 10 } = {}): Promise<void> {
  for (let attempt = 0; attempt < seconds * 10; attempt += 1) {
    try {
      const response = await fetch(url);
      if (response.ok || anyAnswer) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`${url} did not answer within ${seconds} s`);
}

/** Gets a token for the seeded account's client, as any client does; the authorized operations send it. */
export async function credentials(
  origin: string,
  clientId: string,
  clientSecret: string,
): Promise<{ bearer: string; basic: string }> {
  const basic = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
  const token = await fetch(`${origin}/oauth2/token`, {
    method: 'POST',
    headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  });
  return { bearer: `Bearer ${((await token.json()) as { access_token: string }).access_token}`, basic };
}

/** One wrk run (one thread, on core 1) of `seconds` (whole seconds: wrk takes no fractions). */
export async function wrk(
  port: number,
  operation: Operation,
  seconds: number,
  connections: number,
): Promise<WrkResult> {
  const args = ['-c', '1', 'wrk', '-t1', `-c${connections}`, `-d${seconds}s`];
  const script = path.join(os.tmpdir(), `bench-${process.pid}-${port}.lua`);
  const request = operation.body
    ? `wrk.method = "POST"\nwrk.body = '${operation.body}'\nwrk.headers["Content-Type"] = "${operation.type ?? 'application/json'}"\n`
    : '';
  fs.writeFileSync(script, request + wrkScript(connections));
  args.push('-s', script);
  for (const [name, value] of Object.entries(operation.headers)) args.push('-H', `${name}: ${value}`);
  args.push(`http://127.0.0.1:${port}${operation.path}`);
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn('taskset', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('close', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`wrk failed: ${stderr}`))));
  });
  fs.rmSync(script, { force: true });
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out)?.slice(1) ?? [];
  const failures =
    Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0) +
    socketErrors.reduce((sum, count) => sum + Number(count), 0);
  const requests = Number(/(\d+) requests in/.exec(out)?.[1]);
  const loaded = Number(/^loaded ([\d.e+]+)$/m.exec(out)?.[1]) / 1e6;
  const reported = /^quantiles (.+)$/m.exec(out)?.[1];
  // No answer at all: no latency to report.
  const quantiles =
    requests > 0 && reported !== undefined
      ? reported.split(',').map((microseconds) => Number(microseconds) / 1000)
      : [];
  return {
    requests,
    seconds: loaded,
    requestsPerSecond: requests / loaded,
    ...percentiles(quantiles),
    failures,
    quantiles,
  };
}

/**
 * Waits until the process has used no CPU for 100 ms: what a slow operation left queued is done. Up to 2 minutes: a
 * search of a million dogs left 50 requests of a second or more each, which otherwise ran on into the next operations.
 */
export async function idle(pid: number): Promise<void> {
  let before = cpuTicks(pid);
  for (let attempt = 0; attempt < 1200; attempt += 1) {
    await sleep(100);
    const now = cpuTicks(pid);
    if (now === before) return;
    before = now;
  }
}

/** The fields of /proc/<pid>/stat after the command's name: [0] is the state, [1] the parent, [11] utime, [12] stime. */
function statFields(pid: number): string[] {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
}

function cpuTicks(pid: number): number {
  const fields = statFields(pid);
  return Number(fields[11]) + Number(fields[12]);
}

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux, whatever the kernel's own rate). */
const TICKS_PER_SECOND = 100;

/**
 * CPU time (µs, at /proc's 10 ms resolution) used by a process and, with `children`, by all its children: those
 * running and those it has waited for (PostgreSQL's postmaster and the backends, workers and writers it forks).
 */
export function cpuMicros(pid: number, { children = false } = {}): number {
  const own = statFields(pid);
  let ticks = Number(own[11]) + Number(own[12]);
  if (children) {
    ticks += Number(own[13]) + Number(own[14]);
    for (const entry of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const fields = statFields(Number(entry));
        if (Number(fields[1]) === pid) ticks += Number(fields[11]) + Number(fields[12]);
      } catch {
        // exited while the folder was read: the parent has it now, or will
      }
    }
  }
  return (ticks * 1e6) / TICKS_PER_SECOND;
}

export function peakRssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1]) / 1024;
}

/** Runs as one: all their requests over all their time, and p50 and p99 of all their requests together. */
export function combine(runs: readonly WrkResult[]): WrkResult {
  const requests = runs.reduce((sum, run) => sum + run.requests, 0);
  const seconds = runs.reduce((sum, run) => sum + run.seconds, 0);
  const quantiles = pooledQuantiles(runs);
  return {
    requests,
    seconds,
    requestsPerSecond: requests / seconds,
    ...percentiles(quantiles),
    failures: runs.reduce((sum, run) => sum + run.failures, 0),
    quantiles,
  };
}

/**
 * The quantiles of runs' requests together: each run's quantile points stand for equal shares of its requests, so the
 * pooled points, weighted by those shares and read in order, are the distribution of every request.
 */
function pooledQuantiles(runs: ReadonlyArray<Pick<WrkResult, 'requests' | 'quantiles'>>): number[] {
  const points = runs
    .flatMap((run) => run.quantiles.map((value) => ({ value, weight: run.requests / run.quantiles.length })))
    .sort((a, b) => a.value - b.value);
  const total = points.reduce((sum, point) => sum + point.weight, 0);
  const pooled: number[] = [];
  let below = 0;
  let at = 0;
  for (let step = 0; step < QUANTILE_STEPS && points.length > 0; step += 1) {
    const rank = ((step + 0.5) / QUANTILE_STEPS) * total;
    while (at < points.length - 1 && below + points[at]!.weight < rank) below += points[at++]!.weight;
    pooled.push(points[at]!.value);
  }
  return pooled;
}

/** p50 and p99 (ms) read from quantiles at QUANTILE_STEPS steps (a run's, or pooled); NaN when none was answered. */
function percentiles(quantiles: readonly number[]): { p50: number; p99: number } {
  if (quantiles.length === 0) return { p50: NaN, p99: NaN };
  return { p50: quantiles[QUANTILE_STEPS * 0.5]!, p99: quantiles[QUANTILE_STEPS * 0.99]! };
}

export function fmt(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

export function table(header: string[], rows: string[][]): void {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]): string =>
    `| ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`);
  for (const row of rows) console.log(line(row));
}
