// The request log in the PostgreSQL database: as on SQLite, one row per flush and app holding the records as the
// recorder packed them (request-log-records.ts); the portal's rare reads unpack. Several nodes write, so a row's seqs
// are a block of a shared sequence rather than an app's running count.
import {
  hourOf,
  usageOf,
  type RequestLogPage,
  type RequestLogQuery,
  type RequestLogStore,
  type UsageCount,
} from '../request-log-store.js';
import {
  NewestFirst,
  offsetOf,
  olderThan,
  packedRow,
  unpack,
  type Caller,
  type HourCount,
  type PackedApp,
  type RequestLogBatch,
} from '../request-log-records.js';
import type { TenantScope } from '../storage.js';
import type { Connection } from './connection.js';

/**
 * Seqs per row: a row's records are numbered from `first_seq` (those kept are `first_seq + hidden` up to
 * `first_seq + hidden + count − 1`), and `first_seq` is a multiple of this from the sequence `request_log_rows` (one
 * nextval per row, so nodes never wait for each other). A flush holds at most a buffer's records (2,000); a longer run
 * of one app is written as several rows.
 */
export const SEQS_PER_ROW = 65536;

const COLUMNS =
  'tenant_id, client_id, first_seq, count, first_time, last_time, count_2xx, count_3xx, count_4xx, count_5xx, entries';

/** A packed row, its seqs a new block. */
export const PACKED_INSERT = `INSERT INTO request_log (${COLUMNS})
  VALUES ($1, $2, nextval('request_log_rows') * ${SEQS_PER_ROW}, $3, $4, $5, $6, $7, $8, $9, $10)`;

/** Packed rows by COPY, in its binary format (copyData); each row's seqs a new block, from first_seq's default. */
const COPY_COLUMNS = COLUMNS.split(', ').filter((column) => column !== 'first_seq');
const COPY_ROWS = `COPY request_log (${COPY_COLUMNS.join(', ')}) FROM STDIN (FORMAT binary)`;

/**
 * Pruning hides a row's oldest records rather than rewriting the row (a row is up to a flush of one app, about 200 KB,
 * and its rewrite was half the request log's cost to PostgreSQL): `hidden` records at the start
 * of `entries` are gone, and `count`, `first_time` and the class counts describe the rest. Pruning by count leaves
 * `first_time` and the class counts as they were (an earlier time, counts that may be too high: a row is at worst read
 * once more by pruning by age, or by a page of one status class); pruning by age, which reads the row, makes them exact.
 */
const HIDE = `UPDATE request_log SET hidden = $4, count = $5, first_time = $6, last_time = $7, count_2xx = $8,
    count_3xx = $9, count_4xx = $10, count_5xx = $11
  WHERE tenant_id = $1 AND client_id = $2 AND first_seq = $3 AND hidden = $12`;

const ADD_USAGE =
  'INSERT INTO request_usage (tenant_id, client_id, hour, count_2xx, count_3xx, count_4xx, count_5xx) ' +
  'SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[], ' +
  '$7::bigint[]) ON CONFLICT (tenant_id, client_id, hour) DO UPDATE SET ' +
  'count_2xx = request_usage.count_2xx + excluded.count_2xx, count_3xx = request_usage.count_3xx + excluded.count_3xx, ' +
  'count_4xx = request_usage.count_4xx + excluded.count_4xx, count_5xx = request_usage.count_5xx + excluded.count_5xx';

// Each hour's start down to its bucket's (% works on integers in both databases, whatever the bound type).
const USAGE =
  'SELECT hour - hour % $1 AS start, sum(count_2xx), sum(count_3xx), sum(count_4xx), sum(count_5xx) ' +
  'FROM request_usage WHERE tenant_id = $2 AND client_id = $3 AND hour >= $4 GROUP BY start ORDER BY start';

/** A row as read: its key, hidden records and records (Row, storedOf). */
const ROW = 'tenant_id, client_id, first_seq, hidden, entries';

/**
 * All but an app's newest `$3` requests, in one statement: the newest row whose requests and those of every newer row
 * make at least `$3` (the cut) with how many of its own go; the rows older than it deleted, its oldest hidden. Both
 * only as the statement's snapshot saw them, so that of two nodes pruning the same app at once the second waits for
 * the first and then finds nothing left to do (the deleted rows gone, the cut's `hidden` changed). Gives the number of
 * requests that went.
 */
