// The storage of the portal's logins: accounts looked up by email, sessions (ids only as hashes) and an account's apps.
import type { ClientType } from './auth-store.js';

/** What a login checks: the account of an email and its password hash. */
export interface AccountLogin {
  readonly id: string;
  readonly email: string;
  readonly passwordHash: string;
}

export interface SessionRecord {
  /** SHA-256 of the session id the cookie carries; the id itself is never stored. */
  readonly idHash: string;
  readonly accountId: string;
  /** The key of the session's CSRF tokens (random, per session). */
  readonly csrfSecret: string;
  /** Seconds since the epoch. */
  readonly createdAt: number;
  readonly expiresAt: number;
}

/** A session as a page sees it: with its account's email. */
export interface ActiveSession extends SessionRecord {
  readonly email: string;
}

/** An OAuth client of an account, as the dashboard lists it. */
export interface AccountApp {
  readonly id: string;
  readonly name: string;
  readonly scopes: readonly string[];
  readonly type: ClientType;
  readonly redirectUris: readonly string[];
  /** RFC 3339, UTC. */
  readonly createdAt: string;
}

export interface SessionStore {
  findLogin(email: string): Promise<AccountLogin | undefined>;
  /** Saves `session`; deletes the session `replacing` (the one the browser had) and expired ones in the same write. */
  createSession(session: SessionRecord, replacing: string | undefined): Promise<void>;
  /** The session with this id hash, unless it has expired by `now` (seconds). */
  findSession(idHash: string, now: number): Promise<ActiveSession | undefined>;
  /** Ends a session; true when there was one. */
  deleteSession(idHash: string): Promise<boolean>;
  /** The account's OAuth clients, oldest first. */
  listApps(accountId: string): Promise<AccountApp[]>;
}
