// The code flow's clients, codes, refresh tokens and chains in the SQLite database (writes share the group commit).
import {
  EXPIRED_TOKEN_RETENTION_SECONDS,
  tokenRow,
  TOKEN_SWEEP_INTERVAL_MS,
  type AccessToken,
  type Client,
} from '../../auth/auth-store.js';
import {
  codeRow,
  refreshRow,
  type AuthorizationCode,
  type GrantStore,
  type RefreshToken,
} from '../../auth/grant-store.js';
import { NowAndThen } from '../../now-and-then.js';
import { now } from '../ids.js';
import { SAVE_TOKEN } from './sqlite-auth-store.js';
import type { GroupCommit } from './group-commit.js';
import type { Statements } from './statements.js';

interface CodeRow {
  code_hash: string;
  chain_id: string;
  client_id: string;
  account_id: string;
  redirect_uri: string;
  scopes: string;
  code_challenge: string;
  expires_at: number;
  used_at: number | null;
}

interface RefreshRow {
  token_hash: string;
  chain_id: string;
  client_id: string;
  account_id: string;
  scopes: string;
  expires_at: number;
  retired_at: number | null;
  revoked_at: number | null;
}

const seconds = (): number => Math.floor(Date.now() / 1000);

export class SqliteGrantStore implements GrantStore {
  /** Expired codes and refresh tokens are deleted now and then, when a code is saved. */
  private readonly sweeps = new NowAndThen(TOKEN_SWEEP_INTERVAL_MS);

  constructor(
    private readonly statements: Statements,
    private readonly writes: GroupCommit,
  ) {}

