// The parts of @node-oauth/oauth2-server's model that the code and refresh grants read: codes and refresh tokens from
// the store, single use and rotation made atomic there, and a replay or reuse revoking the whole chain.
import type { GrantStore } from './grant-store.js';
import { secretHash } from './secrets.js';

/** The user the library hands around: the consenting account, and the chain (one consent) of the code flow. */
export interface ModelUser {
  readonly id: string;
  readonly chainId?: string;
  /** At a code exchange: the hash of the code, whose row must still be there when the tokens are saved. */
  readonly codeHash?: string;
  /** At a refresh: the hash of the refresh token presented, retired when (and only when) its successors are saved. */
  readonly rotating?: string;
  /**
   * At a refresh: the presented refresh token's scopes, which its successor keeps whatever the new access token was
   * narrowed to (RFC 6749 §6: "the refresh token scope MUST be identical to that of the refresh token included").
   */
  readonly refreshScopes?: readonly string[];
}

/**
 * The library compares expiry times with its own `new Date()`; a time of ours (the injected clock's seconds) is turned
 * into the Date that is as far from the real now as it is from the clock's now, so that tests can advance the clock.
 */
function libraryDate(epochSeconds: number, clock: () => number): Date {
  return new Date(Date.now() + epochSeconds * 1000 - clock());
}

export function codeModel(grants: GrantStore, clock: () => number) {
  return {
    /** A used code is answered unknown (invalid_grant) and revokes what it issued: RFC 6749 §4.1.2. */
    async getAuthorizationCode(code: string) {
      const stored = await grants.findCode(secretHash(code));
      if (!stored) return undefined;
      if (stored.used) {
        await grants.revokeChain(stored.chainId, stored.codeHash);
        return undefined;
      }
      return {
        authorizationCode: code,
        expiresAt: libraryDate(stored.expiresAt, clock),
        redirectUri: stored.redirectUri,
        scope: [...stored.scopes],
        codeChallenge: stored.codeChallenge,
        codeChallengeMethod: 'S256',
        client: { id: stored.clientId },
        user: { id: stored.accountId, chainId: stored.chainId, codeHash: stored.codeHash } satisfies ModelUser,
      };
    },
    /**
     * Called before the PKCE check, so a wrong verifier uses the code up too; losing a race is a replay, which revokes
     * the winner's tokens too, whether they were saved before or after (GrantStore.saveTokens).
     */
    async revokeAuthorizationCode(code: { authorizationCode: string; user: ModelUser }) {
      const codeHash = secretHash(code.authorizationCode);
      if (await grants.useCode(codeHash)) return true;
      if (code.user.chainId) await grants.revokeChain(code.user.chainId, codeHash);
      return false;
    },
    /** A retired refresh token presented again revokes its chain; a revoked one is simply unknown. */
    async getRefreshToken(refreshToken: string) {
      const stored = await grants.findRefreshToken(secretHash(refreshToken));
      if (!stored || stored.revoked) return undefined;
      if (stored.retired) {
        await grants.revokeChain(stored.chainId);
        return undefined;
      }
      return {
        refreshToken,
        refreshTokenExpiresAt: libraryDate(stored.expiresAt, clock),
        scope: [...stored.scopes],
        client: { id: stored.clientId },
        user: {
          id: stored.accountId,
          chainId: stored.chainId,
          rotating: stored.tokenHash,
          refreshScopes: stored.scopes,
        } satisfies ModelUser,
      };
    },
    /**
     * The library "revokes" the presented refresh token before it checks the scope asked for; retiring it here would
     * make a refused request (invalid_scope) cost the client its token, and its retry look like reuse. So nothing is
     * written here: saveToken retires it together with saving its successors (GrantStore.rotateRefreshToken).
     */
    async revokeToken() {
      return true;
    },
  };
}
