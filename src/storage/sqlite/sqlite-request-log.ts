// The request log in the SQLite database: batches written through the storage's group commit, reads by index.
import {
  pageOf,
  statusClassOf,
  type RequestLogEntry,
  type RequestLogPage,
  type RequestLogQuery,
  type RequestLogStore,
  type StatusClass,
  type StoredRequest,
  type UsageCount,
} from '../request-log-store.js';
import type { TenantScope } from '../storage.js';
import type { GroupCommit } from './group-commit.js';
import type { Statements } from './statements.js';

const COLUMNS =
  'seq, tenant_id AS tenantId, client_id AS clientId, time, method, path, version, status, code, message, ' +
  'duration_ms AS durationMs, request_id AS requestId';

const INSERT =
  'INSERT INTO request_log (tenant_id, client_id, time, method, path, version, status, status_class, code, ' +
  'message, duration_ms, request_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)';

export class SqliteRequestLog implements RequestLogStore {
  constructor(
    private readonly statements: Statements,
    private readonly writes: GroupCommit,
  ) {}

  async insertBatch(entries: readonly RequestLogEntry[]): Promise<void> {
    // One job of the group commit: the whole batch commits in one transaction.
    await this.writes.run(() => {
      const insert = this.statements.get(INSERT);
      for (const entry of entries) {
        insert.run(
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
        );
      }
    });
  }

  async list(scope: TenantScope, query: RequestLogQuery): Promise<RequestLogPage> {
    let sql = `SELECT ${COLUMNS} FROM request_log WHERE tenant_id = ? AND client_id = ?`;
    const params: unknown[] = [scope.tenantId, query.clientId];
    if (query.statusClass !== undefined) {
      sql += ' AND status_class = ?';
      params.push(query.statusClass);
    }
    if (query.requestId !== undefined) {
      sql += ' AND request_id = ?';
      params.push(query.requestId);
    }
    if (query.before !== undefined) {
      sql += ' AND seq < ?';
      params.push(query.before);
    }
    sql += ' ORDER BY seq DESC LIMIT ?';
    params.push(query.limit + 1);
    return pageOf(this.read<StoredRequest>(sql, params), query.limit);
  }

  async get(scope: TenantScope, requestId: string): Promise<StoredRequest | undefined> {
    const sql = `SELECT ${COLUMNS} FROM request_log WHERE tenant_id = ? AND request_id = ? ORDER BY seq DESC LIMIT 1`;
    return this.read<StoredRequest>(sql, [scope.tenantId, requestId])[0];
  }

  async usage(scope: TenantScope, clientId: string, bucketMs: number, since: number): Promise<UsageCount[]> {
    const rows = this.read<{ start: number; statusClass: StatusClass; count: number }>(
      // % works on integers (a bound number is a REAL to SQLite, which / would keep fractional).
      'SELECT time - time % ? AS start, status_class AS statusClass, count(*) AS count FROM request_log ' +
        'WHERE tenant_id = ? AND client_id = ? AND time >= ? GROUP BY start, status_class ORDER BY start, status_class',
      [bucketMs, scope.tenantId, clientId, since],
    );
    return rows;
  }

  async prune(
    before: number | undefined,
    apps: Iterable<{ readonly tenantId: string; readonly clientId: string }>,
    keepPerApp: number,
  ): Promise<number> {
    return this.writes.run(() => {
      let deleted = before === undefined ? 0 : this.pruneOlder(before);
      // The newest keepPerApp of an app by its index; everything below the last kept seq goes.
      const cut = this.statements.pluck(
        'SELECT seq FROM request_log WHERE tenant_id = ? AND client_id = ? ORDER BY seq DESC LIMIT 1 OFFSET ?',
      );
      const remove = this.statements.get('DELETE FROM request_log WHERE tenant_id = ? AND client_id = ? AND seq < ?');
      for (const { tenantId, clientId } of apps) {
        const last = cut.get(tenantId, clientId, keepPerApp - 1) as number | undefined;
        if (last !== undefined) deleted += remove.run(tenantId, clientId, last).changes;
      }
      return deleted;
    });
  }

  /**
   * Rowid order is time order (migration 4): the first entry young enough bounds the range to delete, found by reading
   * exactly the entries that go.
   */
  private pruneOlder(before: number): number {
    const young = this.statements
      .pluck('SELECT seq FROM request_log WHERE time >= ? ORDER BY seq LIMIT 1')
      .get(before) as number | undefined;
    return young === undefined
      ? this.statements.get('DELETE FROM request_log').run().changes
      : this.statements.get('DELETE FROM request_log WHERE seq < ?').run(young).changes;
  }

  private read<Row>(sql: string, params: readonly unknown[]): Row[] {
    try {
      return this.statements.get(sql).all(...params) as Row[];
    } catch (error) {
      throw this.statements.failure(error);
    }
  }
}