  async createClient(client: Client): Promise<void> {
    await this.writes.run(() => {
      this.statements
        .get(
          'INSERT INTO clients (id, tenant_id, name, secret_hash, scopes, type, redirect_uris, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        )
        .run(
          client.id,
          client.tenantId,
          client.name,
          client.secretHash,
          client.scopes.join(' '),
          client.type,
          JSON.stringify(client.redirectUris),
          now(),
        );
    });
  }

  async rotateSecret(tenantId: string, clientId: string, secretHash: string): Promise<boolean> {
    return this.writes.run(
      () =>
        this.statements
          .get("UPDATE clients SET secret_hash = ? WHERE id = ? AND tenant_id = ? AND type = 'confidential'")
          .run(secretHash, clientId, tenantId).changes > 0,
    );
  }

  async deleteClient(tenantId: string, clientId: string): Promise<boolean> {
    const at = seconds();
    return this.writes.run(() => {
      const deleted = this.statements
        .get('DELETE FROM clients WHERE id = ? AND tenant_id = ?')
        .run(clientId, tenantId).changes;
      if (deleted === 0) return false;
      for (const table of ['access_tokens', 'refresh_tokens'])
        this.statements
          .get(`UPDATE ${table} SET revoked_at = ? WHERE client_id = ? AND revoked_at IS NULL`)
          .run(at, clientId);
      this.statements.get('DELETE FROM authorization_codes WHERE client_id = ?').run(clientId);
      return true;
    });
  }

  async accountEmail(accountId: string): Promise<string | undefined> {
    const row = this.read<{ email: string }>('SELECT email FROM accounts WHERE id = ?', accountId);
    return row?.email;
  }

  async saveCode(code: AuthorizationCode): Promise<void> {
    const sweep = this.sweeps.due();
    await this.writes.run(() => {
      this.statements
        .get(
          'INSERT INTO authorization_codes (code_hash, chain_id, client_id, account_id, redirect_uri, scopes, code_challenge, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        )
        .run(...codeRow(code));
      if (sweep) {
        // A used code is kept a day after it expired, so that its replay still revokes what it issued.
        const before = seconds() - 24 * 60 * 60;
        this.statements.get('DELETE FROM authorization_codes WHERE expires_at < ?').run(before);
        this.statements.get('DELETE FROM refresh_tokens WHERE expires_at < ?').run(before);
        // The exchanges' access tokens too: a service that issues only those never saves one through AuthStore.
        this.statements
          .get('DELETE FROM access_tokens WHERE expires_at < ?')
          .run(seconds() - EXPIRED_TOKEN_RETENTION_SECONDS);
      }
    });
  }

  async findCode(codeHash: string): Promise<AuthorizationCode | undefined> {
    const row = this.read<CodeRow>('SELECT * FROM authorization_codes WHERE code_hash = ?', codeHash);
    return (
      row && {
        codeHash: row.code_hash,
        chainId: row.chain_id,
        clientId: row.client_id,
        accountId: row.account_id,
        redirectUri: row.redirect_uri,
        scopes: row.scopes.split(' '),
        codeChallenge: row.code_challenge,
        expiresAt: row.expires_at,
        used: row.used_at !== null,
      }
    );
  }

  async useCode(codeHash: string): Promise<boolean> {
    return this.change('UPDATE authorization_codes SET used_at = ? WHERE code_hash = ? AND used_at IS NULL', codeHash);
  }

  async saveTokens(codeHash: string, access: AccessToken, refresh: RefreshToken): Promise<boolean> {
    return this.writes.run(() => {
      if (!this.statements.get('SELECT 1 FROM authorization_codes WHERE code_hash = ?').get(codeHash)) return false;
      this.insertTokens(access, refresh);
      return true;
    });
  }

  async findRefreshToken(tokenHash: string): Promise<RefreshToken | undefined> {
    const row = this.read<RefreshRow>('SELECT * FROM refresh_tokens WHERE token_hash = ?', tokenHash);
    return (
      row && {
        tokenHash: row.token_hash,
        chainId: row.chain_id,
        clientId: row.client_id,
        accountId: row.account_id,
        scopes: row.scopes.split(' '),
        expiresAt: row.expires_at,
        retired: row.retired_at !== null,
        revoked: row.revoked_at !== null,
      }
    );
  }

  async rotateRefreshToken(retiring: string, access: AccessToken, next: RefreshToken): Promise<boolean> {
    const at = seconds();
    return this.writes.run(() => {
      const retired = this.statements
        .get(
          'UPDATE refresh_tokens SET retired_at = ? WHERE token_hash = ? AND retired_at IS NULL AND revoked_at IS NULL',
        )
        .run(at, retiring).changes;
      if (retired === 0) return false;
      this.insertTokens(access, next);
      return true;
    });
  }

  async revokeRefreshToken(tokenHash: string, clientId: string): Promise<boolean> {
    const at = seconds();
    return this.writes.run(() => {
      const row = this.statements
        .get('SELECT chain_id FROM refresh_tokens WHERE token_hash = ? AND client_id = ? AND revoked_at IS NULL')
        .get(tokenHash, clientId) as { chain_id: string } | undefined;
      if (!row) return false;
      this.revokeChainNow(row.chain_id, at);
      return true;
    });
  }

  async revokeChain(chainId: string, codeHash?: string): Promise<void> {
    const at = seconds();
    await this.writes.run(() => {
      if (codeHash !== undefined)
        this.statements.get('DELETE FROM authorization_codes WHERE code_hash = ?').run(codeHash);
      this.revokeChainNow(chainId, at);
    });
  }

  /** Inside a write: revokes every refresh and access token of a chain. */
  private revokeChainNow(chainId: string, at: number): void {
    for (const table of ['refresh_tokens', 'access_tokens'])
      this.statements
        .get(`UPDATE ${table} SET revoked_at = ? WHERE chain_id = ? AND revoked_at IS NULL`)
        .run(at, chainId);
  }

  /** Inside a write: the INSERTs of an access token and the refresh token issued with it. */
  private insertTokens(access: AccessToken, refresh: RefreshToken): void {
    this.statements.get(SAVE_TOKEN).run(...tokenRow(access));
    this.statements
      .get(
        'INSERT INTO refresh_tokens (token_hash, chain_id, client_id, account_id, scopes, expires_at) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(...refreshRow(refresh));
  }

  private read<Row>(sql: string, key: string): Row | undefined {
    try {
      return this.statements.get(sql).get(key) as Row | undefined;
    } catch (error) {
      throw this.statements.failure(error);
    }
  }

  /** Runs an UPDATE stamped with the time now and keyed by `key`; true when it changed a row. */
  private change(sql: string, key: string): Promise<boolean> {
    return this.writes.run(() => this.statements.get(sql).run(seconds(), key).changes > 0);
  }
}
