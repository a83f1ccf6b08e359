// The request log in the SQLite database: one row per flush and app (the records as the recorder packed them,
// request-log-records.ts), one range of rows per app, batches written through the storage's group commit; the
// portal's rare reads unpack.
import {
  type RequestLogPage,
  type RequestLogQuery,
  type RequestLogStore,
  hourOf,
  usageOf,
  type StoredRequest,
  type UsageCount,
} from '../request-log-store.js';
import type { TenantScope } from '../storage.js';
import type { GroupCommit } from './group-commit.js';
import type { Statements } from './statements.js';
import {
  NewestFirst,
  offsetOf,
  olderThan,
  packedRow,
  unpack,
  type PackedApp,
  type RequestLogBatch,
} from '../request-log-records.js';

/** A request_log row as read (entries still packed). */
interface BatchRow {
  tenantId: string;
  clientId: string;
  firstSeq: number;
  entries: Buffer;
}

const ROW = 'tenant_id AS tenantId, client_id AS clientId, first_seq AS firstSeq, entries';

const INSERT =
  'INSERT INTO request_log (tenant_id, client_id, first_seq, count, first_time, last_time, count_2xx, count_3xx, ' +
  'count_4xx, count_5xx, entries) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)';

const ADD_USAGE =
  'INSERT INTO request_usage (tenant_id, client_id, hour, count_2xx, count_3xx, count_4xx, count_5xx) ' +
  'VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (tenant_id, client_id, hour) DO UPDATE SET ' +
  'count_2xx = count_2xx + excluded.count_2xx, count_3xx = count_3xx + excluded.count_3xx, ' +
  'count_4xx = count_4xx + excluded.count_4xx, count_5xx = count_5xx + excluded.count_5xx';

// Each hour's start down to its bucket's (% works on integers in both databases, whatever the bound type).
const USAGE =
  'SELECT hour - hour % ? AS start, sum(count_2xx), sum(count_3xx), sum(count_4xx), sum(count_5xx) ' +
  'FROM request_usage WHERE tenant_id = ? AND client_id = ? AND hour >= ? GROUP BY start ORDER BY start';

const LAST_SEQ =
  'SELECT first_seq + count - 1 FROM request_log WHERE tenant_id = ? AND client_id = ? ORDER BY first_seq DESC LIMIT 1';

export class SqliteRequestLog implements RequestLogStore {
  /**
   * The last seq of each app written by this process: only this process writes the database (its lock is exclusive),
   * so the database's last is read once per app.
   */
  private readonly lastSeq = new Map<string, number>();

  constructor(
    private readonly statements: Statements,
    private readonly writes: GroupCommit,
  ) {}

  async insertBatch(batch: RequestLogBatch): Promise<void> {
    // Each app's records of the batch become one row, its bytes as packed; one job of the group commit writes them.
    const apps = batch.apps();
    const hours = batch.hours();
    await this.writes.run(() => {
      for (const app of apps) this.insertRow(app, this.takeSeqs(app.tenantId, app.clientId, app.count));
      const add = this.statements.get(ADD_USAGE);
      for (const { tenantId, clientId, hour, classes } of hours) add.run(tenantId, clientId, hour, ...classes);
    });
  }

  async list(scope: TenantScope, query: RequestLogQuery): Promise<RequestLogPage> {
    let sql = `SELECT ${ROW} FROM request_log WHERE tenant_id = ? AND client_id = ?`;
    const params: unknown[] = [scope.tenantId, query.clientId];
    // A row without a request of the class is skipped unread (StatusClass is 2 … 5: the column name is safe).
    if (query.statusClass !== undefined) sql += ` AND count_${query.statusClass}xx > 0`;
    // instr() on the packed bytes finds the rows that can hold the id without unpacking the others.
    if (query.requestId !== undefined) {
      sql += ' AND instr(entries, ?) > 0';
      params.push(Buffer.from(query.requestId));
    }
    if (query.before !== undefined) {
      sql += ' AND first_seq < ?';
      params.push(query.before);
    }
    sql += ' ORDER BY first_seq DESC';
    const page = new NewestFirst(query);
    for (const row of this.iterate<BatchRow>(sql, params)) if (page.add(unpackRow(row))) break;
    return page.page();
  }

  async usage(scope: TenantScope, clientId: string, bucketMs: number, since: number): Promise<UsageCount[]> {
    const rows = this.statements.raw(USAGE).all(bucketMs, scope.tenantId, clientId, hourOf(since));
    return usageOf(rows as unknown[][]);
  }

