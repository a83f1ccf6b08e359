// Group commit: the writes that arrive in one turn of the event loop share one SQLite transaction.
//
// Each write still runs in its own savepoint, so one that fails (a missing reference, an
// If-Match mismatch) rolls back alone; and none is answered before the shared COMMIT, so a
// 2xx still means durable. With many clients this turns N commits — each writing the same
// index pages to the WAL — into one.
import type Database from 'better-sqlite3';

interface Job {
  readonly work: () => unknown;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

type Result = { ok: true; value: unknown } | { ok: false; error: unknown };

export class GroupCommit {
  private queue: Job[] = [];

  constructor(private readonly db: Database.Database) {}

  /** Runs `work` (synchronous) inside the next shared transaction; resolves after it commits. */
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
    const results: Result[] = [];
    try {
      this.db.transaction(() => {
        for (const job of batch) {
          try {
            results.push({ ok: true, value: this.db.transaction(job.work)() });
          } catch (error) {
            results.push({ ok: false, error });
          }
        }
      }).immediate();
    } catch (error) {
      for (const job of batch) job.reject(error);
      return;
    }
    batch.forEach((job, index) => {
      const result = results[index]!;
      if (result.ok) job.resolve(result.value);
      else job.reject(result.error);
    });
  }
}
