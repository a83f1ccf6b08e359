// The portal's login and logout (SPEC §12): email and password, a new session each time, failures slowed down.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SessionStore } from '../auth/session-store.js';
import { verifyPassword } from '../auth/secrets.js';
import { readBody } from '../http/raw-body.js';
import { routeEveryMethod, type WrongMethodAnswer } from '../http/route-every-method.js';
import { escapeHtml, homeOf, page } from './html.js';
import { LoginThrottle } from './login-throttle.js';
import { frameOf, safeNext, sendPage, sessionOf } from './portal-context.js';
import { csrfValid, type Sessions } from './sessions.js';
import { csrfRefusedPage } from './session-pages.js';

/**
 * A hash of no one's password (hashPassword's form, made once for this file): an unknown email is checked against it,
 * so it costs the scrypt a wrong password costs and answers in the same time.
 */
const NOBODY = 'scrypt$16384$8$1$s4DYRbMFkUeiT6MfB6baag$7I77sxn0CG0riDoXwzjBfFG56JQXOSxV4IPyWmPtnSw';

interface LoginOptions {
  readonly store: SessionStore;
  readonly sessions: Sessions;
  readonly prefix: string;
  readonly wrongMethod: WrongMethodAnswer;
  /** {portal}'s origin: a login form posted from it is the portal's own, whatever Host a proxy passes on. */
  readonly portalOrigin: string;
}

export function registerLogin(app: FastifyInstance, options: LoginOptions): void {
  const { prefix, wrongMethod } = options;
  const logIn = loginHandler(options, new LoginThrottle());
  routeEveryMethod(app, {
    url: '/login',
    method: ['GET', 'POST'],
    wrongMethod,
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      if (request.method === 'POST') return logIn(request, reply);
      const next = safeNext((request.query as Record<string, unknown>).next, prefix);
      if (sessionOf(request)) return reply.redirect(next ?? `${prefix}/dashboard`, 303);
      return sendPage(reply, loginPage(request, prefix, { next }));
    },
  });
  registerLogout(app, options);
}

/**
 * A login form another site posted (login CSRF: it would log the browser into the other site's account, whose
 * dashboard and request log the victim then fills). A login needs no session, so it has no CSRF token; the browser
 * says where the form came from instead: Sec-Fetch-Site, or an Origin (sent on every cross-site POST) that is not the
 * page's own. Clients that send neither (curl, tests) are not browsers on another site.
 */
function crossSite(request: FastifyRequest, portalOrigin: string): boolean {
  if (request.headers['sec-fetch-site'] === 'cross-site') return true;
  const origin = request.headers.origin;
  if (origin === undefined || origin === portalOrigin) return false;
  try {
    return new URL(origin).host !== request.headers.host;
  } catch {
    return true;
  }
}

function loginHandler({ store, sessions, prefix, portalOrigin }: LoginOptions, throttle: LoginThrottle) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    if (crossSite(request, portalOrigin)) return csrfRefusedPage(request, reply, prefix);
    const fields = readBody(request) ?? {};
    const email = typeof fields.email === 'string' ? fields.email.trim().toLowerCase() : '';
    const password = typeof fields.password === 'string' ? fields.password : '';
    const next = safeNext(fields.next, prefix);
    const keys = [`email:${email}`, `ip:${request.ip}`];
    const wait = throttle.waitSeconds(keys);
    if (wait > 0) return sendPage(reply.header('retry-after', String(wait)), throttledPage(request, prefix, wait), 403);
    const login = email === '' ? undefined : await store.findLogin(email);
    // The password is checked either way: an unknown email takes as long as a wrong password.
    const matches = await verifyPassword(password, login?.passwordHash ?? NOBODY);
    if (!login || !matches) {
      throttle.fail(keys);
      const error = 'The email or the password is not right. Check both and try again.';
      return sendPage(reply, loginPage(request, prefix, { next, email, error }), 400);
    }
    await sessions.start(request, reply, login.id);
    return reply.redirect(next ?? `${prefix}/dashboard`, 303);
  };
}

/**
 * Logout is a POST with the CSRF token: a link or an image on another site cannot end a session. It comes back to the
 * page it was sent from (SPEC §8), unless that page needs a session (the dashboard and its pages): then home.
 */
function registerLogout(app: FastifyInstance, { sessions, prefix, wrongMethod }: LoginOptions): void {
  routeEveryMethod(app, {
    url: '/logout',
    method: ['POST'],
    wrongMethod,
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const session = sessionOf(request);
      // No session (ended already, or on another node): nothing to end, and nowhere to log in to come back to.
      if (!session) return reply.redirect(homeOf(prefix), 303);
      if (!csrfValid(session, readBody(request)?.csrf)) return csrfRefusedPage(request, reply, prefix);
      await sessions.end(reply, session);
      const next = safeNext(readBody(request)?.next, prefix);
      const needsSession = next !== undefined && /^\/dashboard(?:[/?#]|$)/.test(next.slice(prefix.length));
      return reply.redirect(next !== undefined && !needsSession ? next : homeOf(prefix), 303);
    },
  });
}

interface LoginForm {
  readonly next?: string;
  readonly email?: string;
  readonly error?: string;
}

/** Said when the login is a step of the code flow: what comes after it. */
const AUTHORIZE_NOTE = `<p class="notice">An app asks to use your account's data. Log in first; the next page names the
app and what it asks for, and nothing is granted until you choose Allow there.</p>`;

function loginPage(request: FastifyRequest, prefix: string, form: LoginForm): string {
  return page(
    frameOf(request, prefix),
    'Log in',
    `<div class="card narrow">
<h1>Log in</h1>
${form.next?.startsWith('/oauth2/authorize') ? AUTHORIZE_NOTE : ''}
${form.error ? `<p class="alert" role="alert">${escapeHtml(form.error)}</p>` : ''}
<form method="post" action="${prefix}/login">
${form.next ? `<input type="hidden" name="next" value="${escapeHtml(form.next)}">` : ''}
<div class="field"><label for="email">Email</label>
<input id="email" type="email" name="email" autocomplete="username" required value="${escapeHtml(form.email ?? '')}"></div>
<div class="field"><label for="password">Password</label>
<input id="password" type="password" name="password" autocomplete="current-password" required></div>
<p><button type="submit">Log in</button></p>
</form>
<p class="muted">No account yet? <a href="${prefix}/signup">Sign up</a>: it takes a minute.</p>
</div>`,
  );
}

function throttledPage(request: FastifyRequest, prefix: string, wait: number): string {
  return page(
    frameOf(request, prefix),
    'Too many attempts',
    `<div class="card narrow">
<h1>Too many attempts</h1>
<p class="alert" role="alert">There were too many failed logins for this email or from this address.
Wait ${wait} seconds, then <a href="${prefix}/login">try again</a>.</p>
</div>`,
  );
}
