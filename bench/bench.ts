// npm run bench: the real server against a bare node:http baseline answering the same bytes, both loaded by wrk.
//
// The server and the baseline run pinned to core 0, wrk to core 1; each operation is loaded for
// BENCH_SECONDS (default 10) with 50 connections. Figures are printed as ratios to the baseline
// measured in the same run, so they compare across machines. Operation names as arguments run
// only those (`npm run bench -- 'GET list (limit 10)'`); the default is every operation.
// `--postgres` runs every operation on PostgreSQL too (a server of the bench's own, on core 0), and
// `--scale 10000,100000` at each size (bench/report.ts prints and draws what they conclude). Each operation's CPU per
// request is read from /proc (the server's, and PostgreSQL's); `--statements` adds PostgreSQL's cost per statement.
import { type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from './args.js';
import { postgres, sqlite, type Backend } from './backends.js';
import {
  DOGS,
  benchOperations,
  combine,
  cpuMicros,
  credentials,
  fmt,
  idle,
  peakRssMiB,
  serverCommand,
  serverEnv,
  start,
  stop,
  stopAll,
  waitFor,
  wrk,
  VARIANT_ENV,
  type Operation,
  type WrkResult,
} from './harness.js';
import { startPostgres, type BenchPostgres } from './postgres.js';
import { report, type Cpu, type Run } from './report.js';
import type { Seeded } from './seed.js';
import { resetStatements, statementFigures, type StatementFigure } from './statements.js';

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
/**
 * BENCH_PORT moves the four ports (server, baseline, server with the log off, server with the search cache off), so
 * that two benches never meet.
 */
const SERVER_PORT = Number(process.env.BENCH_PORT ?? 18080);
const BASELINE_PORT = SERVER_PORT + 1;
/** The servers besides the one `npm start` runs, by what sets them apart: their port and environment. */
const VARIANT_PORTS = { 'log off': SERVER_PORT + 2, 'search cache off': SERVER_PORT + 3 } as const;
type VariantName = keyof typeof VARIANT_ENV;

/** A process wrk loads: the server, a variant of it, or the baseline (its headers replace the operation's). */
interface Target {
  readonly port: number;
  readonly headers?: Record<string, string>;
  readonly pid?: number;
  /** A server's database on PostgreSQL (its name in the bench's cluster). */
  readonly database?: string;
}

/** The database a server's storage names on PostgreSQL. */
function databaseOf(storage: Record<string, string>): string | undefined {
  return storage.DATABASE_URL === undefined ? undefined : new URL(storage.DATABASE_URL).pathname.slice(1);
}

/** The same server on its own copy of the data, with the variant's setting, and a token of its own. */
async function startVariant(
  name: VariantName,
  backend: Backend,
  size: number,
  seeded: Seeded,
): Promise<{ process: ChildProcess; target: Target }> {
  const port = VARIANT_PORTS[name];
  const storage = await backend.freshCopy(size, name.replaceAll(' ', '-'));
  const child = start(`server, ${name}`, serverCommand(), { ...serverEnv(port, storage), ...VARIANT_ENV[name] });
  await waitFor(`http://127.0.0.1:${port}/healthz`, { seconds: 60 });
  const { bearer } = await credentials(`http://127.0.0.1:${port}`, seeded.clientId, seeded.clientSecret);
  return {
    process: child,
    target: { port, headers: { authorization: bearer }, pid: child.pid, database: databaseOf(storage) },
  };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const sizes = args.sizes ?? [DOGS];
  let server: BenchPostgres | undefined;
  // Ctrl-C or a kill: the servers, the baseline and PostgreSQL stop too (a hard kill: PostgreSQL's helper sees it).
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => {
      console.error(`\n${signal}: stopping the servers and PostgreSQL ...`);
      void Promise.all([stopAll(), server?.stop()]).finally(() => process.exit(130));
    });
  try {
    if (args.postgres) {
      server = await startPostgres({ statements: args.statements });
    }
    const backends = server ? [sqlite, postgres(server)] : [sqlite];
    const runs: Run[] = [];
    for (const size of sizes)
      for (const backend of backends)
        runs.push(await measure(backend, size, args.operations, backend.name === 'PostgreSQL' ? server : undefined));
    report(runs, { scale: args.sizes !== undefined, seconds: SLICES * SLICE_SECONDS, connections: CONNECTIONS });
  } finally {
    await stopAll();
    await server?.stop();
  }
}

/**
 * Every chosen operation on one backend at one size: the table of figures, printed as it goes. `pg` is the bench's
 * PostgreSQL when the backend is PostgreSQL: its CPU counts too, and its statements with --statements.
 */
