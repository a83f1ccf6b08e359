// The security headers of every HTML answer (SPEC §12): a strict CSP, nosniff and a Referrer-Policy, as one hook.
import type { FastifyReply, onRequestHookHandler } from 'fastify';
import type { Config } from '../config.js';

/**
 * Only the portal's own files: scripts from files (no inline script, so an injected one does not run — the reference
 * page's script is a file of the portal), styles from files (no inline style, no style attribute), images from the
 * portal and data: URLs. Fetches also to the API's origin, for the reference's "try it" when {base} is another host.
 * No framing (clickjacking of the login and consent pages), forms post only to the portal — and, with `formsToApi`
 * (the reference page, whose GET forms work without JavaScript), to the API — no <base> and no plugins.
 */
export function contentSecurityPolicy(config: Config, { formsToApi = false } = {}): string {
  const api = new URL(config.publicUrl).origin;
  const connect = api === new URL(config.portalUrl).origin ? "'self'" : `'self' ${api}`;
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    `connect-src ${connect}`,
    "frame-ancestors 'none'",
    `form-action ${formsToApi ? connect : "'self'"}`,
    "base-uri 'none'",
    "object-src 'none'",
  ].join('; ');
}

/**
 * strict-origin-when-cross-origin: another site learns only the portal's origin, never a path or query (the
 * authorization request's state, a request-log filter), while same-origin requests keep theirs; no-referrer would
 * also blank the Origin of the portal's own form posts, which a second CSRF check may want.
 */
const REFERRER_POLICY = 'strict-origin-when-cross-origin';

export interface SecurityHeaders {
  /** Sets the three headers on an answer; for HTML answered outside the portal surface (the authorization pages). */
  readonly add: (reply: FastifyReply) => FastifyReply;
  /** The hook form, on a surface whose every answer may be HTML (the portal: pages, its 404 and 400 pages). */
  readonly hook: onRequestHookHandler;
}

export function securityHeaders(config: Config): SecurityHeaders {
  const policy = contentSecurityPolicy(config);
  const add = (reply: FastifyReply): FastifyReply =>
    reply
      .header('content-security-policy', policy)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', REFERRER_POLICY);
  return {
    add,
    hook: (_request, reply, done) => {
      add(reply);
      done();
    },
  };
}
