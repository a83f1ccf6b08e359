// The code flow's clients, codes, refresh tokens and chains in the PostgreSQL database, shared by every node.
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
import { SAVE_TOKEN } from './postgres-auth-store.js';
import type { Connection, Executor, Transaction } from './connection.js';

type CodeRow = [string, string, string, string, string, string, string, string, string | null];
type RefreshRow = [string, string, string, string, string, string, string | null, string | null];

const seconds = (): number => Math.floor(Date.now() / 1000);

const SAVE_REFRESH_TOKEN =
  'INSERT INTO refresh_tokens (token_hash, chain_id, client_id, account_id, scopes, expires_at) VALUES ($1, $2, $3, $4, $5, $6)';

/** Queues, in a transaction, the INSERTs of an access token and the refresh token issued with it. */
function queueTokens(tx: Transaction, access: AccessToken, refresh: RefreshToken): void {
  tx.queue(SAVE_TOKEN, tokenRow(access));
  tx.queue(SAVE_REFRESH_TOKEN, refreshRow(refresh));
}

/** Revokes every refresh and access token of a chain, on the pool or in a transaction. */
async function revokeChainOn(executor: Executor, chainId: string, at: number): Promise<void> {
  for (const table of ['refresh_tokens', 'access_tokens'])
    await executor.run(`UPDATE ${table} SET revoked_at = $2 WHERE chain_id = $1 AND revoked_at IS NULL`, [chainId, at]);
}

export class PostgresGrantStore implements GrantStore {
  /** Expired codes and refresh tokens are deleted now and then, when a code is saved. */
  private readonly sweeps = new NowAndThen(TOKEN_SWEEP_INTERVAL_MS);

  constructor(private readonly db: Connection) {}

  async createClient(client: Client): Promise<void> {
    await this.db.run(
      'INSERT INTO clients (id, tenant_id, name, secret_hash, scopes, type, redirect_uris, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, now())',
      [
        client.id,
        client.tenantId,
        client.name,
        client.secretHash,
        client.scopes.join(' '),
        client.type,
        JSON.stringify(client.redirectUris),
      ],
    );
  }

  async rotateSecret(tenantId: string, clientId: string, secretHash: string): Promise<boolean> {
    const changed = await this.db.run(
      "UPDATE clients SET secret_hash = $3 WHERE id = $1 AND tenant_id = $2 AND type = 'confidential'",
      [clientId, tenantId, secretHash],
    );
    return changed > 0;
  }

  async deleteClient(tenantId: string, clientId: string): Promise<boolean> {
    const at = seconds();
    return this.db.transaction(async (tx) => {
      if ((await tx.run('DELETE FROM clients WHERE id = $1 AND tenant_id = $2', [clientId, tenantId])) === 0)
        return false;
      for (const table of ['access_tokens', 'refresh_tokens'])
        await tx.run(`UPDATE ${table} SET revoked_at = $2 WHERE client_id = $1 AND revoked_at IS NULL`, [clientId, at]);
      await tx.run('DELETE FROM authorization_codes WHERE client_id = $1', [clientId]);
      return true;
    });
  }

  async accountEmail(accountId: string): Promise<string | undefined> {
    const [row] = await this.db.rows<[string]>('SELECT email FROM accounts WHERE id = $1', [accountId]);
    return row?.[0];
  }

  async saveCode(code: AuthorizationCode): Promise<void> {
    await this.db.run(
      'INSERT INTO authorization_codes (code_hash, chain_id, client_id, account_id, redirect_uri, scopes, code_challenge, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
      codeRow(code),
    );
    if (this.sweeps.due()) {
      // A used code is kept a day after it expired, so that its replay still revokes what it issued.
      const before = seconds() - 24 * 60 * 60;
      await this.db.run('DELETE FROM authorization_codes WHERE expires_at < $1', [before]);
      await this.db.run('DELETE FROM refresh_tokens WHERE expires_at < $1', [before]);
      // The exchanges' access tokens too: a service that issues only those never saves one through AuthStore.
      await this.db.run('DELETE FROM access_tokens WHERE expires_at < $1', [
        seconds() - EXPIRED_TOKEN_RETENTION_SECONDS,
      ]);
    }
  }

  async findCode(codeHash: string): Promise<AuthorizationCode | undefined> {
    const [row] = await this.db.rows<CodeRow>(
      'SELECT code_hash, chain_id, client_id, account_id, redirect_uri, scopes, code_challenge, expires_at, used_at FROM authorization_codes WHERE code_hash = $1',
      [codeHash],
    );
    return (
      row && {
        codeHash: row[0],
        chainId: row[1],
        clientId: row[2],
        accountId: row[3],
        redirectUri: row[4],
        scopes: row[5].split(' '),
        codeChallenge: row[6],
        expiresAt: Number(row[7]),
        used: row[8] !== null,
      }
    );
  }

  async useCode(codeHash: string): Promise<boolean> {
    const changed = await this.db.run(
      'UPDATE authorization_codes SET used_at = $2 WHERE code_hash = $1 AND used_at IS NULL',
      [codeHash, seconds()],
    );
    return changed > 0;
  }

  async saveTokens(codeHash: string, access: AccessToken, refresh: RefreshToken): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      // A replay's DELETE of the code waits for this commit, and its revocation then sees these tokens; one that
      // deleted it first leaves no row here.
      const held = await tx.rows('SELECT 1 FROM authorization_codes WHERE code_hash = $1 FOR SHARE', [codeHash]);
      if (held.length === 0) return false;
      queueTokens(tx, access, refresh);
      return true;
    });
  }

  async findRefreshToken(tokenHash: string): Promise<RefreshToken | undefined> {
    const [row] = await this.db.rows<RefreshRow>(
      'SELECT token_hash, chain_id, client_id, account_id, scopes, expires_at, retired_at, revoked_at FROM refresh_tokens WHERE token_hash = $1',
      [tokenHash],
    );
    return (
      row && {
        tokenHash: row[0],
        chainId: row[1],
        clientId: row[2],
        accountId: row[3],
        scopes: row[4].split(' '),
        expiresAt: Number(row[5]),
        retired: row[6] !== null,
        revoked: row[7] !== null,
      }
    );
  }

  async rotateRefreshToken(retiring: string, access: AccessToken, next: RefreshToken): Promise<boolean> {
    return this.db.transaction(async (tx: Transaction) => {
      // A second use waits here for the first one's commit, then finds the token retired: one rotation wins.
      const retired = await tx.run(
        'UPDATE refresh_tokens SET retired_at = $2 WHERE token_hash = $1 AND retired_at IS NULL AND revoked_at IS NULL',
        [retiring, seconds()],
      );
      if (retired === 0) return false;
      queueTokens(tx, access, next);
      return true;
    });
  }

  async revokeRefreshToken(tokenHash: string, clientId: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx.rows<[string]>(
        'SELECT chain_id FROM refresh_tokens WHERE token_hash = $1 AND client_id = $2 AND revoked_at IS NULL',
        [tokenHash, clientId],
      );
      if (!row) return false;
      await revokeChainOn(tx, row[0], seconds());
      return true;
    });
  }

  async revokeChain(chainId: string, codeHash?: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      // First: the DELETE waits for an exchange that holds the code (saveTokens), so the revocation sees its tokens.
      if (codeHash !== undefined) await tx.run('DELETE FROM authorization_codes WHERE code_hash = $1', [codeHash]);
      await revokeChainOn(tx, chainId, seconds());
    });
  }
}
