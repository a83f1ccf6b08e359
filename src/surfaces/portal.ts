// The portal surface, under its prefix (PORTAL_URL's path): the HTML pages, with the portal's own 404 and wrong-method
// pages (SPEC §12), its security headers, and its sessions.
import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance } from 'fastify';
import type { AuthStore } from '../auth/auth-store.js';
import type { GrantStore } from '../auth/grant-store.js';
import type { SessionStore } from '../auth/session-store.js';
import type { Config } from '../config.js';
import type { RateLimiter } from '../http/rate-limit.js';
import type { RequestLogStore } from '../storage/request-log-store.js';
import { registerAssets } from '../portal/assets.js';
import { registerDashboard } from '../portal/dashboard.js';
import { registerChangelogPage } from '../portal/changelog.js';
import { registerErrorPages } from '../portal/error-pages.js';
import { notFoundPage, wrongMethodPage } from '../portal/fallback-pages.js';
import { registerHomePage } from '../portal/home-page.js';
import { registerLogin } from '../portal/login.js';
import { registerOpenApiRoutes } from '../portal/openapi-routes.js';
import { sessionHook } from '../portal/portal-context.js';
import { securityHeaders } from '../portal/security-headers.js';
import { Sessions } from '../portal/sessions.js';
import { registerReferencePage } from '../portal/reference-page.js';
import { registerRequestLogPages } from '../portal/request-log-pages.js';
import { registerSignup } from '../portal/signup.js';
import { registerUsagePage } from '../portal/usage-page.js';
import { registerVersionsPage } from '../portal/versions-page.js';

export interface PortalSurfaceOptions {
  readonly config: Config;
  readonly store: AuthStore;
  readonly sessionStore: SessionStore;
  readonly grants: GrantStore;
  /** The request log, read by an app's log and usage pages. */
  readonly requestLog: RequestLogStore;
  /** Now, in ms: the usage page's last hour and day. */
  readonly clock: () => number;
  /** Counts sign-ups per IP, with the open API operation (the open limit). */
  readonly openLimiter: RateLimiter;
  /** The path of PORTAL_URL, no trailing slash: '' when the portal has a host of its own. */
  readonly portalPrefix: string;
}

/** Registered with `prefix: portalPrefix`: routes are relative to it, links in the pages name it. */
export async function portalSurface(
  portal: FastifyInstance,
  { config, store, sessionStore, grants, requestLog, clock, openLimiter, portalPrefix }: PortalSurfaceOptions,
): Promise<void> {
  // Cookies are parsed on the portal's requests only: the API's hot paths never pay for it.
  await portal.register(fastifyCookie);
  const sessions = new Sessions(sessionStore, config.portalUrl);
  portal.addHook('onRequest', securityHeaders(config).hook);
  portal.addHook('onRequest', sessionHook(sessions));
  const wrongMethod = wrongMethodPage(portalPrefix);
  registerAssets(portal, portalPrefix, wrongMethod);
  registerHomePage(portal, config, portalPrefix, wrongMethod);
  registerErrorPages(portal, config, portalPrefix, wrongMethod);
  registerOpenApiRoutes(portal, config);
  registerReferencePage(portal, config, portalPrefix, wrongMethod);
  registerVersionsPage(portal, config, portalPrefix, wrongMethod);
  registerChangelogPage(portal, portalPrefix, wrongMethod);
  registerSignup(portal, store, config.publicUrl, openLimiter, wrongMethod, portalPrefix);
  registerLogin(portal, {
    store: sessionStore,
    sessions,
    prefix: portalPrefix,
    wrongMethod,
    portalOrigin: new URL(config.portalUrl).origin,
  });
  registerDashboard(portal, { sessions: sessionStore, grants }, portalPrefix, wrongMethod);
  const appPages = { sessions: sessionStore, requestLog, prefix: portalPrefix, wrongMethod };
  registerRequestLogPages(portal, { ...appPages, config });
  registerUsagePage(portal, { ...appPages, config, clock });
  // Fastify chooses a not-found handler by prefix. A portal on a host of its own has none to claim (it shares `/` with
  // the API host): the root's handler answers its unknown paths with the same page (fallback-pages.ts portalFallback).
  if (portalPrefix !== '') portal.setNotFoundHandler(notFoundPage(portalPrefix));
}
