// How long the service waits for PostgreSQL: every operation within a deadline, and no connection left owing an answer.
//
// When PostgreSQL's host stops answering without closing anything (a network partition, a hung host, a proxy that
// accepts and forwards nothing), nothing tells the driver (postgres 3.4): a query already sent waits for TCP
// keepalive (more than ten minutes), one queued for a connection waits behind connection attempts that each take
// connect_timeout and fail only the first query in line, and a transaction may wait for a connection the driver never
// hands over. So the service bounds both ends:
// - an operation (a statement on the pool, a transaction from its reservation to its COMMIT) fails with an
//   `unavailable` StorageError once it has waited `ms`, and a statement still queued is taken out of the queue;
// - a connection's socket that has sent something and received nothing for `ms` is destroyed, so that the driver fails
//   what it had sent and opens a new connection for the next query.
// Statements of the service take milliseconds (every read is bounded by an index; docs/performance.md), so `ms` is far
// above the slowest. Migrations, which may take minutes and wait for another node's lock, run unwatched (paused).
import type net from 'node:net';
import { StorageError } from '../storage-error.js';

/** How often waiting operations are looked at: a late one fails at most this much after its deadline. */
const SWEEP_MS = 250;

/** An operation waiting for PostgreSQL: when it began, how to fail it, and what to undo when it is late. */
interface Waiting {
  readonly since: number;
  readonly fail: (error: unknown) => void;
  readonly late: (() => void) | undefined;
}

export class Deadlines {
  /** In the order they began, which is the order of their deadlines. */
  private readonly waiting = new Set<Waiting>();
  private readonly sweeper: NodeJS.Timeout | undefined;
  /** While migrations run, nothing is timed. */
  private paused = 0;

  /** `ms`: the deadline of an operation and the silence a socket owing an answer is allowed; 0 for none. */
  constructor(private readonly ms: number) {
    if (ms > 0) this.sweeper = setInterval(() => this.sweep(), Math.min(SWEEP_MS, ms)).unref();
  }

  /**
   * `work`'s outcome, or an `unavailable` StorageError once it has waited past the deadline; then `late` runs (to
   * take a queued statement out of the queue, or to release a connection reserved too late), and `work`'s own outcome
   * is ignored.
   */
  bound<T>(work: Promise<T>, late?: () => void): Promise<T> {
    if (this.sweeper === undefined || this.paused > 0) return work;
    return new Promise<T>((resolve, reject) => {
      const waiting: Waiting = { since: performance.now(), fail: reject, late };
      this.waiting.add(waiting);
      work.then(
        (value) => {
          this.waiting.delete(waiting);
          resolve(value);
        },
        (error: unknown) => {
          this.waiting.delete(waiting);
          reject(error);
        },
      );
    });
  }

  /**
   * Watches a connection's socket: when it has written since it last received anything and stays silent for the
   * deadline, it is destroyed with ETIMEDOUT, which the driver reports as the connection's failure. (Node's socket
   * timeout counts reads and writes alike, so an idle connection also times out: it owes nothing and is left be.) A
   * socket the driver hands to TLS is not seen writing, so it is never destroyed; the operations' deadline still holds.
   */
  watch(socket: net.Socket): net.Socket {
    if (this.sweeper === undefined) return socket;
    let answeredAt = 0;
    socket.on('data', () => {
      answeredAt = socket.bytesWritten;
    });
    socket.setTimeout(this.ms, () => {
      if (this.paused > 0 || socket.bytesWritten <= answeredAt) return;
      const silent = new Error(`PostgreSQL sent nothing for ${this.ms} ms on a connection that owed an answer`);
      socket.destroy(Object.assign(silent, { code: 'ETIMEDOUT' }));
    });
    return socket;
  }

  /** Runs `work` with no deadline and no socket destroyed for its silence: for migrations, at start. */
  async unwatched<T>(work: () => Promise<T>): Promise<T> {
    this.paused += 1;
    try {
      return await work();
    } finally {
      this.paused -= 1;
    }
  }

  stop(): void {
    clearInterval(this.sweeper);
  }

  private sweep(): void {
    const due = performance.now() - this.ms;
    for (const waiting of this.waiting) {
      if (waiting.since > due) break;
      this.waiting.delete(waiting);
      const cause = new Error(`PostgreSQL did not answer within ${this.ms} ms`);
      waiting.fail(new StorageError('unavailable', { cause }));
      waiting.late?.();
    }
  }
}
