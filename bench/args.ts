// The command lines of `npm run bench` (--postgres, --scale <sizes>, operation names) and `npm run bench:compare`
// (a git ref, --postgres, operation names).

export interface BenchArgs {
  /** Both backends (a PostgreSQL of the bench's own beside SQLite), or SQLite only. */
  readonly postgres: boolean;
  /** PostgreSQL's cost per statement and request (pg_stat_statements); implies postgres. */
  readonly statements: boolean;
  /** The sizes (dogs) to seed and measure, smallest first; undefined without --scale (then BENCH_DOGS alone). */
  readonly sizes?: readonly number[];
  /** The operations to run; all when empty. */
  readonly operations: readonly string[];
}

const USAGE = 'usage: npm run bench -- [--postgres] [--statements] [--scale 10000,100000,1000000] [operation name …]';

/** Parses the arguments after `npm run bench --`; throws with the usage on a mistake. */
export function parseArgs(argv: readonly string[]): BenchArgs {
  let postgres = false;
  let statements = false;
  let sizes: number[] | undefined;
  const operations: string[] = [];
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index]!;
    if (arg === '--postgres') postgres = true;
    else if (arg === '--statements') statements = postgres = true;
    else if (arg === '--scale' || arg.startsWith('--scale=')) {
      const value = arg === '--scale' ? argv[(index += 1)] : arg.slice('--scale='.length);
      if (value === undefined) throw new Error(`--scale needs a list of sizes, as in --scale 10000,100000\n${USAGE}`);
      sizes = parseSizes(value);
    } else if (arg.startsWith('--')) throw new Error(`unknown option ${arg}\n${USAGE}`);
    else operations.push(arg);
  }
  return { postgres, statements, sizes, operations };
}

/** "10000,100_000,1000000" → [10000, 100000, 1000000]: whole numbers of dogs (at least 10), sorted, each once. */
function parseSizes(value: string): number[] {
  const sizes = value.split(',').map((text) => {
    const size = Number(text.trim().replaceAll('_', ''));
    if (!Number.isSafeInteger(size) || size < 10 || text.trim() === '')
      throw new Error(
        `--scale takes whole numbers of dogs (at least 10), separated by commas, not "${text}"\n${USAGE}`,
      );
    return size;
  });
  return [...new Set(sizes)].sort((a, b) => a - b);
}

/** The command line of `npm run bench:compare`. */
export interface CompareArgs {
  /** The commit the working tree's build is compared with. */
  readonly ref: string;
  /** Both builds on a PostgreSQL of the bench's own (each on a copy of the seeded database), or on SQLite. */
  readonly postgres: boolean;
  /** The operations to compare; the default few when empty. */
  readonly operations: readonly string[];
}

const COMPARE_USAGE = 'usage: npm run bench:compare -- <git ref> [--postgres] [operation name …]';

/** Parses the arguments after `npm run bench:compare --`: the ref first, then --postgres and names in any order. */
export function parseCompareArgs(argv: readonly string[]): CompareArgs {
  let parsed: BenchArgs;
  try {
    parsed = parseArgs(argv);
  } catch (error) {
    throw new Error(`${(error as Error).message.split('\n')[0]}\n${COMPARE_USAGE}`, { cause: error });
  }
  if (parsed.statements) throw new Error(`--statements is npm run bench's (with --postgres)\n${COMPARE_USAGE}`);
  if (parsed.sizes !== undefined)
    throw new Error(`bench:compare measures one size (BENCH_DOGS); --scale is npm run bench's\n${COMPARE_USAGE}`);
  const [ref, ...operations] = parsed.operations;
  if (ref === undefined) throw new Error(`name the commit to compare with\n${COMPARE_USAGE}`);
  return { ref, postgres: parsed.postgres, operations };
}
