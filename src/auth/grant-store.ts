// The storage of the code flow: clients with redirect URIs, single-use authorization codes, rotating refresh tokens,
// and the chain (one consent) that ties them and their access tokens together for revocation.
import type { AccessToken, Client } from './auth-store.js';

/** A code's column values, in the order both backends' INSERT names them. */
export function codeRow(code: AuthorizationCode): Array<string | number> {
  const { codeHash, chainId, clientId, accountId, redirectUri, scopes, codeChallenge, expiresAt } = code;
  return [codeHash, chainId, clientId, accountId, redirectUri, scopes.join(' '), codeChallenge, expiresAt];
}

/** A refresh token's column values, in the order both backends' INSERT names them. */
export function refreshRow(token: RefreshToken): Array<string | number> {
  const { tokenHash, chainId, clientId, accountId, scopes, expiresAt } = token;
  return [tokenHash, chainId, clientId, accountId, scopes.join(' '), expiresAt];
}

export interface AuthorizationCode {
  readonly codeHash: string;
  readonly chainId: string;
  readonly clientId: string;
  /** The account that consented: the tokens act on its data. */
  readonly accountId: string;
  readonly redirectUri: string;
  readonly scopes: readonly string[];
  /** The S256 code challenge (RFC 7636). */
  readonly codeChallenge: string;
  /** Seconds since the epoch. */
  readonly expiresAt: number;
  readonly used: boolean;
}

export interface RefreshToken {
  readonly tokenHash: string;
  readonly chainId: string;
  readonly clientId: string;
  readonly accountId: string;
  readonly scopes: readonly string[];
  readonly expiresAt: number;
  /** Exchanged once already: presenting it again revokes the chain. */
  readonly retired: boolean;
  readonly revoked: boolean;
}

export interface GrantStore {
  /** Adds a client to an account (the dashboard's create). */
  createClient(client: Client): Promise<void>;
  /** Replaces a confidential client's secret hash if `tenantId` owns it; false when it does not (or it is public). */
  rotateSecret(tenantId: string, clientId: string, secretHash: string): Promise<boolean>;
  /** Deletes a client `tenantId` owns and, in the same transaction, revokes its tokens and codes; false when none. */
  deleteClient(tenantId: string, clientId: string): Promise<boolean>;
  /** The email of an account, named on the consent page as the app's owner. */
  accountEmail(accountId: string): Promise<string | undefined>;
  saveCode(code: AuthorizationCode): Promise<void>;
  findCode(codeHash: string): Promise<AuthorizationCode | undefined>;
  /** Marks a code used; false when it was used already (or is unknown): one exchange wins. */
  useCode(codeHash: string): Promise<boolean>;
  /**
   * A code exchange's access token and the refresh token that comes with it, in one transaction: a crash never leaves
   * the one without the other. False, and nothing saved, when the code is gone: a replay of it revoked its chain
   * meanwhile (revokeChain with the code), or its app was deleted. The code's row is held meanwhile, so that a replay
   * that deletes it waits for these tokens and revokes them too.
   */
  saveTokens(codeHash: string, access: AccessToken, refresh: RefreshToken): Promise<boolean>;
  findRefreshToken(tokenHash: string): Promise<RefreshToken | undefined>;
  /**
   * A refresh token's rotation, in one transaction: retires `retiring` and saves the access and refresh tokens that
   * replace it; false, and nothing written, when it was retired or revoked already (a second use won the race).
   */
  rotateRefreshToken(retiring: string, access: AccessToken, next: RefreshToken): Promise<boolean>;
  /**
   * Revokes the chain of a refresh token (RFC 7009 §2.1) if `clientId` holds it, retired or not; false when the token is
   * unknown, another client's, or revoked already.
   */
  revokeRefreshToken(tokenHash: string, clientId: string): Promise<boolean>;
  /**
   * Revokes every refresh and access token of a chain. A replayed code's chain (`codeHash` given) deletes the code
   * first, in the same transaction: an exchange of it that won the code but has not saved its tokens yet then saves
   * none (saveTokens), whichever commits first.
   */
  revokeChain(chainId: string, codeHash?: string): Promise<void>;
}
