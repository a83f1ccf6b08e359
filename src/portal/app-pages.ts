// What an app's own pages (its request log, its usage) share: the app looked up among the session's account's apps
// (any other id is the portal's plain 404), and their heading with the way between them.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AccountApp, ActiveSession, SessionStore } from '../auth/session-store.js';
import { notFoundPage } from './fallback-pages.js';
import { escapeHtml } from './html.js';
import { redirectToLogin, sessionOf } from './portal-context.js';

/** The session and its account's app that the path names. */
export interface OwnedApp {
  readonly session: ActiveSession;
  readonly app: AccountApp;
}

/**
 * The app of `:clientId` when it is the session's account's; otherwise the answer is sent (the login redirect, or the
 * 404 page that says no more than for a path that does not exist) and undefined returned.
 */
export async function ownedApp(
  request: FastifyRequest,
  reply: FastifyReply,
  sessions: SessionStore,
  prefix: string,
): Promise<OwnedApp | undefined> {
  const session = sessionOf(request);
  if (!session) {
    redirectToLogin(request, reply, prefix);
    return undefined;
  }
  const { clientId } = request.params as { clientId: string };
  const app = (await sessions.listApps(session.accountId)).find((one) => one.id === clientId);
  if (!app) notFoundPage(prefix)(request, reply);
  return app && { session, app };
}

/** The path of an app's pages: `{portal}/dashboard/apps/<clientId>`. */
export function appPath(prefix: string, clientId: string): string {
  return `${prefix}/dashboard/apps/${encodeURIComponent(clientId)}`;
}

/** The heading of an app's pages: where it sits (dashboard › app), its name and id, and its two pages as tabs. */
export function appHeading(prefix: string, app: AccountApp, current: 'requests' | 'usage', title: string): string {
  const base = appPath(prefix, app.id);
  const tab = (name: 'requests' | 'usage', label: string): string =>
    `<a href="${base}/${name}"${name === current ? ' aria-current="page"' : ''}>${label}</a>`;
  return `<nav class="crumbs" aria-label="Breadcrumb"><a href="${prefix}/dashboard">Your apps</a> <span aria-hidden="true">›</span> ${escapeHtml(app.name)}</nav>
<h1>${escapeHtml(title)} <span class="muted">· ${escapeHtml(app.name)}</span></h1>
<p class="app-id">Client id <code>${escapeHtml(app.id)}</code></p>
<nav class="tabs" aria-label="This app">${tab('requests', 'Request log')}${tab('usage', 'Usage')}</nav>`;
}