  async prune(
    before: number | undefined,
    apps: Iterable<{ readonly tenantId: string; readonly clientId: string }>,
    keepPerApp: number,
    usageBefore?: number,
  ): Promise<number> {
    return this.writes.run(() => {
      if (usageBefore !== undefined) this.statements.get('DELETE FROM request_usage WHERE hour < ?').run(usageBefore);
      let deleted = before === undefined ? 0 : this.pruneOlder(before);
      // seq is counted per app: its newest keepPerApp are the last keepPerApp numbers, found without a walk.
      for (const { tenantId, clientId } of apps) {
        const last = this.statements.pluck(LAST_SEQ).get(tenantId, clientId) as number | undefined;
        if (last !== undefined && last > keepPerApp) deleted += this.pruneUpTo(tenantId, clientId, last - keepPerApp);
      }
      return deleted;
    });
  }

  private insertRow(app: PackedApp, firstSeq: number): void {
    const { tenantId, clientId, count, firstTime, lastTime, classes, bytes } = app;
    this.statements.get(INSERT).run(tenantId, clientId, firstSeq, count, firstTime, lastTime, ...classes, bytes);
  }

  /** Reserves `count` seqs of an app, returns the first: one more than its last. */
  private takeSeqs(tenantId: string, clientId: string, count: number): number {
    const key = `${tenantId} ${clientId}`;
    const last =
      this.lastSeq.get(key) ?? (this.statements.pluck(LAST_SEQ).get(tenantId, clientId) as number | undefined) ?? 0;
    this.lastSeq.set(key, last + count);
    return last + 1;
  }

  /** Deletes an app's requests up to seq `cutoff`: the rows wholly before it, and the start of the row across it. */
  private pruneUpTo(tenantId: string, clientId: string, cutoff: number): number {
    const whole = 'tenant_id = ? AND client_id = ? AND first_seq + count - 1 <= ?';
    const gone = this.statements.pluck(`SELECT total(count) FROM request_log WHERE ${whole}`);
    let deleted = gone.get(tenantId, clientId, cutoff) as number;
    this.statements.get(`DELETE FROM request_log WHERE ${whole}`).run(tenantId, clientId, cutoff);
    const across = this.statements
      .get(`SELECT ${ROW} FROM request_log WHERE tenant_id = ? AND client_id = ? AND first_seq <= ?`)
      .get(tenantId, clientId, cutoff) as BatchRow | undefined;
    if (across) deleted += this.trim(across, cutoff - across.firstSeq + 1);
    return deleted;
  }

  /**
   * Deletes the requests older than `before`: the rows wholly older, then the old start of the rows across it
   * (within an app seq order is time order, so the first young request bounds what goes, as with one row per request).
   * Each is one pass over the rows' small columns, once a minute.
   */
  private pruneOlder(before: number): number {
    let deleted = this.statements
      .pluck('SELECT total(count) FROM request_log WHERE last_time < ?')
      .get(before) as number;
    this.statements.get('DELETE FROM request_log WHERE last_time < ?').run(before);
    const across = this.statements.get(`SELECT ${ROW} FROM request_log WHERE first_time < ?`).all(before) as BatchRow[];
    for (const row of across) deleted += this.trim(row, olderThan(row.entries, before));
    return deleted;
  }

  /** Replaces a row by its requests after the first `drop` (the records' bytes sliced, not unpacked). */
  private trim(row: BatchRow, drop: number): number {
    if (drop === 0) return 0;
    const { tenantId, clientId, firstSeq, entries } = row;
    this.statements
      .get('DELETE FROM request_log WHERE tenant_id = ? AND client_id = ? AND first_seq = ?')
      .run(tenantId, clientId, firstSeq);
    const rest = entries.subarray(offsetOf(entries, drop));
    if (rest.length === 0) return drop;
    this.insertRow(packedRow({ tenantId, clientId }, rest), firstSeq + drop);
    return drop;
  }

  private *iterate<Row>(sql: string, params: readonly unknown[]): Generator<Row> {
    try {
      yield* this.statements.get(sql).iterate(...params) as IterableIterator<Row>;
    } catch (error) {
      throw this.statements.failure(error);
    }
  }
}

function unpackRow({ tenantId, clientId, firstSeq, entries }: BatchRow): StoredRequest[] {
  return unpack(entries, { tenantId, clientId }, firstSeq);
}
