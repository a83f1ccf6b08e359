// Portal logins in the SQLite database: accounts by email, sessions (writes share the storage's group commit), apps.
import type { ClientType } from '../../auth/auth-store.js';
import type { AccountApp, AccountLogin, ActiveSession, SessionRecord, SessionStore } from '../../auth/session-store.js';
import type { GroupCommit } from './group-commit.js';
import type { Statements } from './statements.js';

interface SessionRow {
  id_hash: string;
  account_id: string;
  csrf_secret: string;
  created_at: number;
  expires_at: number;
  email: string;
}

export class SqliteSessionStore implements SessionStore {
  constructor(
    private readonly statements: Statements,
    private readonly writes: GroupCommit,
  ) {}

  async findLogin(email: string): Promise<AccountLogin | undefined> {
    const row = this.read(() =>
      this.statements.get('SELECT id, email, password_hash FROM accounts WHERE email = ?').get(email),
    ) as { id: string; email: string; password_hash: string } | undefined;
    return row && { id: row.id, email: row.email, passwordHash: row.password_hash };
  }

  async createSession(session: SessionRecord, replacing: string | undefined): Promise<void> {
    await this.writes.run(() => {
      if (replacing !== undefined) this.statements.get('DELETE FROM sessions WHERE id_hash = ?').run(replacing);
      this.statements.get('DELETE FROM sessions WHERE expires_at <= ?').run(session.createdAt);
      this.statements
        .get('INSERT INTO sessions (id_hash, account_id, csrf_secret, created_at, expires_at) VALUES (?, ?, ?, ?, ?)')
        .run(session.idHash, session.accountId, session.csrfSecret, session.createdAt, session.expiresAt);
    });
  }

  async findSession(idHash: string, now: number): Promise<ActiveSession | undefined> {
    const row = this.read(() =>
      this.statements
        .get(
          'SELECT s.*, a.email FROM sessions s JOIN accounts a ON a.id = s.account_id WHERE s.id_hash = ? AND s.expires_at > ?',
        )
        .get(idHash, now),
    ) as SessionRow | undefined;
    return (
      row && {
        idHash: row.id_hash,
        accountId: row.account_id,
        csrfSecret: row.csrf_secret,
        createdAt: row.created_at,
        expiresAt: row.expires_at,
        email: row.email,
      }
    );
  }

  async deleteSession(idHash: string): Promise<boolean> {
    return this.writes.run(() => this.statements.get('DELETE FROM sessions WHERE id_hash = ?').run(idHash).changes > 0);
  }

  async listApps(accountId: string): Promise<AccountApp[]> {
    const rows = this.read(() =>
      this.statements
        .get(
          'SELECT id, name, scopes, type, redirect_uris, created_at FROM clients WHERE tenant_id = ? ORDER BY created_at, id',
        )
        .all(accountId),
    ) as Array<{
      id: string;
      name: string;
      scopes: string;
      type: ClientType;
      redirect_uris: string;
      created_at: string;
    }>;
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      scopes: row.scopes.split(' '),
      type: row.type,
      redirectUris: JSON.parse(row.redirect_uris) as string[],
      createdAt: row.created_at,
    }));
  }

  private read(query: () => unknown): unknown {
    try {
      return query();
    } catch (error) {
      throw this.statements.failure(error);
    }
  }
}
