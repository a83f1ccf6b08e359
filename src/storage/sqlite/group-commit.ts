// Group commit: the writes that arrive in one turn of the event loop share one SQLite transaction.
//
// With many clients this turns N commits — each writing the same index pages to the WAL — into
// one, and none is answered before the shared COMMIT, so a 2xx still means durable. A batch
// first runs its writes one after the other, with nothing between them. Should one of them
// fail (a missing reference, an If-Match mismatch), the whole transaction is rolled back and the
// batch runs again with each write in its own savepoint, so that the failed one rolls back alone
// and the others commit. A SAVEPOINT and a RELEASE per write cost as much as the write's own
// insert, so only the rare failing batch pays for them.
import type Database from 'better-sqlite3';
import { sqliteFailure } from './statements.js';

interface Job {
  readonly work: () => unknown;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

type Result = { ok: true; value: unknown } | { ok: false; error: unknown };

export class GroupCommit {
  private queue: Job[] = [];
  /** A batch in one BEGIN IMMEDIATE … COMMIT, its writes one after the other; any failure rolls it all back. */
  private readonly commitTogether: (batch: readonly Job[]) => unknown[];
  /**
   * A batch in one transaction, each write in its own savepoint (better-sqlite3 nests a transaction function as a
   * SAVEPOINT).
   */
  private readonly commitIsolated: (batch: readonly Job[]) => Result[];

  constructor(private readonly db: Database.Database) {
    this.commitTogether = db.transaction((batch: readonly Job[]) => batch.map((job) => job.work())).immediate;
    const inSavepoint = db.transaction((work: () => unknown) => work());
    this.commitIsolated = db.transaction((batch: readonly Job[]) =>
      batch.map((job): Result => {
        try {
          return { ok: true, value: inSavepoint(job.work) };
        } catch (error) {
          return { ok: false, error };
        }
      }),
    ).immediate;
  }

  /**
   * Runs `work` inside the next shared transaction and resolves after it commits. `work` must be
   * synchronous and act on the database only (what it computes from its own inputs is captured
   * before): when another write of its batch fails, it runs a second time, and only the
   * effects of the run that commits remain.
   */
  run<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (this.queue.length === 1) setImmediate(() => this.flush());
    });
  }

  /** Commits what is queued now (before the database closes). */
  drain(): void {
    this.flush();
  }

  private flush(): void {
    const batch = this.queue;
    if (batch.length === 0) return;
    this.queue = [];
    let values: unknown[];
    try {
      values = this.commitTogether(batch);
    } catch {
      // Rolled back: find the failing write(s) with a savepoint each, and commit the others.
      this.flushIsolated(batch);
      return;
    }
    batch.forEach((job, index) => job.resolve(values[index]));
  }

  private flushIsolated(batch: readonly Job[]): void {
    let results: Result[];
    try {
      results = this.commitIsolated(batch);
    } catch (error) {
      // The transaction itself failed (BEGIN or COMMIT: busy, I/O, a closed database): every write with it.
      const failure = sqliteFailure(this.db, error);
      for (const job of batch) job.reject(failure);
      return;
    }
    batch.forEach((job, index) => {
      const result = results[index]!;
      if (result.ok) job.resolve(result.value);
      else job.reject(sqliteFailure(this.db, result.error));
    });
  }
}
