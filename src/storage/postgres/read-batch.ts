// Reads of one SQL text made in the same turn of the event loop leave as one statement.
//
// Under load most of a read's cost on PostgreSQL is fixed per statement, on both sides of the socket: PostgreSQL's
// Bind/Execute/Sync and its wake-up (a GET one executes in 10 µs of its 35), the driver's query object, promise and
// result in Node. Concurrent requests that make the same read (GET one dog, a page) are therefore collected until the
// check phase of the turn, after every request read in it was handled, and sent together: each call's parameters
// become one row of arrays that `unnest` turns back into rows, and the statement runs once per row in a LATERAL
// subquery, which keeps its plan (an index range per call) and its order. Prisma batches its findUnique calls in the
// same way. Identical calls are not merged: each still reads its own rows. See docs/performance.md.
import type { StorageError } from '../storage-error.js';

/** Sends one statement and gives its rows (the connection's pool, its named statements and its errors). */
export type Send = (sql: string, params: readonly unknown[]) => Promise<unknown[][]>;
/** The parameter types (OIDs) PostgreSQL infers for a statement, without running it. */
export type Describe = (sql: string) => Promise<readonly number[]>;

/** Scalar types a batch carries as an array parameter, by OID. */
const ARRAY_OF: ReadonlyMap<number, string> = new Map([
  [16, 'bool[]'],
  [20, 'int8[]'],
  [21, 'int2[]'],
  [23, 'int4[]'],
  [25, 'text[]'],
  [700, 'float4[]'],
  [701, 'float8[]'],
  [1043, 'varchar[]'],
  [1184, 'timestamptz[]'],
  [1700, 'numeric[]'],
]);
/**
 * Array types (a filter's values, a search's keys), by OID: an array of arrays cannot be unnested by one level, so each
 * call's array travels as its text (an array literal) in a text[] and is cast back in place.
 */
const LITERAL_OF: ReadonlyMap<number, string> = new Map([
  [1000, 'bool[]'],
  [1005, 'int2[]'],
  [1007, 'int4[]'],
  [1009, 'text[]'],
  [1015, 'varchar[]'],
  [1016, 'int8[]'],
]);

/** At most this many calls share a statement; more are split (the arrays, and the answer, stay small). */
const MOST_PER_STATEMENT = 64;
/** How many texts' batched forms are kept: far more than the service's read texts (they vary with filters). */
const MOST_TEXTS = 1000;
/** The alias of the parameter rows; no statement of the service uses it. */
const ROW = 'batch';

/** A text's batched statement, and which of its parameters travel as array literals. */
export interface Batched {
  readonly sql: string;
  readonly literal: readonly boolean[];
}

/**
 * The statement that runs `sql` once for each row of its parameters, given their types: `$1…$n` become arrays, a
 * call's parameters are the n-th elements, and each result row ends with the call's number (from 1). Undefined for a
 * statement without parameters or with one of a type not listed above.
 */
export function batchedStatement(sql: string, types: readonly number[]): Batched | undefined {
  const arrays: string[] = [];
  const casts: string[] = [];
  for (const [index, type] of types.entries()) {
    const scalar = ARRAY_OF.get(type);
    const array = LITERAL_OF.get(type);
    if (scalar === undefined && array === undefined) return undefined;
    arrays.push(`$${index + 1}::${scalar ?? 'text[]'}`);
    casts.push(array === undefined ? '' : `::${array}`);
  }
  if (arrays.length === 0) return undefined;
  const columns = types.map((_, index) => `p${index + 1}`).join(', ');
  const inner = sql.replace(/\$(\d+)\b/g, (_, n: string) => `(${ROW}.p${n}${casts[Number(n) - 1]})`);
  return {
    sql: `SELECT ${ROW}_rows.*, ${ROW}.i::int4 FROM unnest(${arrays.join(', ')}) WITH ORDINALITY AS ${ROW}(${columns}, i)
    CROSS JOIN LATERAL (${inner}) AS ${ROW}_rows`,
    literal: casts.map((cast) => cast !== ''),
  };
}

/** A one-dimensional array as PostgreSQL's array literal: every element quoted, NULL for null. */
export function arrayLiteral(values: readonly unknown[]): string {
  const elements = values.map((value) =>
    value === null || value === undefined ? 'NULL' : `"${String(value).replace(/[\\"]/g, '\\$&')}"`,
  );
  return `{${elements.join(',')}}`;
}

