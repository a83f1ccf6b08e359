// The request log in the PostgreSQL database: a batch is one multi-row INSERT (unnest of arrays), reads by index.
import {
  pageOf,
  statusClassOf,
  type RequestLogPage,
  type RequestLogQuery,
  type RequestLogStore,
  HOUR_MS,
  usageOf,
  type StoredRequest,
  type UsageCount,
} from '../request-log-store.js';
import type { RequestLogBatch } from '../request-log-records.js';
import type { TenantScope } from '../storage.js';
import type { Connection } from './connection.js';

const COLUMNS =
  'seq, tenant_id, client_id, time, method, path, version, status, code, message, duration_ms, request_id';

// One statement text whatever the batch's size, so it is prepared once.
const INSERT =
  'INSERT INTO request_log (tenant_id, client_id, time, method, path, version, status, status_class, code, ' +
  'message, duration_ms, request_id) SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[], ' +
  '$5::text[], $6::integer[], $7::integer[], $8::integer[], $9::integer[], $10::text[], $11::float8[], $12::text[])';

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

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

type Row = [
  string,
  string,
  string,
  string,
  string,
  string,
  number,
  number,
  number | null,
  string | null,
  number,
  string,
];

function entryOf(row: Row): StoredRequest {
  return {
    seq: Number(row[0]),
    tenantId: row[1],
    clientId: row[2],
    time: Number(row[3]),
    method: row[4],
    path: row[5],
    version: row[6],
    status: row[7],
    code: row[8],
    message: row[9],
    durationMs: row[10],
    requestId: row[11],
  };
}

export class PostgresRequestLog implements RequestLogStore {
  constructor(private readonly db: Connection) {}

  async insertBatch(batch: RequestLogBatch): Promise<void> {
    const entries = batch.entries();
    const columns: unknown[][] = Array.from({ length: 12 }, () => new Array<unknown>(entries.length));
    entries.forEach((entry, index) => {
      const values = [
        entry.tenantId,
        entry.clientId,
        entry.time,
        entry.method,
        entry.path,
        entry.version,
        entry.status,
        statusClassOf(entry.status),
        entry.code,
        entry.message,
        entry.durationMs,
        entry.requestId,
      ];
      values.forEach((value, column) => (columns[column]![index] = value));
    });
    // Sorted, so that two nodes adding to the same hours take their row locks in the same order.
    const hours = batch
      .hours()
      .sort((a, b) => compare(a.tenantId, b.tenantId) || compare(a.clientId, b.clientId) || a.hour - b.hour);
    const usage = Array.from({ length: 7 }, (): unknown[] => []);
    for (const { tenantId, clientId, hour, classes } of hours) {
      [tenantId, clientId, hour, ...classes].forEach((value, column) => usage[column]!.push(value));
    }
    await this.db.transaction(async (tx) => {
      await tx.run(INSERT, columns);
      await tx.run(ADD_USAGE, usage);
    });
  }

  async list(scope: TenantScope, query: RequestLogQuery): Promise<RequestLogPage> {
    let sql = `SELECT ${COLUMNS} FROM request_log WHERE tenant_id = $1 AND client_id = $2`;
    const params: unknown[] = [scope.tenantId, query.clientId];
    if (query.statusClass !== undefined) {
      params.push(query.statusClass);
      sql += ` AND status_class = $${params.length}`;
    }
    if (query.requestId !== undefined) {
      params.push(query.requestId);
      sql += ` AND request_id = $${params.length}`;
    }
    if (query.before !== undefined) {
      params.push(query.before);
      sql += ` AND seq < $${params.length}`;
    }
    params.push(query.limit + 1);
    sql += ` ORDER BY seq DESC LIMIT $${params.length}`;
    const rows = await this.db.rows<Row>(sql, params);
    return pageOf(rows.map(entryOf), query.limit);
  }

  async usage(scope: TenantScope, clientId: string, bucketMs: number, since: number): Promise<UsageCount[]> {
    const rows = await this.db.rows(USAGE, [bucketMs, scope.tenantId, clientId, since - (since % HOUR_MS)]);
    return usageOf(rows);
  }

  async prune(
    before: number | undefined,
    apps: Iterable<{ readonly tenantId: string; readonly clientId: string }>,
    keepPerApp: number,
    usageBefore?: number,
  ): Promise<number> {
    if (usageBefore !== undefined) await this.db.run('DELETE FROM request_usage WHERE hour < $1', [usageBefore]);
    let deleted = before === undefined ? 0 : await this.db.run('DELETE FROM request_log WHERE time < $1', [before]);
    // Per app: everything below its keepPerApp-th newest seq, found by the (tenant_id, client_id, seq) index.
    for (const { tenantId, clientId } of apps) {
      deleted += await this.db.run(
        'DELETE FROM request_log WHERE tenant_id = $1 AND client_id = $2 AND seq < (SELECT seq FROM request_log ' +
          'WHERE tenant_id = $1 AND client_id = $2 ORDER BY seq DESC LIMIT 1 OFFSET $3)',
        [tenantId, clientId, keepPerApp - 1],
      );
    }
    return deleted;
  }
}