const PRUNE_APP = `WITH cut AS (
    SELECT first_seq, hidden, count - ($3 - coalesce(newer, 0)) AS drop FROM (SELECT first_seq, hidden, count,
        sum(count) OVER (ORDER BY first_seq DESC ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS newer
      FROM request_log WHERE tenant_id = $1 AND client_id = $2) r
    WHERE coalesce(newer, 0) + count >= $3 ORDER BY first_seq DESC LIMIT 1),
  gone AS (DELETE FROM request_log WHERE tenant_id = $1 AND client_id = $2
    AND first_seq < (SELECT first_seq FROM cut) RETURNING count),
  hid AS (UPDATE request_log r SET hidden = r.hidden + cut.drop, count = r.count - cut.drop FROM cut
    WHERE r.tenant_id = $1 AND r.client_id = $2 AND r.first_seq = cut.first_seq AND r.hidden = cut.hidden
      AND cut.drop > 0 RETURNING cut.drop)
  SELECT (SELECT coalesce(sum(count), 0) FROM gone) + (SELECT coalesce(sum(drop), 0) FROM hid)`;

/** Rows read per statement while a page is gathered (a row holds up to a flush of one app). */
const ROWS_PER_READ = 8;

type Row = [string, string, string, number, Buffer];

/** A request_log row's key and records, the first `hidden` of them pruned. */
interface Stored {
  readonly caller: Caller;
  readonly firstSeq: number;
  readonly hidden: number;
  readonly entries: Buffer;
}

function storedOf([tenantId, clientId, firstSeq, hidden, entries]: Row): Stored {
  return { caller: { tenantId, clientId }, firstSeq: Number(firstSeq), hidden, entries };
}

