// What `npm run bench` prints at the end: each run's table, PostgreSQL beside SQLite (--postgres), and the scaling
// curve with its checks (--scale), which it also writes as docs/performance-scale.svg and a markdown table.
import fs from 'node:fs';
import path from 'node:path';
import { scaleChart, scaleTable } from './curve.js';
import { DATA_DIR, INDEXED, fmt, table, type Operation, type WrkResult } from './harness.js';
import { PEAK_RSS_MIB, POSTGRES_P99_MS, postgresTarget, scalingVerdicts, unique, type Result } from './scale.js';
import type { StatementFigure } from './statements.js';

/** CPU (µs) per request answered: the server's, and PostgreSQL's on PostgreSQL. */
export interface Cpu {
  readonly server: number;
  readonly postgres?: number;
}

/** How many of an operation's statements `--statements` lists, costliest first. */
const STATEMENTS_SHOWN = 4;
/** How much of a statement's text it shows. */
const STATEMENT_CHARS = 110;

/** One backend at one size: every operation's figures. */
export interface Run {
  readonly backend: string;
  readonly size: number;
  /** How long seeding took, when this invocation seeded. */
  readonly seedSeconds?: number;
  readonly results: ReadonlyArray<{
    readonly operation: Operation;
    readonly measured: WrkResult;
    readonly base: WrkResult;
    readonly ratio: number;
    /** The server's VmHWM after the operation. */
    readonly peakRss: number;
    readonly cpu: Cpu;
    /** PostgreSQL's statements, with --statements. */
    readonly statements?: readonly StatementFigure[];
  }>;
  readonly peakRss: number;
}

const CHART_FILE = path.join('docs', 'performance-scale.svg');
const TABLE_FILE = path.join(DATA_DIR, 'performance-scale.md');

export function report(
  runs: readonly Run[],
  { scale, seconds, connections }: { scale: boolean; seconds: number; connections: number },
): void {
  for (const run of runs) {
    console.log(
      `\nDog Registry bench, ${run.backend}: ${run.size.toLocaleString('en-US')} dogs, ${connections} connections, ${seconds} s per operation each for the server and the baseline` +
        ` (in alternating slices, each loaded once its connections are open; p50 and p99 of all the slices' requests together), server on core 0, wrk on core 1\n`,
    );
    table(
      // The request log's row has the server with REQUEST_LOG=off where the others have the baseline.
      // The baseline's p99 is the machine's own tail at that load: a bare node:http server's latencies in the same run.
      [
        'operation',
        'req/s',
        'p50 / p99 ms',
        'baseline req/s',
        'baseline p99 ms',
        'ratio',
        'target',
        'non-2xx',
        'peak RSS MiB so far',
        run.backend === 'PostgreSQL' ? 'CPU µs/req server + PostgreSQL' : 'CPU µs/req',
      ],
      run.results.map(({ operation, measured, base, ratio, peakRss, cpu }) => [
        operation.name,
        fmt(measured.requestsPerSecond),
        `${measured.p50.toFixed(2)} / ${measured.p99.toFixed(2)}`,
        fmt(base.requestsPerSecond),
        base.p99.toFixed(2),
        ratio.toFixed(2),
        operation.target ? `≥ ${operation.target} ${ratio >= operation.target ? 'met' : 'MISSED'}` : 'report',
        String(measured.failures),
        peakRss.toFixed(0),
        cpu.postgres === undefined ? cpu.server.toFixed(0) : `${cpu.server.toFixed(0)} + ${cpu.postgres.toFixed(0)}`,
      ]),
    );
    reportStatements(run);
    console.log(
      `\nserver peak RSS: ${run.peakRss.toFixed(1)} MiB (target < 150 MiB: ${run.peakRss < 150 ? 'met' : 'MISSED'})`,
    );
  }
  if (unique(runs.map((run) => run.backend)).length > 1) comparePostgres(runs);
  if (scale) reportScale(runs);
}

/** With --statements: each operation's costliest statements on PostgreSQL, per request answered. */
function reportStatements(run: Run): void {
  const counted = run.results.filter((result) => result.statements !== undefined);
  if (counted.length === 0) return;
  console.log(
    `\nPostgreSQL's statements per request answered (pg_stat_statements over the server's slices; execution time only,` +
      ` without parsing, the protocol and the commit's flush), the ${STATEMENTS_SHOWN} costliest of each operation\n`,
  );
  table(
    ['operation', 'calls/req', 'rows/call', 'exec µs/req', 'statement'],
    counted.flatMap(({ operation, statements }) =>
      statements!
        .slice(0, STATEMENTS_SHOWN)
        .map((statement, index) => [
          index === 0 ? operation.name : '',
          statement.callsPerRequest.toFixed(3),
          statement.rowsPerCall.toFixed(1),
          statement.execMicrosPerRequest.toFixed(1),
          statement.query.length > STATEMENT_CHARS ? `${statement.query.slice(0, STATEMENT_CHARS)}…` : statement.query,
        ]),
    ),
  );
}

