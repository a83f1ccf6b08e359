// What the code flow needs of a portal session (login, CSRF), as an interface: the portal's sessions implement it.
import type { FastifyRequest } from 'fastify';

export interface SessionAccount {
  readonly accountId: string;
  readonly email: string;
}

export interface SessionReader {
  /** The account logged in on this request's session, if any. */
  account(request: FastifyRequest): Promise<SessionAccount | undefined>;
  /** The CSRF token to put in a form shown to this request's session. */
  csrfToken(request: FastifyRequest): string;
  /** Whether a posted CSRF token is the session's. */
  checkCsrf(request: FastifyRequest, token: string): boolean;
}

/** The portal's login page, which returns to `next` (a path and query) once logged in. */
export function loginLocation(portalUrl: string, next: string): string {
  return `${portalUrl}/login?next=${encodeURIComponent(next)}`;
}
