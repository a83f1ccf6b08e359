// What a portal request carries: its session (looked up once, by the surface's hook), the frame of its pages, and the
// session redirects (SPEC §8: 303 to the login page and back, only ever to a path of this service).
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { ActiveSession } from '../auth/session-store.js';
import type { Frame } from './html.js';
import { csrfTokenOf, type Sessions } from './sessions.js';

const SESSION = Symbol('portalSession');
type WithSession = FastifyRequest & { [SESSION]?: ActiveSession };

/** Routes whose answers do not depend on a session (the stylesheet, icons) say so, and cost no session look-up. */
export const NO_SESSION = { sessionFree: true } as const;

/** Looks the session up when the request has a cookie; a page shown to a session is never stored by a cache. */
export function sessionHook(sessions: Sessions): onRequestHookHandler {
  return async (request, reply) => {
    if (request.cookies[sessions.cookieName] === undefined) return;
    if ((request.routeOptions.config as { sessionFree?: boolean }).sessionFree) return;
    const session = await sessions.current(request);
    if (!session) return;
    (request as WithSession)[SESSION] = session;
    reply.header('cache-control', 'no-store');
  };
}

export function sessionOf(request: FastifyRequest): ActiveSession | undefined {
  return (request as WithSession)[SESSION];
}

/** The frame of a page for this request: the header offers Log in, or Dashboard and Log out (with its CSRF token). */
export function frameOf(request: FastifyRequest, prefix: string): Frame {
  const session = sessionOf(request);
  return session
    ? { prefix, session: { email: session.email, csrfToken: csrfTokenOf(session) }, here: request.url }
    : { prefix };
}

export function sendPage(reply: FastifyReply, html: string, status = 200): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').send(html);
}

/** A page that needs a session, asked without one: 303 to the login page, which comes back here after. */
export function redirectToLogin(request: FastifyRequest, reply: FastifyReply, prefix: string): FastifyReply {
  reply.header('cache-control', 'no-store');
  return reply.redirect(`${prefix}/login?next=${encodeURIComponent(request.url)}`, 303);
}

/**
 * Where a login may send the browser back to: a path (never a URL, so never another host) under the portal, or the
 * authorization endpoint (the code flow logs in and comes back). Anything else — `//evil.example`, `/\evil`, a scheme,
 * a control character — is not a place to go: undefined, and the caller uses its default.
 */
export function safeNext(value: unknown, prefix: string): string | undefined {
  if (typeof value !== 'string' || value.length > 2000 || !/^\/(?![/\\])[\x21-\x7e]*$/.test(value)) return undefined;
  if (value.includes('\\')) return undefined;
  const path = value.split(/[?#]/, 1)[0]!;
  if (path.split('/').some((segment) => segment === '..' || /^%2e%2e$/i.test(segment))) return undefined;
  const underPortal = prefix === '' || path === prefix || path.startsWith(`${prefix}/`);
  return underPortal || path === '/oauth2/authorize' ? value : undefined;
}

/** Whether the request is a browser's, asking for a page: it accepts HTML and does not ask for JSON. */
export function wantsPage(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  return accept.includes('text/html') && !accept.includes('application/json');
}