/** Issue 18: PostgreSQL's ratio ÷ SQLite's for each operation and size, against its targets. */
function comparePostgres(runs: readonly Run[]): void {
  for (const size of unique(runs.map((run) => run.size))) {
    const lite = runs.find((run) => run.size === size && run.backend === 'SQLite');
    const postgres = runs.find((run) => run.size === size && run.backend === 'PostgreSQL');
    if (!lite || !postgres) continue;
    console.log(
      `\nPostgreSQL beside SQLite, ${size.toLocaleString('en-US')} dogs (each as its ratio to its own baseline, so the` +
        ` machine's drift between the two runs cancels; targets of issue 18: reads ≥ 0.4, POST ≥ 0.35, p99 < ${POSTGRES_P99_MS} ms)\n`,
    );
    const rows = postgres.results.map(({ operation, measured, ratio }) => {
      const other = lite.results.find((result) => result.operation.name === operation.name);
      // SQLite answering nothing within a slice leaves nothing to divide by.
      const relative = other && other.ratio > 0 ? ratio / other.ratio : NaN;
      const target = postgresTarget(operation);
      const verdict = Number.isNaN(relative) ? 'no SQLite figure' : relative >= target! ? 'met' : 'MISSED';
      return [
        operation.name,
        other ? other.ratio.toFixed(2) : '-',
        ratio.toFixed(2),
        Number.isNaN(relative) ? '-' : relative.toFixed(2),
        target === undefined ? 'report' : `≥ ${target} ${verdict}`,
        // No answer within a slice: wrk reports no latency at all, which is no p99 under the target.
        measured.requests === 0
          ? 'none answered MISSED'
          : `${measured.p99.toFixed(2)} ${measured.p99 < POSTGRES_P99_MS ? 'met' : 'MISSED'}`,
      ];
    });
    table(
      ['operation', 'SQLite ratio', 'PostgreSQL ratio', 'PostgreSQL ÷ SQLite', 'target', 'PostgreSQL p99 ms'],
      rows,
    );
  }
}

/** Issue 16: the ratio of each operation at each size, PASS/FAIL per indexed operation, peak RSS; the chart. */
function reportScale(runs: readonly Run[]): void {
  // The request log's on/off pair is a ratio to the same server with the log off, not to the baseline: left out.
  const results: Result[] = runs.flatMap((run) =>
    run.results
      .filter(({ operation }) => !operation.against)
      .map(({ operation, measured, ratio }) => ({
        operation: operation.name,
        backend: run.backend,
        size: run.size,
        ratio,
        requestsPerSecond: measured.requestsPerSecond,
        p99: measured.p99,
      })),
  );
  const markdown = scaleTable(results);
  console.log(`\nScaling: each operation's ratio to the baseline at each size\n\n${markdown}\n`);
  const verdicts = scalingVerdicts(results, INDEXED);
  if (verdicts.length > 0) {
    console.log(`Indexed operations, largest size ÷ smallest (PASS when at least 0.67: at most a third lost)\n`);
    table(
      ['operation', 'backend', 'kept', 'verdict'],
      verdicts.map((verdict) => [
        verdict.operation,
        verdict.backend,
        verdict.kept.toFixed(2),
        verdict.pass ? 'PASS' : 'FAIL',
      ]),
    );
  }
  console.log(`\nSeeding and the server's peak RSS (VmHWM) per size (target < ${PEAK_RSS_MIB} MiB)\n`);
  table(
    ['dogs', 'backend', 'seeded in', 'peak RSS MiB', 'verdict'],
    runs.map((run) => [
      run.size.toLocaleString('en-US'),
      run.backend,
      run.seedSeconds === undefined ? 'kept from before' : `${run.seedSeconds.toFixed(1)} s`,
      run.peakRss.toFixed(1),
      run.peakRss < PEAK_RSS_MIB ? 'PASS' : 'FAIL',
    ]),
  );
  fs.writeFileSync(CHART_FILE, scaleChart(results));
  fs.writeFileSync(TABLE_FILE, `${markdown}\n`);
  console.log(`\nwrote ${CHART_FILE} and ${TABLE_FILE} (the table for docs/performance.md)`);
}
