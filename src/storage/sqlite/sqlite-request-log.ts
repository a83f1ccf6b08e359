// The request log in the SQLite database: one range per app (seq counted per app), batches written through the
// storage's group commit.
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
  'INSERT INTO request_log (seq, tenant_id, client_id, time, method, path, version, status, status_class, code, ' +
  'message, duration_ms, request_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)';

const LAST_SEQ = 'SELECT max(seq) FROM request_log WHERE tenant_id = ? AND client_id = ?';

/** The app after (tenant, client) in key order: pruning by age visits the apps this way, one index seek each. */
const NEXT_APP =
  'SELECT tenant_id, client_id FROM request_log WHERE (tenant_id, client_id) > (?, ?) ' +
  'ORDER BY tenant_id, client_id LIMIT 1';

export class SqliteRequestLog implements RequestLogStore {
  /**
   * The last seq of each app written by this process: only this process writes the database (its lock is exclusive),
   * so the database's max is read once per app.
   */
  private readonly lastSeq = new Map<string, number>();

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
          this.nextSeq(entry.tenantId, entry.clientId),
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
      // seq is counted per app: its newest keepPerApp are the last keepPerApp numbers, found without a walk.
      const remove = this.statements.get('DELETE FROM request_log WHERE tenant_id = ? AND client_id = ? AND seq <= ?');
      for (const { tenantId, clientId } of apps) {
        const last = this.statements.pluck(LAST_SEQ).get(tenantId, clientId) as number | null;
        if (last !== null && last > keepPerApp) deleted += remove.run(tenantId, clientId, last - keepPerApp).changes;
      }
      return deleted;
    });
  }

  /** The next seq of an app: one more than its last. */
  private nextSeq(tenantId: string, clientId: string): number {
    const key = `${tenantId} ${clientId}`;
    const last =
      this.lastSeq.get(key) ?? (this.statements.pluck(LAST_SEQ).get(tenantId, clientId) as number | null) ?? 0;
    this.lastSeq.set(key, last + 1);
    return last + 1;
  }

  /**
   * Visits every app (one index seek each) and deletes the start of its range older than `before`: within an app, seq
   * order is time order, so the first young entry bounds the range, found by reading exactly the entries that go.
   */
  private pruneOlder(before: number): number {
    const next = this.statements.raw(NEXT_APP);
    const young = this.statements.pluck(
      'SELECT seq FROM request_log WHERE tenant_id = ? AND client_id = ? AND time >= ? ORDER BY seq LIMIT 1',
    );
    const removeAll = this.statements.get('DELETE FROM request_log WHERE tenant_id = ? AND client_id = ?');
    const remove = this.statements.get('DELETE FROM request_log WHERE tenant_id = ? AND client_id = ? AND seq < ?');
    let deleted = 0;
    let app = next.get('', '') as [string, string] | undefined;
    while (app) {
      const [tenantId, clientId] = app;
      const first = young.get(tenantId, clientId, before) as number | undefined;
      deleted += (first === undefined ? removeAll.run(tenantId, clientId) : remove.run(tenantId, clientId, first))
        .changes;
      app = next.get(tenantId, clientId) as [string, string] | undefined;
    }
    return deleted;
  }

  private read<Row>(sql: string, params: readonly unknown[]): Row[] {
    try {
      return this.statements.get(sql).all(...params) as Row[];
    } catch (error) {
      throw this.statements.failure(error);
    }
  }
}
