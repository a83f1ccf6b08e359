// The request log's recorder: each API request made with a valid token becomes one record in a memory buffer, written
// to the database in batches off the request path, and the log pruned by age and count now and then.
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { Counter } from 'prom-client';
import type { ApiError } from '../errors.js';
import { NowAndThen } from '../now-and-then.js';
import { DAY_MS, type RequestLogEntry, type RequestLogStore } from '../storage/request-log-store.js';
import { callerOf, errorOf, maskedUrl, type Caller } from './request-log-notes.js';

export interface RecorderOptions {
  /** REQUEST_LOG: off records nothing. */
  readonly enabled: boolean;
  /** REQUEST_LOG_DAYS. */
  readonly days: number;
  /** A batch is written once this many records wait… */
  readonly batchSize?: number;
  /** …or this often (ms), whichever comes first. */
  readonly flushMs?: number;
  /** The most records one statement writes. */
  readonly maxBatch?: number;
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

/**
 * What the hook keeps of a request: references to strings it has already, no formatting (the URL is masked when the
 * batch is written), and not the request itself, which would keep its body and socket alive until the flush.
 */
interface Pending {
  readonly caller: Caller;
  readonly time: number;
  readonly method: string;
  readonly url: string;
  readonly requestId: string;
  readonly error: ApiError | undefined;
  readonly status: number;
  readonly durationMs: number;
  readonly version: number;
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
  private buffer: Pending[] = [];
  private flushing: Promise<void> | undefined;
  private readonly timer: NodeJS.Timeout | undefined;
  /** The apps written since their last pruning, with how many entries: only they can have grown past their count. */
  private readonly touched = new Map<string, { readonly caller: Caller; written: number }>();
  private readonly prunes: NowAndThen;
  private readonly batchSize: number;
  private readonly maxBatch: number;
  private readonly capacity: number;
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
    this.batchSize = options.batchSize ?? 500;
    this.maxBatch = options.maxBatch ?? 2000;
    this.capacity = options.capacity ?? 20000;
    this.keepPerApp = options.keepPerApp ?? 10000;
    this.prunes = new NowAndThen(options.pruneEveryMs ?? 60000);
    this.pruneChunk = options.pruneChunk ?? 1000;
    if (this.enabled) {
      this.timer = setInterval(() => void this.flush(), options.flushMs ?? 1000);
      this.timer.unref();
    }
  }

  /** The onResponse hook's part: one object pushed, nothing awaited. Requests without a valid token are not logged. */
  record(request: FastifyRequest, status: number, durationMs: number, version: number): void {
    const caller = callerOf(request);
    if (caller === undefined) return;
    if (this.buffer.length >= this.capacity) {
      this.dropped.inc();
      return;
    }
    this.buffer.push({
      caller,
      time: Date.now(),
      method: request.method,
      url: request.originalUrl,
      requestId: request.id,
      error: errorOf(request),
      status,
      durationMs,
      version,
    });
    if (this.buffer.length === this.batchSize) void this.flush();
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
    while (this.flushing || this.buffer.length > 0) await this.flush();
  }

  /**
   * Once per interval, entries older than REQUEST_LOG_DAYS and all but the newest of every app written since; in
   * between, all but the newest of the apps that wrote a chunk since their last pruning.
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
      await this.store.prune(due ? Date.now() - this.days * DAY_MS : undefined, apps, this.keepPerApp);
    } catch (error) {
      this.log.error({ err: error }, 'request log: pruning failed');
    }
  }

  private async drain(): Promise<void> {
    while (this.buffer.length > 0) {
      await this.write(this.take());
      if (this.buffer.length < this.batchSize) break;
    }
    if (this.touched.size > 0) await this.prune();
  }

  private take(): Pending[] {
    if (this.buffer.length <= this.maxBatch) {
      const batch = this.buffer;
      this.buffer = [];
      return batch;
    }
    return this.buffer.splice(0, this.maxBatch);
  }

  private async write(batch: Pending[]): Promise<void> {
    const entries = batch.map((pending) => this.entryOf(pending));
    try {
      await this.store.insertBatch(entries);
      this.batches.inc();
    } catch (error) {
      this.dropped.inc(batch.length);
      this.log.error({ err: error }, `request log: a batch of ${batch.length} records could not be written`);
    }
  }

  private entryOf(pending: Pending): RequestLogEntry {
    const { caller, error } = pending;
    const { tenantId, clientId } = caller;
    const key = `${tenantId} ${clientId}`;
    const app = this.touched.get(key);
    if (app) app.written += 1;
    else this.touched.set(key, { caller, written: 1 });
    return {
      tenantId,
      clientId,
      time: pending.time,
      method: pending.method,
      path: maskedUrl(pending.url),
      version: pending.version,
      // An error answered as a 200 (suppress_response_codes) is logged with its real status, so it counts as one.
      status: error ? error.status : pending.status,
      code: error ? error.code : null,
      message: error ? error.message : null,
      durationMs: pending.durationMs,
      requestId: pending.requestId,
    };
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The request log's recorder: tests flush it; the app's close writes what is left. */
    readonly requestRecorder: RequestRecorder;
  }
}
