// npm run bench: the real server against a bare node:http baseline answering the same bytes, both loaded by wrk.
//
// The server and the baseline run pinned to core 0, wrk to core 1; each operation is loaded for
// BENCH_SECONDS (default 10) with 50 connections. Figures are printed as ratios to the baseline
// measured in the same run, so they compare across machines.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { seed } from './seed.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/**
 * The server and the baseline are loaded in alternating slices (server, baseline, server, …), so
 * that a slow spell of this shared machine falls on both alike instead of on one of them.
 */
const SLICES = 5;
/** wrk takes whole seconds. */
const SLICE_SECONDS = Math.max(1, Math.round(SECONDS / SLICES));
const WARMUP_SECONDS = 2;
const CONNECTIONS = 50;
const DOGS = Number(process.env.BENCH_DOGS ?? 100_000);
const SERVER_PORT = 18080;
const BASELINE_PORT = 18081;
const DATA_DIR = path.resolve(process.env.BENCH_DATA_DIR ?? '.bench-data');
/** The seeded database, kept between runs; each run works on a fresh copy, so POSTs never pile up. */
const SEED_DIR = path.join(DATA_DIR, 'seed');
const RUN_DIR = path.join(DATA_DIR, 'run');

interface Operation {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  /** Content-Type of the body (JSON unless said otherwise). */
  type?: string;
  /** Request headers; the API operations carry the bearer token. */
  headers: Record<string, string>;
  target?: number;
}

interface WrkResult {
  requests: number;
  seconds: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  failures: number;
}

