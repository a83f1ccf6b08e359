// npm run bench:compare -- <git ref> [--postgres] [operation …]: the working tree's build against another commit's,
// both on one core at once, on SQLite or (--postgres) on a PostgreSQL of the bench's own on that core too.
//
// Run one after the other, two builds are measured in different spells of a shared machine, and
// its noise (±10% here) hides the few percent a change makes. Run at the same time on the same
// core, each gets half of it whatever the neighbours do, so the ratio of their req/s is the
// inverse ratio of their CPU cost per request. Each operation is run twice with the builds'
// ports and data swapped, and the two ratios are averaged. The other build is compiled from
// `git archive` of its src/ (with this checkout's node_modules), and run with the Node options of
// its own package.json, so a change of `npm start`'s options is compared too.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {
  DATA_DIR,
  DOGS,
  benchOperations,
  credentials,
  fmt,
  serverCommand,
  serverEnv,
  VARIANT_ENV,
  start,
  table,
  waitFor,
  wrk,
  type Operation,
} from './harness.js';
import { parseCompareArgs } from './args.js';
import { postgres, sqlite, type Backend } from './backends.js';
import { startPostgres, type BenchPostgres } from './postgres.js';
import type { Seeded } from './seed.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP_SECONDS = 3;
/** Per build: the two together make the bench's 50. */
const CONNECTIONS = 25;
const PORTS = [18080, 18083] as const;
const DEFAULT_OPERATIONS = ['GET one (authorized)', 'GET list (limit 10)', 'owner with fields=name,dogs(name)', 'POST'];

interface Build {
  readonly label: string;
  /** How `npm start` runs the build: its Node options are part of what is compared. */
  readonly command: string[];
}

async function main(): Promise<void> {
  const args = parseCompareArgs(process.argv.slice(2));
  const other = buildCommit(args.ref);
  const current: Build = { label: 'working tree', command: serverCommand() };
  const names = args.operations.length > 0 ? args.operations : DEFAULT_OPERATIONS;
  let server: BenchPostgres | undefined;
  try {
    if (args.postgres) {
      server = await startPostgres();
    }
    await compare(server ? postgres(server) : sqlite, other, current, names);
  } finally {
    await server?.stop();
  }
}

/** Duels the two builds on `backend` for each operation, twice (the second swapped), and prints the table. */
async function compare(backend: Backend, other: Build, current: Build, names: readonly string[]): Promise<void> {
  const data = await backend.seeded(DOGS);
  const rows: string[][] = [];
  for (const name of names) {
    const ratios: number[] = [];
    const rates: Array<[number, number]> = [];
    for (const swapped of [false, true]) {
      const [first, second] = swapped ? [current, other] : [other, current];
      const [rateFirst, rateSecond] = await duel(first, second, name, data, backend);
      const [rateOther, rateCurrent] = swapped ? [rateSecond, rateFirst] : [rateFirst, rateSecond];
      ratios.push(rateCurrent / rateOther);
      rates.push([rateOther, rateCurrent]);
      console.log(
        `  ${name}${swapped ? ' (swapped)' : ''}: ${other.label} ${fmt(rateOther)} req/s, working tree ${fmt(rateCurrent)} req/s`,
      );
    }
    const mean = ratios.reduce((sum, ratio) => sum + ratio, 0) / ratios.length;
    rows.push([
      name,
      rates.map(([rate]) => fmt(rate)).join(' / '),
      rates.map(([, rate]) => fmt(rate)).join(' / '),
      mean.toFixed(2),
    ]);
  }
  console.log(
    `\n${backend.name}: both builds on core 0 at once, ${CONNECTIONS} wrk connections each on core 1, ${SECONDS} s per run, two runs (the second swapped)\n`,
  );
  table(['operation', `${other.label} req/s`, 'working tree req/s', 'working tree ÷ other (> 1: faster)'], rows);
}

/** Compiles the commit's src/ into .bench-data/compare/<sha>/dist (once per commit). */
function buildCommit(ref: string): Build {
  const sha = execFileSync('git', ['rev-parse', '--verify', `${ref}^{commit}`], { encoding: 'utf8' }).trim();
  const dir = path.join(DATA_DIR, 'compare', sha);
  const entry = path.join(dir, 'dist', 'server.js');
  if (!fs.existsSync(entry)) {
    console.log(`building ${ref} (${sha.slice(0, 7)}) in ${dir} ...`);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    // Through a file: the archive outgrew execFileSync's 1 MiB of output (ENOBUFS).
    const archive = path.join(dir, 'source.tar');
    execFileSync('git', ['archive', '--output', archive, sha, 'src', 'rates', 'tsconfig.json']);
    execFileSync('tar', ['-x', '-C', dir, '-f', archive]);
    fs.rmSync(archive);
    execFileSync('npx', ['tsc', '-p', path.join(dir, 'tsconfig.json')], { stdio: 'inherit' });
  }
  return {
    label: `${ref} (${sha.slice(0, 7)})`,
    command: serverCommand(entry, execFileSync('git', ['show', `${sha}:package.json`], { encoding: 'utf8' })),
  };
}

/** Loads both builds at once for one operation; returns their req/s. */
async function duel(
  first: Build,
  second: Build,
  operationName: string,
  data: Seeded,
  backend: Backend,
): Promise<[number, number]> {
  // An operation of a variant of the server (the search cache off) runs both builds as that variant.
  const variant = benchOperations(data, { bearer: '', basic: '' }).find(({ name }) => name === operationName)?.server;
  const env = variant ? VARIANT_ENV[variant] : {};
  const servers = await Promise.all(
    [first, second].map(async (build, index) => {
      const port = PORTS[index]!;
      const storage = await backend.freshCopy(DOGS, `compare-${port}`);
      return { port, child: start(build.label, build.command, { ...serverEnv(port, storage), ...env }) };
    }),
  );
  try {
    const operations = await Promise.all(
      servers.map(async ({ port }) => {
        await waitFor(`http://127.0.0.1:${port}/healthz`);
        const found = benchOperations(
          data,
          await credentials(`http://127.0.0.1:${port}`, data.clientId, data.clientSecret),
        ).find((operation) => operation.name === operationName);
        if (!found)
          throw new Error(
            `no operation named "${operationName}"; the bench's operations are listed in bench/harness.ts`,
          );
        return found;
      }),
    );
    const load = (seconds: number) =>
      Promise.all(servers.map(({ port }, index) => wrk(port, operations[index] as Operation, seconds, CONNECTIONS)));
    await load(WARMUP_SECONDS);
    const [a, b] = await load(SECONDS);
    if (a!.failures + b!.failures > 0)
      throw new Error(`${operationName}: non-2xx answers (${a!.failures}, ${b!.failures})`);
    return [a!.requestsPerSecond, b!.requestsPerSecond];
  } finally {
    for (const { child } of servers) child.kill('SIGTERM');
    await Promise.all(
      servers.map(
        ({ child }) =>
          new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve))),
      ),
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
