// The storage of the request log (SPEC §12): what one API request was, per account and app, and the queries on it.
import type { RequestLogBatch } from './request-log-records.js';
import type { TenantScope } from './storage.js';

/** One API request as the log keeps it. */
export interface RequestLogEntry {
  readonly tenantId: string;
  readonly clientId: string;
  /** When it was answered, in ms since the epoch. */
  readonly time: number;
  readonly method: string;
  /** The path with its query, any access_token value masked. */
  readonly path: string;
  readonly version: number;
  readonly status: number;
  /** The catalogue code of an error; null on success. */
  readonly code: number | null;
  /** The error's message; null on success. */
  readonly message: string | null;
  /** Milliseconds, with sub-millisecond precision. */
  readonly durationMs: number;
  readonly requestId: string;
}

/** A stored entry; `seq` orders the log (newest is largest) and is the keyset cursor of its pages. */
export interface StoredRequest extends RequestLogEntry {
  readonly seq: number;
}

/** 2 for 2xx … 5 for 5xx. */
export type StatusClass = 2 | 3 | 4 | 5;

export interface RequestLogQuery {
  readonly clientId: string;
  readonly statusClass?: StatusClass;
  readonly requestId?: string;
  /** Only entries older than this seq (the last seq of the page before). */
  readonly before?: number;
  readonly limit: number;
}

export interface RequestLogPage {
  readonly entries: StoredRequest[];
  /** The `before` of the next page; undefined on the last. */
  readonly next?: number;
}

/** Requests of one status class that started in one bucket (an hour or a day, from `start` in ms). */
export interface UsageCount {
  readonly start: number;
  readonly statusClass: StatusClass;
  readonly count: number;
}

export const HOUR_MS = 60 * 60 * 1000;
export const DAY_MS = 24 * HOUR_MS;
/** The hourly counts are kept this long: the usage page's 30 days, and the day under way. */
export const USAGE_DAYS = 31;

export interface RequestLogStore {
  /** Writes a batch in one transaction (one statement on PostgreSQL). */
  insertBatch(batch: RequestLogBatch): Promise<void>;
  /** One app's entries of the scope's account, newest first, one keyset page. */
  list(scope: TenantScope, query: RequestLogQuery): Promise<RequestLogPage>;
  /**
   * One app's requests from the hour of `since` (ms) on, counted per bucket of `bucketMs` (a whole number of hours,
   * from the epoch, UTC) and status class. Read from the hourly counts kept beside the log (USAGE_DAYS), so neither
   * the log's age limit nor its 10,000 per app bounds them.
   */
  usage(scope: TenantScope, clientId: string, bucketMs: number, since: number): Promise<UsageCount[]>;
  /**
   * Deletes entries older than `before` (ms; undefined: none by age), and for each app given all but its newest
   * `keepPerApp`; with `usageBefore`, the hourly counts of hours that started before it. Returns how many entries went.
   */
  prune(
    before: number | undefined,
    apps: Iterable<{ readonly tenantId: string; readonly clientId: string }>,
    keepPerApp: number,
    usageBefore?: number,
  ): Promise<number>;
}

/** The class of a status (2 … 5). */
export function statusClassOf(status: number): number {
  return Math.floor(status / 100);
}

/** SQL's sums per bucket, `[start, 2xx, 3xx, 4xx, 5xx]` (numbers or numeric strings), as counts of each class. */
export function usageOf(rows: ReadonlyArray<readonly unknown[]>): UsageCount[] {
  const counts: UsageCount[] = [];
  for (const [start, ...classes] of rows) {
    classes.forEach((count, index) => {
      if (Number(count) > 0) {
        counts.push({ start: Number(start), statusClass: (index + 2) as StatusClass, count: Number(count) });
      }
    });
  }
  return counts.sort((a, b) => a.start - b.start || a.statusClass - b.statusClass);
}

/** A page of `limit` from `limit + 1` rows read: the extra row only says another page exists. */
export function pageOf(rows: StoredRequest[], limit: number): RequestLogPage {
  if (rows.length <= limit) return { entries: rows };
  const entries = rows.slice(0, limit);
  return { entries, next: entries[limit - 1]!.seq };
}
