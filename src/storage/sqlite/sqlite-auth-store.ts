// Accounts, clients and access tokens in the SQLite database (writes share the storage's group commit).
import {
  tokenRow,
  EXPIRED_TOKEN_RETENTION_SECONDS,
  TOKEN_SWEEP_INTERVAL_MS,
  type AccessToken,
  type AuthStore,
  type Client,
  type ClientType,
  type NewAccount,
} from '../../auth/auth-store.js';
import { NowAndThen } from '../../now-and-then.js';
import { now } from '../ids.js';
import type { GroupCommit } from './group-commit.js';
import type { Statements } from './statements.js';

interface ClientRow {
  id: string;
  tenant_id: string;
  name: string;
  secret_hash: string;
  scopes: string;
  type: string;
  redirect_uris: string;
}

interface TokenRow {
  token_hash: string;
  tenant_id: string;
  client_id: string;
  scopes: string;
  issued_at: number;
  expires_at: number;
  revoked_at: number | null;
  /** Whether the token's app still exists. */
  live: number;
}

/**
 * A token and whether its app still exists: a token saved while its app was being deleted is not revoked by the
 * delete, and must not work either.
 */
const FIND_TOKEN =
  'SELECT t.*, EXISTS (SELECT 1 FROM clients c WHERE c.id = t.client_id) AS live FROM access_tokens t WHERE t.token_hash = ?';

/** A token's INSERT, in tokenRow's order (also the grant store's, at a refresh token's rotation). */
export const SAVE_TOKEN =
  'INSERT INTO access_tokens (token_hash, tenant_id, client_id, scopes, issued_at, expires_at, chain_id) VALUES (?, ?, ?, ?, ?, ?, ?)';

export class SqliteAuthStore implements AuthStore {
  /** Expired tokens are deleted now and then, when one is saved. */
  private readonly sweeps = new NowAndThen(TOKEN_SWEEP_INTERVAL_MS);

  constructor(
    private readonly statements: Statements,
    private readonly writes: GroupCommit,
  ) {}

  async createAccount(account: NewAccount): Promise<boolean> {
    return this.writes.run(() => {
      const taken = this.statements.get('SELECT 1 FROM accounts WHERE email = ?').get(account.email);
      if (taken) return false;
      const created = now();
      this.statements
        .get('INSERT INTO accounts (id, email, password_hash, created_at) VALUES (?, ?, ?, ?)')
        .run(account.accountId, account.email, account.passwordHash, created);
      const { client } = account;
      this.statements
        .get('INSERT INTO clients (id, tenant_id, name, secret_hash, scopes, created_at) VALUES (?, ?, ?, ?, ?, ?)')
        .run(client.id, account.accountId, client.name, client.secretHash, client.scopes.join(' '), created);
      return true;
    });
  }

  async findClient(clientId: string): Promise<Client | undefined> {
    let row: ClientRow | undefined;
    try {
      row = this.statements
        .get('SELECT id, tenant_id, name, secret_hash, scopes, type, redirect_uris FROM clients WHERE id = ?')
        .get(clientId) as ClientRow | undefined;
    } catch (error) {
      throw this.statements.failure(error);
    }
    return (
      row && {
        id: row.id,
        tenantId: row.tenant_id,
        name: row.name,
        secretHash: row.secret_hash,
        scopes: row.scopes.split(' '),
        type: row.type as ClientType,
        redirectUris: JSON.parse(row.redirect_uris) as string[],
      }
    );
  }

  async saveToken(token: AccessToken): Promise<void> {
    const sweep = this.sweeps.due();
    await this.writes.run(() => {
      this.statements.get(SAVE_TOKEN).run(...tokenRow(token));
      if (sweep)
        this.statements
          .get('DELETE FROM access_tokens WHERE expires_at < ?')
          .run(token.issuedAt - EXPIRED_TOKEN_RETENTION_SECONDS);
    });
  }

  async findToken(tokenHash: string): Promise<AccessToken | undefined> {
    let row: TokenRow | undefined;
    try {
      row = this.statements.get(FIND_TOKEN).get(tokenHash) as TokenRow | undefined;
    } catch (error) {
      throw this.statements.failure(error);
    }
    return (
      row && {
        tokenHash: row.token_hash,
        tenantId: row.tenant_id,
        clientId: row.client_id,
        scopes: row.scopes.split(' '),
        issuedAt: row.issued_at,
        expiresAt: row.expires_at,
        revoked: row.revoked_at !== null || row.live === 0,
      }
    );
  }

  async revokeToken(tokenHash: string, clientId: string): Promise<boolean> {
    return this.writes.run(
      () =>
        this.statements
          .get('UPDATE access_tokens SET revoked_at = ? WHERE token_hash = ? AND client_id = ? AND revoked_at IS NULL')
          .run(Math.floor(Date.now() / 1000), tokenHash, clientId).changes > 0,
    );
  }
}
