// npm run bench: the real server against a bare node:http baseline answering the same bytes, both loaded by wrk.
//
// The server and the baseline run pinned to core 0, wrk to core 1; each operation is loaded for
// BENCH_SECONDS (default 10) with 50 connections. Figures are printed as ratios to the baseline
// measured in the same run, so they compare across machines. Operation names as arguments run
// only those (`npm run bench -- 'GET list (limit 10)'`); the default is every operation.
import { type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  DATA_DIR,
  DOGS,
  benchOperations,
  combine,
  credentials,
  fmt,
  freshCopy,
  idle,
  peakRssMiB,
  seeded,
  serverCommand,
  serverEnv,
  start,
  table,
  waitFor,
  wrk,
  type Operation,
  type WrkResult,
} from './harness.js';

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
const SERVER_PORT = 18080;
const BASELINE_PORT = 18081;
const LOG_OFF_PORT = 18082;
const RUN_DIR = path.join(DATA_DIR, 'run');
const LOG_OFF_DIR = path.join(DATA_DIR, 'run-log-off');

/** What one operation's server slices alternate with: the baseline, or the server with the request log off. */
interface Versus {
  readonly port: number;
  readonly headers?: Record<string, string>;
  readonly pid?: number;
}

/** The same server on its own copy of the data, with REQUEST_LOG=off, and a token of its own. */
async function startLogOff(): Promise<{ process: ChildProcess; versus: Versus }> {
  freshCopy(LOG_OFF_DIR);
  const child = start('server, log off', serverCommand(), {
    ...serverEnv(LOG_OFF_PORT, LOG_OFF_DIR),
    REQUEST_LOG: 'off',
  });
  await waitFor(`http://127.0.0.1:${LOG_OFF_PORT}/healthz`);
  const { clientId, clientSecret } = await seeded();
  const { bearer } = await credentials(`http://127.0.0.1:${LOG_OFF_PORT}`, clientId, clientSecret);
  return { process: child, versus: { port: LOG_OFF_PORT, headers: { authorization: bearer }, pid: child.pid } };
}

async function main(): Promise<void> {
  const { dogId, ownerId, clientId, clientSecret } = await seeded();
  freshCopy(RUN_DIR);

  const server = start('server', serverCommand(), serverEnv(SERVER_PORT, RUN_DIR));
  let baseline: ChildProcess | undefined;
  let logOff: Awaited<ReturnType<typeof startLogOff>> | undefined;
  try {
    await waitFor(`http://127.0.0.1:${SERVER_PORT}/healthz`);
    const { bearer, basic } = await credentials(`http://127.0.0.1:${SERVER_PORT}`, clientId, clientSecret);
    const operations = chosen(benchOperations({ dogId, ownerId }, { bearer, basic }), process.argv.slice(2));
    const answersFile = path.join(os.tmpdir(), `bench-answers-${process.pid}.json`);
    fs.writeFileSync(answersFile, JSON.stringify(await recordAnswers(operations)));
    baseline = start('baseline', ['node', 'bench/baseline-server.mjs', answersFile, String(BASELINE_PORT)], {});
    await waitFor(`http://127.0.0.1:${BASELINE_PORT}/`, { anyAnswer: true });
    if (operations.some((operation) => operation.against === 'log off')) logOff = await startLogOff();

    const rows: string[][] = [];
    for (const operation of operations) {
      const versus: Versus = operation.against === 'log off' ? logOff!.versus : { port: BASELINE_PORT };
      const other = versus.headers ? { ...operation, headers: versus.headers } : operation;
      // A short untimed run first, so both are measured after the JIT has warmed up.
      await wrk(SERVER_PORT, operation, WARMUP_SECONDS, CONNECTIONS);
      await wrk(versus.port, other, WARMUP_SECONDS, CONNECTIONS);
      const serverSlices: WrkResult[] = [];
      const baselineSlices: WrkResult[] = [];
      for (let slice = 0; slice < SLICES; slice += 1) {
        serverSlices.push(await wrk(SERVER_PORT, operation, SLICE_SECONDS, CONNECTIONS));
        // A slow operation leaves requests queued when wrk stops: let the server finish them
        // before the baseline's slice, which would otherwise share the core with them.
        await idle(server.pid!);
        baselineSlices.push(await wrk(versus.port, other, SLICE_SECONDS, CONNECTIONS));
        if (versus.pid !== undefined) await idle(versus.pid);
      }
      const measured = combine(serverSlices);
      const base = combine(baselineSlices);
      const ratio = measured.requestsPerSecond / base.requestsPerSecond;
      rows.push([
        operation.name,
        fmt(measured.requestsPerSecond),
        `${measured.p50.toFixed(2)} / ${measured.p99.toFixed(2)}`,
        fmt(base.requestsPerSecond),
        ratio.toFixed(2),
        operation.target ? `≥ ${operation.target} ${ratio >= operation.target ? 'met' : 'MISSED'}` : 'report',
        String(measured.failures),
        peakRssMiB(server.pid!).toFixed(0),
      ]);
      console.log(
        `  ${operation.name}: ${fmt(measured.requestsPerSecond)} req/s vs ${operation.against ?? 'baseline'} ${fmt(base.requestsPerSecond)} → ${ratio.toFixed(2)}`,
      );
    }
    const peakRss = peakRssMiB(server.pid!);
    console.log(
      `\nDog Registry bench: ${DOGS} dogs, ${CONNECTIONS} connections, ${SLICES * SLICE_SECONDS} s per operation each for the server and the baseline` +
        ` (in ${SLICES} alternating slices; p50 and p99 are the slices' medians), server on core 0, wrk on core 1\n`,
    );
    table(
      // The request log's row has the server with REQUEST_LOG=off where the others have the baseline.
      ['operation', 'req/s', 'p50 / p99 ms', 'baseline req/s', 'ratio', 'target', 'non-2xx', 'peak RSS MiB so far'],
      rows,
    );
    console.log(`\nserver peak RSS: ${peakRss.toFixed(1)} MiB (target < 150 MiB: ${peakRss < 150 ? 'met' : 'MISSED'})`);
    fs.rmSync(answersFile, { force: true });
  } finally {
    baseline?.kill('SIGTERM');
    logOff?.process.kill('SIGTERM');
    server.kill('SIGTERM');
  }
}

/** The operations named (all when none is), or an error listing the names. */
function chosen(operations: Operation[], names: string[]): Operation[] {
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