async function measure(backend: Backend, size: number, names: readonly string[], pg?: BenchPostgres): Promise<Run> {
  const seeded = await backend.seeded(size);
  const copy = await backend.freshCopy(size, 'server');
  const server = start('server', serverCommand(), serverEnv(SERVER_PORT, copy));
  let baseline: ChildProcess | undefined;
  const variants = new Map<VariantName, Awaited<ReturnType<typeof startVariant>>>();
  try {
    await waitFor(`http://127.0.0.1:${SERVER_PORT}/healthz`, { seconds: 60 });
    const { bearer, basic } = await credentials(
      `http://127.0.0.1:${SERVER_PORT}`,
      seeded.clientId,
      seeded.clientSecret,
    );
    const operations = chosen(benchOperations(seeded, { bearer, basic }), names);
    const answersFile = path.join(os.tmpdir(), `bench-answers-${process.pid}.json`);
    fs.writeFileSync(answersFile, JSON.stringify(await recordAnswers(operations)));
    baseline = start('baseline', ['node', 'bench/baseline-server.mjs', answersFile, String(BASELINE_PORT)], {});
    await waitFor(`http://127.0.0.1:${BASELINE_PORT}/`, { anyAnswer: true });
    for (const operation of operations)
      for (const name of [operation.against, operation.server])
        if (name !== undefined && !variants.has(name))
          variants.set(name, await startVariant(name, backend, size, seeded));
    console.log(`\n${backend.name}, ${size.toLocaleString('en-US')} dogs:`);
    const results: Array<Run['results'][number]> = [];
    for (const operation of operations) {
      const served: Target = operation.server
        ? variants.get(operation.server)!.target
        : { port: SERVER_PORT, pid: server.pid, database: databaseOf(copy) };
      const versus: Target = operation.against ? variants.get(operation.against)!.target : { port: BASELINE_PORT };
      const { measured, base, cpu, statements } = await load(operation, served, versus, pg);
      if (operation.method === 'POST') await backend.afterWrites?.(copy);
      const ratio = measured.requestsPerSecond / base.requestsPerSecond;
      results.push({ operation, measured, base, ratio, peakRss: peakRssMiB(served.pid!), cpu, statements });
      console.log(
        `  ${operation.name}: ${fmt(measured.requestsPerSecond)} req/s vs ${operation.against ?? 'baseline'} ${fmt(base.requestsPerSecond)} → ${ratio.toFixed(2)}; CPU per request: server ${cpu.server.toFixed(0)} µs${cpu.postgres === undefined ? '' : `, PostgreSQL ${cpu.postgres.toFixed(0)} µs`}`,
      );
    }
    fs.rmSync(answersFile, { force: true });
    return { backend: backend.name, size, seedSeconds: seeded.seedSeconds, results, peakRss: peakRssMiB(server.pid!) };
  } finally {
    await Promise.all([
      stop(baseline),
      ...[...variants.values()].map((variant) => stop(variant.process)),
      stop(server),
    ]);
  }
}

/**
 * One operation: warm-up, then the server's and the other's slices alternately; each side's slices combined. The CPU
 * the server (and PostgreSQL) used in the server's slices, until the server is idle again, is divided by the requests
 * they answered; so are PostgreSQL's statements, counted over the same slices when `pg` counts them.
 */
async function load(
  operation: Operation,
  served: Target,
  versus: Target,
  pg?: BenchPostgres,
): Promise<{ measured: WrkResult; base: WrkResult; cpu: Cpu; statements?: StatementFigure[] }> {
  const mine = served.headers ? { ...operation, headers: served.headers } : operation;
  const other = versus.headers ? { ...operation, headers: versus.headers } : operation;
  // A short untimed run first, so both are measured after the JIT has warmed up.
  await wrk(served.port, mine, WARMUP_SECONDS, CONNECTIONS);
  await wrk(versus.port, other, WARMUP_SECONDS, CONNECTIONS);
  const serverSlices: WrkResult[] = [];
  const baselineSlices: WrkResult[] = [];
  const counting = pg?.statements === true && served.database !== undefined;
  if (counting) await resetStatements(pg!);
  let serverMicros = 0;
  let postgresMicros = 0;
  for (let slice = 0; slice < SLICES; slice += 1) {
    const serverBefore = cpuMicros(served.pid!);
    const postgresBefore = pg ? cpuMicros(pg.pid(), { children: true }) : 0;
    serverSlices.push(await wrk(served.port, mine, SLICE_SECONDS, CONNECTIONS));
    // A slow operation leaves requests queued when wrk stops: let the server finish them
    // before the baseline's slice, which would otherwise share the core with them.
    await idle(served.pid!);
    serverMicros += cpuMicros(served.pid!) - serverBefore;
    if (pg) postgresMicros += cpuMicros(pg.pid(), { children: true }) - postgresBefore;
    baselineSlices.push(await wrk(versus.port, other, SLICE_SECONDS, CONNECTIONS));
    if (versus.pid !== undefined) await idle(versus.pid);
  }
  const measured = combine(serverSlices);
  const requests = Math.max(1, measured.requests);
  return {
    measured,
    base: combine(baselineSlices),
    cpu: { server: serverMicros / requests, postgres: pg ? postgresMicros / requests : undefined },
    statements: counting ? await statementFigures(pg!, served.database!, requests) : undefined,
  };
}

/** The operations named (all when none is), or an error listing the names. */
function chosen(operations: Operation[], names: readonly string[]): Operation[] {
  const unknown = names.filter((name) => !operations.some((operation) => operation.name === name));
  if (unknown.length > 0)
    throw new Error(
      `unknown operation ${unknown.join(', ')}; the operations are: ${operations.map((operation) => operation.name).join(', ')}`,
    );
  return names.length === 0 ? operations : operations.filter((operation) => names.includes(operation.name));
}

/** One real answer per operation, which the baseline then serves byte for byte. */
async function recordAnswers(operations: Operation[]): Promise<Record<string, unknown>> {
  const answers: Record<string, unknown> = {};
  for (const operation of operations) {
    const response = await fetch(`http://127.0.0.1:${SERVER_PORT}${operation.path}`, {
      method: operation.method,
      body: operation.body,
      headers: {
        ...operation.headers,
        ...(operation.body ? { 'content-type': operation.type ?? 'application/json' } : {}),
      },
    });
    const headers: Record<string, string> = {};
    for (const name of ['content-type', 'vary', 'etag', 'link', 'x-request-id']) {
      const value = response.headers.get(name);
      if (value !== null) headers[name] = value;
    }
    answers[`${operation.method} ${operation.path}`] = {
      status: response.status,
      headers,
      body: await response.text(),
    };
  }
  return answers;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
