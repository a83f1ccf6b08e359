// Group commit on PostgreSQL: writes of one statement each, made in the same turn of the event loop, commit together.
//
// A create is one statement that commits on its own, and PostgreSQL flushes the WAL to disk at every commit
// (synchronous_commit, as in production). Under load the flush, and the wake-ups of the backend and of Node around it,
// cost more than the statement: a POST cost PostgreSQL 374 µs and Node 348 µs with each create committed alone, 218 and
// 202 µs without the flush. Concurrent creates are therefore collected until the check phase of
// the turn, like reads (read-batch.ts), and sent pipelined on one connection between BEGIN and COMMIT: one round trip
// and one flush for all of them. Each caller is answered once COMMIT has, so nothing is acknowledged before it is
// durable. If a statement fails, the transaction rolls back and each runs again alone, so that only a bad call fails
// (a check that finds a reference missing is no failure: the statement writes nothing and says so). If the database
// is unavailable, every call fails with it: their outcome is unknown, and running them again could write twice.
//
// Writes of one text that say how to make several at once (`batched`: a create) are, within a group, one statement:
// each parameter becomes the array of every call's value, as a turn's reads are batched (read-batch.ts). A statement
// of its own cost each create PostgreSQL about 40 µs and the driver about 50 µs more than its share of one for 50
// rows. If the batched statement fails, the group runs each write alone, as above.
import { batchedParams } from './read-batch.js';
import type { StorageError } from '../storage-error.js';

/**
 * A statement that commits on its own: its rows, or the number of rows it changed; `none` when no caller reads it (a
 * batched statement's count is no one call's).
 */
export interface Write {
  readonly sql: string;
  readonly params: readonly unknown[];
  readonly answer: 'rows' | 'count' | 'none';
  /**
   * For a write that answers nothing: the statement that makes the writes of several calls of `sql` at once, given
   * for each parameter the array of the calls' values (an array value as its array literal, in a text[]).
   */
  readonly batched?: string;
}

/** Runs one write alone, or several in one transaction (their answers in order). */
export interface WriteTarget {
  alone(write: Write): Promise<unknown>;
  together(writes: readonly Write[]): Promise<unknown[]>;
}

/** At most this many writes share a transaction; more are split. */
const MOST_PER_COMMIT = 64;

interface Call extends Write {
  resolve(answer: unknown): void;
  reject(error: unknown): void;
}

export class GroupCommit {
  private waiting: Call[] = [];
  /** Transactions sent for several writes (tests). */
  groups = 0;

  constructor(private readonly target: WriteTarget) {}

  write(write: Write): Promise<unknown> {
    return new Promise((resolve, reject) => {
      if (this.waiting.length === 0) setImmediate(this.flush);
      this.waiting.push({ ...write, resolve, reject });
    });
  }

  private readonly flush = (): void => {
    // In the order of their texts, so that two groups lock rows of the same tables (a resource's kept count) in the
    // same order and cannot deadlock on them.
    const calls = this.waiting.sort((a, b) => (a.sql < b.sql ? -1 : a.sql > b.sql ? 1 : 0));
    this.waiting = [];
    if (calls.length === 1) {
      this.alone(calls[0]!);
      return;
    }
    for (let start = 0; start < calls.length; start += MOST_PER_COMMIT) {
      this.together(calls.slice(start, start + MOST_PER_COMMIT));
    }
  };

  private alone(call: Call): void {
    this.target.alone(call).then(call.resolve, call.reject);
  }

  private together(calls: readonly Call[]): void {
    this.groups += 1;
    const { writes, shares } = combined(calls);
    this.target.together(writes).then(
      (answers) => {
        for (const [index, share] of shares.entries()) for (const call of share) call.resolve(answers[index]);
      },
      (error: StorageError | Error) => {
        if ((error as StorageError).kind === 'unavailable') for (const call of calls) call.reject(error);
        else for (const call of calls) this.alone(call);
      },
    );
  }
}

/**
 * The statements of a group (sorted by text): each run of calls of one batchable text becomes its batched statement,
 * any other call stays as it is; `shares` says which calls each statement answers.
 */
function combined(calls: readonly Call[]): { writes: Write[]; shares: Call[][] } {
  const writes: Write[] = [];
  const shares: Call[][] = [];
  for (let at = 0; at < calls.length;) {
    const call = calls[at]!;
    let end = at + 1;
    if (call.batched !== undefined) while (end < calls.length && calls[end]!.sql === call.sql) end += 1;
    const share = calls.slice(at, end);
    if (share.length === 1) writes.push(call);
    else {
      // As a batch of reads carries its parameters (read-batch.ts): an array value (the keys) as its literal.
      const batched = { sql: call.batched!, literal: call.params.map((value) => Array.isArray(value)) };
      writes.push({ sql: batched.sql, params: batchedParams(batched, share), answer: 'none' });
    }
    shares.push(share);
    at = end;
  }
  return { writes, shares };
}