/** A row's requests that are not hidden, oldest first, with their seqs. */
function requestsOf({ caller, firstSeq, hidden, entries }: Stored) {
  return unpack(entries.subarray(offsetOf(entries, hidden)), caller, firstSeq + hidden);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export class PostgresRequestLog implements RequestLogStore {
  constructor(private readonly db: Connection) {}

  /**
   * A flush's rows go in by COPY in binary: an INSERT's bytea parameter is sent as hex text, and the driver made about
   * five copies of a flush's records on the way (the hex string and its flattening among them) which, living until
   * the INSERT answered, brought a major collection every second or so under load.
   */
  async insertBatch(batch: RequestLogBatch): Promise<void> {
    const rows = batch.apps().flatMap(rowsOf);
    const usage = usageColumns(batch.hours());
    await this.db.transaction(async (tx) => {
      tx.queue(ADD_USAGE, usage);
      await tx.copyIn(COPY_ROWS, copyData(rows));
    });
  }

  async list(scope: TenantScope, query: RequestLogQuery): Promise<RequestLogPage> {
    let sql = `SELECT ${ROW} FROM request_log WHERE tenant_id = $1 AND client_id = $2`;
    const params: unknown[] = [scope.tenantId, query.clientId];
    // A row without a request of the class is skipped unread (StatusClass is 2 … 5: the column name is safe).
    if (query.statusClass !== undefined) sql += ` AND count_${query.statusClass}xx > 0`;
    // position() on the packed bytes finds the rows that can hold the id without unpacking the others.
    if (query.requestId !== undefined) {
      params.push(Buffer.from(query.requestId));
      sql += ` AND position($${params.length}::bytea IN entries) > 0`;
    }
    // The row holding `before` starts below it; rows from there down are read a few at a time.
    params.push(query.before ?? Number.MAX_SAFE_INTEGER);
    sql += ` AND first_seq < $${params.length} ORDER BY first_seq DESC LIMIT ${ROWS_PER_READ}`;
    const page = new NewestFirst(query);
    for (;;) {
      const rows = (await this.db.rows<Row>(sql, params)).map(storedOf);
      for (const row of rows) if (page.add(requestsOf(row))) return page.page();
      if (rows.length < ROWS_PER_READ) return page.page();
      params[params.length - 1] = rows.at(-1)!.firstSeq;
    }
  }

  async usage(scope: TenantScope, clientId: string, bucketMs: number, since: number): Promise<UsageCount[]> {
    const rows = await this.db.rows(USAGE, [bucketMs, scope.tenantId, clientId, hourOf(since)]);
    return usageOf(rows);
  }

  async prune(
    before: number | undefined,
    apps: Iterable<{ readonly tenantId: string; readonly clientId: string }>,
    keepPerApp: number,
    usageBefore?: number,
  ): Promise<number> {
    if (usageBefore !== undefined) await this.db.run('DELETE FROM request_usage WHERE hour < $1', [usageBefore]);
    let deleted = before === undefined ? 0 : await this.pruneOlder(before);
    for (const app of apps) deleted += await this.pruneApp(app.tenantId, app.clientId, keepPerApp);
    return deleted;
  }

  /**
   * Deletes the requests older than `before`: the rows wholly older, then the old start of the rows across it hidden
   * (within an app seq order is time order). One pass over the rows' small columns, once a minute.
   */
  private async pruneOlder(before: number): Promise<number> {
    const [[gone]] = await this.db.rows<[string]>(
      'WITH gone AS (DELETE FROM request_log WHERE last_time < $1 RETURNING count) SELECT coalesce(sum(count), 0) FROM gone',
      [before],
    );
    let deleted = Number(gone);
    const across = await this.db.rows<Row>(`SELECT ${ROW} FROM request_log WHERE first_time < $1`, [before]);
    for (const row of across.map(storedOf)) deleted += await this.hide(row, olderThan(row.entries, before));
    return deleted;
  }

  /** All but an app's newest `keep` requests (PRUNE_APP). */
  private async pruneApp(tenantId: string, clientId: string, keep: number): Promise<number> {
    const [[deleted]] = await this.db.rows<[string]>(PRUNE_APP, [tenantId, clientId, keep]);
    return Number(deleted);
  }

  /**
   * Hides a row's first `older` records (or as many as it hides already, if more) and makes its count, time range and
   * class counts those of the rest: only if no other node changed it since it was read. Gives the requests it hid.
   */
  private async hide(row: Stored, older: number): Promise<number> {
    const hidden = Math.max(row.hidden, older);
    const rest = packedRow(row.caller, row.entries.subarray(offsetOf(row.entries, hidden)));
    const { tenantId, clientId, count, firstTime, lastTime, classes } = rest;
    const changed = await this.db.run(HIDE, [
      tenantId,
      clientId,
      row.firstSeq,
      hidden,
      count,
      firstTime,
      lastTime,
      ...classes,
      row.hidden,
    ]);
    return changed === 1 ? hidden - row.hidden : 0;
  }
}

/** An app's records of a flush as rows of at most SEQS_PER_ROW − 1 records each (one, unless the flush was huge). */
function rowsOf(app: PackedApp): PackedApp[] {
  if (app.count < SEQS_PER_ROW) return [app];
  const rows: PackedApp[] = [];
  for (let done = 0; done < app.count; done += SEQS_PER_ROW - 1) {
    const from = offsetOf(app.bytes, done);
    rows.push(packedRow(app, app.bytes.subarray(from, offsetOf(app.bytes, done + SEQS_PER_ROW - 1))));
  }
  return rows;
}

/** COPY's binary format begins with this signature, then 32-bit flags and header extension length (both 0). */
const COPY_SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

/**
 * Rows in COPY's binary format (PostgreSQL's COPY, "Binary Format"): after the header, each row is its number of
 * fields (16 bits) and each field's length (32 bits) and value in its type's binary form, big-endian, in COPY_COLUMNS'
 * order; the end is a field count of −1. The records' bytes are copied once, into this buffer.
 */
function copyData(rows: readonly PackedApp[]): Buffer {
  let size = COPY_SIGNATURE.length + 8 + 2;
  for (const row of rows) {
    size += 2 + 4 * COPY_COLUMNS.length + Buffer.byteLength(row.tenantId) + Buffer.byteLength(row.clientId);
    size += 4 + 8 + 8 + 4 * row.classes.length + row.bytes.length;
  }
  const out = Buffer.allocUnsafe(size);
  let at = COPY_SIGNATURE.copy(out, 0);
  at = out.writeInt32BE(0, at);
  at = out.writeInt32BE(0, at);
  const text = (value: string) => {
    const length = out.write(value, at + 4);
    at = out.writeInt32BE(length, at) + length;
  };
  const int4 = (value: number) => {
    at = out.writeInt32BE(value, out.writeInt32BE(4, at));
  };
  const int8 = (value: number) => {
    at = out.writeBigInt64BE(BigInt(Math.round(value)), out.writeInt32BE(8, at));
  };
  for (const row of rows) {
    at = out.writeInt16BE(COPY_COLUMNS.length, at);
    text(row.tenantId);
    text(row.clientId);
    int4(row.count);
    int8(row.firstTime);
    int8(row.lastTime);
    for (const count of row.classes) int4(count);
    at = out.writeInt32BE(row.bytes.length, at);
    at += row.bytes.copy(out, at);
  }
  out.writeInt16BE(-1, at);
  return out;
}

/** PACKED_INSERT's parameters: the app, then count, time range, class counts and bytes. */
export function packedParams({ tenantId, clientId, count, firstTime, lastTime, classes, bytes }: PackedApp): unknown[] {
  return [tenantId, clientId, count, firstTime, lastTime, ...classes, bytes];
}

/**
 * The hourly counts as unnest's columns, sorted, so that two nodes adding to the same hours take their row locks in
 * the same order.
 */
function usageColumns(hours: HourCount[]): unknown[][] {
  hours.sort((a, b) => compare(a.tenantId, b.tenantId) || compare(a.clientId, b.clientId) || a.hour - b.hour);
  const columns: unknown[][] = Array.from({ length: 7 }, () => []);
  for (const { tenantId, clientId, hour, classes } of hours) {
    [tenantId, clientId, hour, ...classes].forEach((value, column) => columns[column]!.push(value));
  }
  return columns;
}