async function main(): Promise<void> {
  console.log(`seeding ${DOGS} dogs and ${DOGS / 5} owners in ${SEED_DIR} (kept between runs) ...`);
  const { dogId, ownerId, clientId, clientSecret } = await seed(SEED_DIR, DOGS);
  fs.rmSync(RUN_DIR, { recursive: true, force: true });
  fs.mkdirSync(RUN_DIR, { recursive: true });
  for (const file of fs.readdirSync(SEED_DIR).filter((name) => name.startsWith('registry.sqlite'))) {
    fs.copyFileSync(path.join(SEED_DIR, file), path.join(RUN_DIR, file));
  }

  const server = start('server', serverCommand(), {
    PORT: String(SERVER_PORT), HOST: '127.0.0.1', DATA_DIR: RUN_DIR, LOG_LEVEL: 'warn', PUBLIC_URL: `http://127.0.0.1:${SERVER_PORT}`,
    RATE_LIMIT_PER_MINUTE: '100000000', RATE_LIMIT_OPEN_PER_MINUTE: '100000000',
  });
  let baseline: ChildProcess | undefined;
  try {
    await waitFor(`http://127.0.0.1:${SERVER_PORT}/healthz`);
    const { bearer, basic } = await credentials(`http://127.0.0.1:${SERVER_PORT}`, clientId, clientSecret);
    const auth = { authorization: bearer };
    const operations: Operation[] = [
      { name: 'GET one (authorized)', method: 'GET', path: `/v1/dogs/${dogId}`, headers: auth, target: 0.5 },
      { name: 'GET list (limit 10)', method: 'GET', path: '/v1/dogs?limit=10', headers: auth, target: 0.35 },
      { name: 'list filtered by color', method: 'GET', path: '/v1/dogs?color=brown', headers: auth },
      { name: 'list with fields', method: 'GET', path: '/v1/dogs?fields=name,furColor', headers: auth },
      { name: 'search q', method: 'GET', path: '/v1/dogs?q=rex', headers: auth },
      { name: 'owner with fields=name,dogs(name)', method: 'GET', path: `/v1/owners/${ownerId}?fields=name,dogs(name)`, headers: auth, target: 0.3 },
      { name: 'global search', method: 'GET', path: '/v1/search?q=rex', headers: auth },
      { name: 'POST', method: 'POST', path: '/v1/dogs', body: '{"name":"Bench","furColor":"brown","location":"Oslo"}', headers: auth, target: 0.25 },
      { name: 'token endpoint', method: 'POST', path: '/oauth2/token', body: 'grant_type=client_credentials', type: 'application/x-www-form-urlencoded', headers: { authorization: basic } },
      { name: 'GET /adoptions (open)', method: 'GET', path: '/v1/adoptions', headers: {} },
    ];
    const answersFile = path.join(os.tmpdir(), `bench-answers-${process.pid}.json`);
    fs.writeFileSync(answersFile, JSON.stringify(await recordAnswers(operations)));
    baseline = start('baseline', ['node', 'bench/baseline-server.mjs', answersFile, String(BASELINE_PORT)], {});
    await waitFor(`http://127.0.0.1:${BASELINE_PORT}/v1/dogs?limit=10`);

    const rows: string[][] = [];
    for (const operation of operations) {
      // A short untimed run first, so both are measured after the JIT has warmed up.
      wrk(SERVER_PORT, operation, WARMUP_SECONDS);
      wrk(BASELINE_PORT, operation, WARMUP_SECONDS);
      const serverSlices: WrkResult[] = [];
      const baselineSlices: WrkResult[] = [];
      for (let slice = 0; slice < SLICES; slice += 1) {
        serverSlices.push(wrk(SERVER_PORT, operation, SLICE_SECONDS));
        // A slow operation leaves requests queued when wrk stops: let the server finish them
        // before the baseline's slice, which would otherwise share the core with them.
        await idle(server.pid!);
        baselineSlices.push(wrk(BASELINE_PORT, operation, SLICE_SECONDS));
      }
      const measured = combine(serverSlices);
      const base = combine(baselineSlices);
      const ratio = measured.requestsPerSecond / base.requestsPerSecond;
      rows.push([
        operation.name, fmt(measured.requestsPerSecond), `${measured.p50.toFixed(2)} / ${measured.p99.toFixed(2)}`,
        fmt(base.requestsPerSecond), ratio.toFixed(2), operation.target ? `≥ ${operation.target} ${ratio >= operation.target ? 'met' : 'MISSED'}` : 'report',
        String(measured.failures), peakRssMiB(server.pid!).toFixed(0),
      ]);
      console.log(`  ${operation.name}: ${fmt(measured.requestsPerSecond)} req/s vs baseline ${fmt(base.requestsPerSecond)} → ${ratio.toFixed(2)}`);
    }
    const peakRss = peakRssMiB(server.pid!);
    console.log(`\nDog Registry bench: ${DOGS} dogs, ${CONNECTIONS} connections, ${SLICES * SLICE_SECONDS} s per operation each for the server and the baseline`
      + ` (in ${SLICES} alternating slices; p50 and p99 are the slices' medians), server on core 0, wrk on core 1\n`);
    table(['operation', 'req/s', 'p50 / p99 ms', 'baseline req/s', 'ratio', 'target', 'non-2xx', 'peak RSS MiB so far'], rows);
    console.log(`\nserver peak RSS: ${peakRss.toFixed(1)} MiB (target < 150 MiB: ${peakRss < 150 ? 'met' : 'MISSED'})`);
    fs.rmSync(answersFile, { force: true });
  } finally {
    baseline?.kill('SIGTERM');
    server.kill('SIGTERM');
  }
}

/** The command `npm start` runs after building (with its Node options), so the bench measures what ships. */
function serverCommand(): string[] {
  const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { scripts: { start: string } };
  const command = pkg.scripts.start.split('&&').pop()!.trim().split(/\s+/);
  if (command[0] !== 'node') throw new Error(`npm start should end in a node command, not: ${pkg.scripts.start}`);
  return command;
}

function start(name: string, command: string[], env: Record<string, string>): ChildProcess {
  const child = spawn('taskset', ['-c', '0', ...command], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  child.on('exit', (code, signal) => {
    if (code !== 0 && signal !== 'SIGTERM') console.error(`${name} exited early (${code ?? signal})`);
  });
  return child;
}

async function waitFor(url: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`${url} did not answer within 10 s`);
}

