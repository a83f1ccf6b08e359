// The request log's recorder: each API request made with a valid token becomes one record in a memory buffer, written
// to the database in batches off the request path, and the log pruned by age and count now and then.
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { Counter } from 'prom-client';
import { NowAndThen } from '../now-and-then.js';
import { RecordBuffer, type Caller } from '../storage/request-log-records.js';
import { DAY_MS, USAGE_DAYS, type RequestLogStore } from '../storage/request-log-store.js';
import { callerOf, errorOf, cutText, LOGGED_PATH_MOST, maskedUrl } from './request-log-notes.js';

export interface RecorderOptions {
  /** REQUEST_LOG: off records nothing. */
  readonly enabled: boolean;
  /** REQUEST_LOG_DAYS. */
  readonly days: number;
  /** A batch is written once this many records wait… */
  readonly batchSize?: number;
  /** …or this often (ms), whichever comes first. */
  readonly flushMs?: number;
  /** The most records waiting: beyond it (a database slower than the traffic), new records are dropped and counted. */
  readonly capacity?: number;
  /** SPEC §12: at most this many entries per app. */
  readonly keepPerApp?: number;
  /** Pruning by age (and by count of every app written) runs after a flush, at most this often (ms). */
  readonly pruneEveryMs?: number;
  /**
   * An app with this many entries written since its last pruning is pruned by count after the flush, so that each
   * pruning deletes about this many entries, never a busy minute's worth at once.
   */
  readonly pruneChunk?: number;
}

export class RequestRecorder {
  readonly enabled: boolean;
  readonly batches = new Counter({
    name: 'request_log_batches_total',
    help: 'Batches of request-log records written to the database.',
    registers: [],
  });
  readonly dropped = new Counter({
    name: 'request_log_dropped_total',
    help: 'Request-log records dropped: the buffer was full (the database too slow) or their batch failed to write.',
    registers: [],
  });
  /** The buffer records are appended to. */
  private current: RecordBuffer;
  /** Full buffers waiting for their write, oldest first. */
  private readonly waiting: RecordBuffer[] = [];
  /** A written buffer kept for reuse, so a steady flow allocates no new ones. */
  private spare: RecordBuffer | undefined;
  private flushing: Promise<void> | undefined;
  private readonly timer: NodeJS.Timeout | undefined;
  /** The apps written since their last pruning, with how many entries: only they can have grown past their count. */
  private readonly touched = new Map<string, { readonly caller: Caller; written: number }>();
  private readonly prunes: NowAndThen;
  private readonly batchSize: number;
  private readonly capacity: number;
  /** Records in the waiting buffers. */
  private waitingRecords = 0;
  private readonly keepPerApp: number;
  private readonly pruneChunk: number;
  private readonly days: number;

  constructor(
    private readonly store: RequestLogStore,
    options: RecorderOptions,
    private readonly log: FastifyBaseLogger,
  ) {
    this.enabled = options.enabled;
    this.days = options.days;
    this.batchSize = options.batchSize ?? 2000;
    this.capacity = options.capacity ?? 20000;
    this.current = new RecordBuffer(this.batchSize);
    this.keepPerApp = options.keepPerApp ?? 10000;
    this.prunes = new NowAndThen(options.pruneEveryMs ?? 60000);
    this.pruneChunk = options.pruneChunk ?? 1000;
    if (this.enabled) {
      this.timer = setInterval(() => void this.flush(), options.flushMs ?? 1000);
      this.timer.unref();
    }
  }

  /**
   * The onResponse hook's part: the request's fields appended to the buffer's bytes, nothing awaited, no object kept.
   * Requests without a valid token are not logged.
   */
  record(request: FastifyRequest, status: number, durationMs: number, version: number): void {
    const caller = callerOf(request);
    if (caller === undefined) return;
    if (this.waitingRecords + this.current.size >= this.capacity) {
      this.dropped.inc();
      return;
    }
    if (!this.current.hasRoom) this.rotate();
    const error = errorOf(request);
    this.current.append(
      caller,
      Date.now(),
      request.method,
      cutText(maskedUrl(request.originalUrl), LOGGED_PATH_MOST),
      request.id,
      // An error answered as a 200 (suppress_response_codes) is logged with its real status, so it counts as one.
      error ? error.status : status,
      error ? error.code : 0,
      error?.message,
      durationMs,
      version,
    );
    if (this.current.size >= this.batchSize) {
      this.rotate();
      void this.flush();
    }
  }

  /** Writes what waits (one flush at a time; a call during one waits for it). */
  flush(): Promise<void> {
    this.flushing ??= this.drain().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  /** Stops the timer and writes everything left (the app's close, on SIGTERM). */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    while (this.flushing || this.current.size > 0 || this.waiting.length > 0) await this.flush();
  }

  /**
   * Once per interval, entries older than REQUEST_LOG_DAYS, usage counts older than USAGE_DAYS, and all but the
   * newest of every app written since; in between, all but the newest of the apps that wrote a chunk since their last
   * pruning.
   */
  async prune(): Promise<void> {
    const due = this.prunes.due();
    const apps: Caller[] = [];
    for (const [key, app] of this.touched) {
      if (!due && app.written < this.pruneChunk) continue;
      apps.push(app.caller);
      this.touched.delete(key);
    }
    if (!due && apps.length === 0) return;
    try {
      const now = Date.now();
      await this.store.prune(
        due ? now - this.days * DAY_MS : undefined,
        apps,
        this.keepPerApp,
        due ? now - USAGE_DAYS * DAY_MS : undefined,
      );
    } catch (error) {
      this.log.error({ err: error }, 'request log: pruning failed');
    }
  }

  /** The current buffer joins the waiting ones and an empty one takes its place. */
  private rotate(): void {
    this.waiting.push(this.current);
    this.waitingRecords += this.current.size;
    this.current = this.spare ?? new RecordBuffer(this.batchSize);
    this.spare = undefined;
  }

  private async drain(): Promise<void> {
    if (this.waiting.length === 0 && this.current.size > 0) this.rotate();
    for (let batch = this.waiting.shift(); batch; batch = this.waiting.shift()) {
      await this.write(batch);
      this.waitingRecords -= batch.size;
      batch.clear();
      this.spare = batch;
    }
    if (this.touched.size > 0) await this.prune();
  }

  private async write(batch: RecordBuffer): Promise<void> {
    try {
      await this.store.insertBatch(batch);
      this.batches.inc();
      for (const [caller, count] of batch.counts()) this.touch(caller, count);
    } catch (error) {
      this.dropped.inc(batch.size);
      this.log.error({ err: error }, `request log: a batch of ${batch.size} records could not be written`);
    }
  }

  /** Counts an app's written entries towards its next pruning by count. */
  private touch(caller: Caller, count: number): void {
    const key = `${caller.tenantId} ${caller.clientId}`;
    const app = this.touched.get(key);
    if (app) app.written += count;
    else this.touched.set(key, { caller, written: count });
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The request log's recorder: tests flush it; the app's close writes what is left. */
    readonly requestRecorder: RequestRecorder;
  }
}
