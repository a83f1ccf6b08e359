// Portal sessions (SPEC §12): the cookie, the record on the server (the id only as a hash), and the CSRF tokens of it.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SessionReader } from '../auth/session-reader.js';
import type { ActiveSession, SessionStore } from '../auth/session-store.js';
import { randomSecret, secretHash } from '../auth/secrets.js';

/**
 * Eight hours from login, not extended by use: a working day, after which a shared or lost device asks for the
 * password again; no write per page view (docs/decisions.md).
 */
export const SESSION_SECONDS = 8 * 60 * 60;

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

export class Sessions {
  /** `__Host-` when the portal is https: the browser then takes the cookie only Secure, for this host and Path=/. */
  readonly cookieName: string;
  private readonly cookieOptions;

  constructor(
    private readonly store: SessionStore,
    portalUrl: string,
  ) {
    const secure = new URL(portalUrl).protocol === 'https:';
    this.cookieName = secure ? '__Host-portal_session' : 'portal_session';
    // Path=/ so that the cookie reaches /oauth2/authorize too; Lax so that it comes along on a link from an app.
    this.cookieOptions = { httpOnly: true, sameSite: 'lax', secure, path: '/' } as const;
  }

  /** The session the request's cookie names, unless it has ended or expired. */
  async current(request: FastifyRequest): Promise<ActiveSession | undefined> {
    const id = request.cookies[this.cookieName];
    if (id === undefined || id === '') return undefined;
    return this.store.findSession(secretHash(id), nowSeconds());
  }

  /** A new session for `accountId`, with a new id: the one the browser had (if any) ends (no session fixation). */
  async start(request: FastifyRequest, reply: FastifyReply, accountId: string): Promise<void> {
    const previous = request.cookies[this.cookieName];
    const id = randomSecret();
    const createdAt = nowSeconds();
    await this.store.createSession(
      {
        idHash: secretHash(id),
        accountId,
        csrfSecret: randomSecret(),
        createdAt,
        expiresAt: createdAt + SESSION_SECONDS,
      },
      previous ? secretHash(previous) : undefined,
    );
    reply.setCookie(this.cookieName, id, { ...this.cookieOptions, maxAge: SESSION_SECONDS });
  }

  /** Ends the session on the server (every node sees it at once) and asks the browser to drop the cookie. */
  async end(reply: FastifyReply, session: ActiveSession): Promise<void> {
    await this.store.deleteSession(session.idHash);
    reply.clearCookie(this.cookieName, this.cookieOptions);
  }
}

/** The CSRF token of a session's forms: an HMAC of the session under its own random secret, so only its pages hold it. */
export function csrfTokenOf(session: ActiveSession): string {
  return createHmac('sha256', session.csrfSecret).update(session.idHash).digest('base64url');
}

/** Whether a form's `csrf` field is the session's token (compared in constant time). */
export function csrfValid(session: ActiveSession, sent: unknown): boolean {
  if (typeof sent !== 'string') return false;
  const expected = Buffer.from(csrfTokenOf(session));
  const given = Buffer.from(sent);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * The portal's sessions as the code flow reads them (/oauth2/authorize, auth/session-reader.ts): the session is looked
 * up once per request (account), and its CSRF token read from that look-up.
 */
export function portalSessionReader(sessions: Sessions): SessionReader {
  const found = new WeakMap<FastifyRequest, ActiveSession>();
  return {
    account: async (request) => {
      const session = await sessions.current(request);
      if (session === undefined) return undefined;
      found.set(request, session);
      return { accountId: session.accountId, email: session.email };
    },
    csrfToken: (request) => {
      const session = found.get(request);
      return session === undefined ? '' : csrfTokenOf(session);
    },
    checkCsrf: (request, token) => {
      const session = found.get(request);
      return session !== undefined && csrfValid(session, token);
    },
  };
}
