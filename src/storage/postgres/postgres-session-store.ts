// Portal logins in the PostgreSQL database, shared by every node: a login or a logout on one is seen by all at once.
import type { AccountApp, AccountLogin, ActiveSession, SessionRecord, SessionStore } from '../../auth/session-store.js';
import type { ClientType } from '../../auth/auth-store.js';
import type { Connection } from './connection.js';

export class PostgresSessionStore implements SessionStore {
  constructor(private readonly db: Connection) {}

  async findLogin(email: string): Promise<AccountLogin | undefined> {
    const [row] = await this.db.rows<[string, string, string]>(
      'SELECT id, email, password_hash FROM accounts WHERE email = $1',
      [email],
    );
    return row && { id: row[0], email: row[1], passwordHash: row[2] };
  }

  async createSession(session: SessionRecord, replacing: string | undefined): Promise<void> {
    await this.db.transaction(async (tx) => {
      if (replacing !== undefined) await tx.run('DELETE FROM sessions WHERE id_hash = $1', [replacing]);
      await tx.run('DELETE FROM sessions WHERE expires_at <= $1', [session.createdAt]);
      await tx.run(
        'INSERT INTO sessions (id_hash, account_id, csrf_secret, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)',
        [session.idHash, session.accountId, session.csrfSecret, session.createdAt, session.expiresAt],
      );
    });
  }

  async findSession(idHash: string, now: number): Promise<ActiveSession | undefined> {
    const [row] = await this.db.rows<[string, string, string, string, string, string]>(
      `SELECT s.id_hash, s.account_id, s.csrf_secret, s.created_at, s.expires_at, a.email
       FROM sessions s JOIN accounts a ON a.id = s.account_id WHERE s.id_hash = $1 AND s.expires_at > $2`,
      [idHash, now],
    );
    return (
      row && {
        idHash: row[0],
        accountId: row[1],
        csrfSecret: row[2],
        createdAt: Number(row[3]),
        expiresAt: Number(row[4]),
        email: row[5],
      }
    );
  }

  async deleteSession(idHash: string): Promise<boolean> {
    return (await this.db.run('DELETE FROM sessions WHERE id_hash = $1', [idHash])) > 0;
  }

  async listApps(accountId: string): Promise<AccountApp[]> {
    const rows = await this.db.rows<[string, string, string, ClientType, string, string]>(
      `SELECT id, name, scopes, type, redirect_uris, created_at
       FROM clients WHERE tenant_id = $1 ORDER BY created_at, id`,
      [accountId],
    );
    return rows.map((row) => ({
      id: row[0],
      name: row[1],
      scopes: row[2].split(' '),
      type: row[3],
      redirectUris: JSON.parse(row[4]) as string[],
      createdAt: row[5],
    }));
  }
}