/** One real answer per operation, which the baseline then serves byte for byte. */
async function recordAnswers(operations: Operation[]): Promise<Record<string, unknown>> {
  const answers: Record<string, unknown> = {};
  for (const operation of operations) {
    const response = await fetch(`http://127.0.0.1:${SERVER_PORT}${operation.path}`, {
      method: operation.method, body: operation.body,
      headers: { ...operation.headers, ...(operation.body ? { 'content-type': operation.type ?? 'application/json' } : {}) },
    });
    const headers: Record<string, string> = {};
    for (const name of ['content-type', 'vary', 'etag', 'link', 'x-request-id']) {
      const value = response.headers.get(name);
      if (value !== null) headers[name] = value;
    }
    answers[`${operation.method} ${operation.path}`] = { status: response.status, headers, body: await response.text() };
  }
  return answers;
}

/** Gets a token for the seeded account's client, as any client does; the authorized operations send it. */
async function credentials(origin: string, clientId: string, clientSecret: string): Promise<{ bearer: string; basic: string }> {
  const basic = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
  const token = await fetch(`${origin}/oauth2/token`, {
    method: 'POST', headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials',
  });
  return { bearer: `Bearer ${(await token.json() as { access_token: string }).access_token}`, basic };
}

function wrk(port: number, operation: Operation, seconds: number): WrkResult {
  const args = ['-c', '1', 'wrk', '-t1', `-c${CONNECTIONS}`, `-d${seconds}s`, '--latency'];
  let script: string | undefined;
  if (operation.body) {
    script = path.join(os.tmpdir(), `bench-post-${process.pid}.lua`);
    fs.writeFileSync(script, `wrk.method = "POST"\nwrk.body = '${operation.body}'\nwrk.headers["Content-Type"] = "${operation.type ?? 'application/json'}"\n`);
    args.push('-s', script);
  }
  for (const [name, value] of Object.entries(operation.headers)) args.push('-H', `${name}: ${value}`);
  args.push(`http://127.0.0.1:${port}${operation.path}`);
  const result = spawnSync('taskset', args, { encoding: 'utf8' });
  if (script) fs.rmSync(script, { force: true });
  if (result.status !== 0) throw new Error(`wrk failed: ${result.stderr}`);
  const out = result.stdout;
  const failures = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0) + Number(/Socket errors:.*?(\d+)/.exec(out)?.[1] ?? 0);
  const total = /(\d+) requests in ([\d.]+)(ms|s|m)\b/.exec(out);
  return {
    requests: Number(total?.[1]),
    seconds: Number(total?.[2]) * { ms: 0.001, s: 1, m: 60 }[(total?.[3] ?? 's') as 'ms' | 's' | 'm'],
    requestsPerSecond: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]),
    p50: latency(out, '50%'),
    p99: latency(out, '99%'),
    failures,
  };
}

/** Waits (up to 10 s) until the process has used no CPU for 100 ms. */
async function idle(pid: number): Promise<void> {
  let before = cpuTicks(pid);
  for (let attempt = 0; attempt < 100; attempt += 1) {
    await sleep(100);
    const now = cpuTicks(pid);
    if (now === before) return;
    before = now;
  }
}

function cpuTicks(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/** Slices as one run: all their requests over all their time; p50 and p99 of the median slice. */
function combine(slices: readonly WrkResult[]): WrkResult {
  const requests = slices.reduce((sum, slice) => sum + slice.requests, 0);
  const seconds = slices.reduce((sum, slice) => sum + slice.seconds, 0);
  return {
    requests, seconds, requestsPerSecond: requests / seconds,
    p50: median(slices.map((slice) => slice.p50)),
    p99: median(slices.map((slice) => slice.p99)),
    failures: slices.reduce((sum, slice) => sum + slice.failures, 0),
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function latency(out: string, percentile: string): number {
  const match = new RegExp(`${percentile}\\s+([\\d.]+)(us|ms|s)`).exec(out);
  if (!match) return NaN;
  const scale = { us: 0.001, ms: 1, s: 1000 }[match[2] as 'us' | 'ms' | 's'];
  return Number(match[1]) * scale;
}

function peakRssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1]) / 1024;
}

function fmt(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

function table(header: string[], rows: string[][]): void {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]): string => `| ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`);
  for (const row of rows) console.log(line(row));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
