// The storage of accounts, OAuth clients and access tokens (secrets and tokens only as hashes).

export interface Client {
  readonly id: string;
  /** The account (tenant) the client acts for. */
  readonly tenantId: string;
  readonly name: string;
  /** Empty for a public client, which has no secret. */
  readonly secretHash: string;
  readonly scopes: readonly string[];
  /** A public client (a browser or mobile app) has no secret and may use only the code flow. */
  readonly type: ClientType;
  /** The code flow's redirect URIs, compared character for character. */
  readonly redirectUris: readonly string[];
}

export type ClientType = 'confidential' | 'public';

/** A token's column values, in the order both backends' INSERT names them. */
export function tokenRow(token: AccessToken): Array<string | number | null> {
  const { tokenHash, tenantId, clientId, scopes, issuedAt, expiresAt, chainId } = token;
  return [tokenHash, tenantId, clientId, scopes.join(' '), issuedAt, expiresAt, chainId ?? null];
}

export interface AccessToken {
  readonly tokenHash: string;
  readonly tenantId: string;
  readonly clientId: string;
  readonly scopes: readonly string[];
  /** Seconds since the epoch. */
  readonly issuedAt: number;
  readonly expiresAt: number;
  readonly revoked: boolean;
  /** The consent (code flow) the token was issued under; revoking the chain revokes the token. */
  readonly chainId?: string;
}

export interface NewAccount {
  readonly accountId: string;
  readonly email: string;
  readonly passwordHash: string;
  readonly client: Omit<Client, 'tenantId' | 'type' | 'redirectUris'>;
}

/** Expired tokens are kept this long (for introspection answers), then deleted as new tokens are issued. */
export const EXPIRED_TOKEN_RETENTION_SECONDS = 24 * 60 * 60;
/** How often a node sweeps expired tokens, at most. */
export const TOKEN_SWEEP_INTERVAL_MS = 60 * 60 * 1000;

export interface AuthStore {
  /** Creates an account (a tenant) and its first client; false when the email is taken. */
  createAccount(account: NewAccount): Promise<boolean>;
  findClient(clientId: string): Promise<Client | undefined>;
  saveToken(token: AccessToken): Promise<void>;
  findToken(tokenHash: string): Promise<AccessToken | undefined>;
  /** Revokes a token if `clientId` owns it; true when something was revoked. */
  revokeToken(tokenHash: string, clientId: string): Promise<boolean>;
}
