// Accounts, OAuth clients and access tokens in the PostgreSQL database, shared by every node.
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
import type { Connection } from './connection.js';

type TokenRow = [string, string, string, string, string, string, string | null];

/** The columns tokenRow gives, in its order. */
const TOKEN_COLUMNS = 'token_hash, tenant_id, client_id, scopes, issued_at, expires_at, chain_id';
/** A token's INSERT (also the grant store's, at a refresh token's rotation). */
export const SAVE_TOKEN = `INSERT INTO access_tokens (${TOKEN_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)`;
/** Several tokens' INSERT: each of tokenRow's values as the array of every token's (group-commit.ts). */
const SAVE_TOKENS = `INSERT INTO access_tokens (${TOKEN_COLUMNS})
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int8[], $6::int8[], $7::text[])`;

export class PostgresAuthStore implements AuthStore {
  /** Expired tokens are deleted now and then, when one is saved. */
  private readonly sweeps = new NowAndThen(TOKEN_SWEEP_INTERVAL_MS);

  constructor(private readonly db: Connection) {}

  async createAccount(account: NewAccount): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      // ON CONFLICT instead of a look-up first: two signups with one email at once cannot both win.
      const inserted = await tx.run(
        'INSERT INTO accounts (id, email, password_hash, created_at) VALUES ($1, $2, $3, now()) ON CONFLICT (email) DO NOTHING',
        [account.accountId, account.email, account.passwordHash],
      );
      if (inserted === 0) return false;
      const { client } = account;
      await tx.run(
        'INSERT INTO clients (id, tenant_id, name, secret_hash, scopes, created_at) VALUES ($1, $2, $3, $4, $5, now())',
        [client.id, account.accountId, client.name, client.secretHash, client.scopes.join(' ')],
      );
      return true;
    });
  }

  async findClient(clientId: string): Promise<Client | undefined> {
    // Batched with the turn's other look-ups (read-batch.ts): the token endpoint makes one per request.
    const [row] = await this.db.read<[string, string, string, string, string, ClientType, string]>(
      'SELECT id, tenant_id, name, secret_hash, scopes, type, redirect_uris FROM clients WHERE id = $1',
      [clientId],
    );
    return (
      row && {
        id: row[0],
        tenantId: row[1],
        name: row[2],
        secretHash: row[3],
        scopes: row[4].split(' '),
        type: row[5],
        redirectUris: JSON.parse(row[6]) as string[],
      }
    );
  }

  /**
   * A token is one INSERT that commits on its own: with the other writes of its turn (group-commit.ts), the turn's
   * tokens in one statement.
   */
  async saveToken(token: AccessToken): Promise<void> {
    await this.db.commitBatchable(SAVE_TOKEN, tokenRow(token), SAVE_TOKENS);
    if (this.sweeps.due()) {
      await this.db.run('DELETE FROM access_tokens WHERE expires_at < $1', [
        token.issuedAt - EXPIRED_TOKEN_RETENTION_SECONDS,
      ]);
    }
  }

  async findToken(tokenHash: string): Promise<AccessToken | undefined> {
    // Batched too: after a restart every caller's first request looks its token up.
    const [row] = await this.db.read<TokenRow>(
      // A token saved while its app was being deleted is not revoked by the delete, and must not work either.
      `SELECT token_hash, tenant_id, client_id, scopes, issued_at, expires_at,
        coalesce(revoked_at::text, CASE WHEN NOT EXISTS (SELECT 1 FROM clients c WHERE c.id = t.client_id) THEN 'app deleted' END)
        FROM access_tokens t WHERE token_hash = $1`,
      [tokenHash],
    );
    return (
      row && {
        tokenHash: row[0],
        tenantId: row[1],
        clientId: row[2],
        scopes: row[3].split(' '),
        issuedAt: Number(row[4]),
        expiresAt: Number(row[5]),
        revoked: row[6] !== null,
      }
    );
  }

  async revokeToken(tokenHash: string, clientId: string): Promise<boolean> {
    const changed = await this.db.run(
      'UPDATE access_tokens SET revoked_at = $3 WHERE token_hash = $1 AND client_id = $2 AND revoked_at IS NULL',
      [tokenHash, clientId, Math.floor(Date.now() / 1000)],
    );
    return changed > 0;
  }
}