/** The parameters of a batched statement: for each parameter of the text, the array of every call's value. */
export function batchedParams(
  batched: Batched,
  calls: ReadonlyArray<{ readonly params: readonly unknown[] }>,
): unknown[] {
  return batched.literal.map((literal, index) =>
    calls.map((call) => {
      const value = call.params[index] ?? null;
      return literal && value !== null ? arrayLiteral(value as unknown[]) : value;
    }),
  );
}

interface Call {
  readonly params: readonly unknown[];
  resolve(rows: unknown[][]): void;
  reject(error: unknown): void;
}

/** A text's batched form: being learnt, known, or impossible (null). */
type Shape = Promise<Batched | undefined> | Batched | null;

export class ReadBatcher {
  private waiting = new Map<string, Call[]>();
  private scheduled = false;
  /** Each text's batched statement, learnt once from its parameter types (first come alone while it is learnt). */
  private readonly shapes = new Map<string, Shape>();
  /** Statements sent for several calls (tests). */
  batches = 0;

  constructor(
    private readonly send: Send,
    private readonly describe: Describe,
  ) {}

  read(sql: string, params: readonly unknown[]): Promise<unknown[][]> {
    return new Promise((resolve, reject) => {
      const calls = this.waiting.get(sql);
      if (calls) calls.push({ params, resolve, reject });
      else this.waiting.set(sql, [{ params, resolve, reject }]);
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(this.flush);
      }
    });
  }

  /**
   * The reads waiting to leave together: another object once they have left. A read made while it is the same object
   * leaves with them (search-cache.ts shares a stamp read only so long).
   */
  get gathering(): object {
    return this.waiting;
  }

  /** Settles once every text being learnt is learnt (tests: the next batch of such a text is sent batched). */
  async learnt(): Promise<void> {
    await Promise.all([...this.shapes.values()].filter((shape) => shape instanceof Promise));
  }

  /** The batched form of `sql`, once learnt (the plan test explains it). */
  async shapeOf(sql: string): Promise<Batched | undefined> {
    const shape = this.shapes.get(sql) ?? this.learn(sql);
    return (await shape) ?? undefined;
  }

  private readonly flush = (): void => {
    this.scheduled = false;
    const waiting = this.waiting;
    this.waiting = new Map();
    for (const [sql, calls] of waiting) {
      if (calls.length === 1) {
        this.alone(sql, calls[0]!);
        continue;
      }
      const shape = this.shapes.get(sql) ?? (this.shapes.size < MOST_TEXTS ? this.learn(sql) : null);
      if (shape === null || shape instanceof Promise) {
        for (const call of calls) this.alone(sql, call);
        continue;
      }
      for (let start = 0; start < calls.length; start += MOST_PER_STATEMENT) {
        this.together(sql, shape, calls.slice(start, start + MOST_PER_STATEMENT));
      }
    }
  };

  private alone(sql: string, call: Call): void {
    this.send(sql, call.params).then(call.resolve, call.reject);
  }

  private together(sql: string, batched: Batched, calls: readonly Call[]): void {
    this.batches += 1;
    this.send(batched.sql, batchedParams(batched, calls)).then(
      (rows) => {
        const answers: unknown[][][] = calls.map(() => []);
        for (const row of rows) answers[(row.pop() as number) - 1]!.push(row);
        // The driver's answer (postgres 3.4's result array) outlives the read until a major collection, and every row
        // in it with it: all of a batch's rows were promoted to the old generation (a page: 5 KB a request, one
        // mark-compact every 0.6 s under load). Emptied, it keeps none, and the rows die young with their requests.
        rows.length = 0;
        for (const [index, call] of calls.entries()) call.resolve(answers[index]!);
      },
      // One call's parameters may be what failed: each runs alone and gets its own answer or error.
      (error: StorageError | Error) => {
        if ((error as StorageError).kind === 'unavailable') for (const call of calls) call.reject(error);
        else for (const call of calls) this.alone(sql, call);
      },
    );
  }

  /** Learns the batched form from the statement's parameter types; a text that cannot be batched is sent alone. */
  private learn(sql: string): Promise<Batched | undefined> {
    const learning = this.describe(sql)
      .then((types) => batchedStatement(sql, types))
      .then(async (batched) => {
        // The batched text must be valid as well (a parameter in a place a column reference cannot be).
        if (batched !== undefined) await this.describe(batched.sql);
        return batched;
      })
      .then(
        (batched) => {
          this.shapes.set(sql, batched ?? null);
          return batched;
        },
        (error: unknown) => {
          // Unreachable now is not impossible: learnt again by a later batch.
          if ((error as StorageError).kind === 'unavailable') this.shapes.delete(sql);
          else this.shapes.set(sql, null);
          return undefined;
        },
      );
    this.shapes.set(sql, learning);
    return learning;
  }
}
