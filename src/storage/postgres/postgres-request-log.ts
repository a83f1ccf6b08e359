// The request log in the PostgreSQL database: a batch is one multi-row INSERT (unnest of arrays), reads by index.
import {
  pageOf,
  statusClassOf,
  type RequestLogPage,
  type RequestLogQuery,
  type RequestLogStore,
  type StatusClass,
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
    await this.db.run(INSERT, columns);
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
    const rows = await this.db.rows<[string, number, string]>(
      'SELECT (time / $1) * $1 AS start, status_class, count(*) FROM request_log ' +
        'WHERE tenant_id = $2 AND client_id = $3 AND time >= $4 GROUP BY start, status_class ORDER BY start, status_class',
      [bucketMs, scope.tenantId, clientId, since],
    );
    return rows.map(([start, statusClass, count]) => ({
      start: Number(start),
      statusClass: statusClass as StatusClass,
      count: Number(count),
    }));
  }

  async prune(
    before: number | undefined,
    apps: Iterable<{ readonly tenantId: string; readonly clientId: string }>,
    keepPerApp: number,
  ): Promise<number> {
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
