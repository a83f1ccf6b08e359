// The dashboard at {portal}/dashboard (logged in): the account's apps, the OAuth clients of its tenant, and their
// actions (apps.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { GrantStore } from '../auth/grant-store.js';
import type { AccountApp, ActiveSession, SessionStore } from '../auth/session-store.js';
import { readBody } from '../http/raw-body.js';
import { routeEveryMethod, type WrongMethodAnswer } from '../http/route-every-method.js';
import { appForm, EMPTY_APP, typedApp, type TypedApp } from './app-form.js';
import { appPath } from './app-pages.js';
import { registerAppActions } from './apps.js';
import { escapeHtml, page } from './html.js';
import { frameOf, redirectToLogin, sendPage, sessionOf } from './portal-context.js';
import { csrfTokenOf } from './sessions.js';

export function registerDashboard(
  app: FastifyInstance,
  stores: { readonly sessions: SessionStore; readonly grants: GrantStore },
  prefix: string,
  wrongMethod: WrongMethodAnswer,
): void {
  const show = async (
    request: FastifyRequest,
    reply: FastifyReply,
    session: ActiveSession,
    typed: TypedApp,
    error?: string,
  ): Promise<FastifyReply> => {
    const apps = await stores.sessions.listApps(session.accountId);
    const html = dashboardPage(request, prefix, session, apps, appForm(prefix, csrfTokenOf(session), typed, error));
    return sendPage(reply, html, error ? 400 : 200);
  };
  routeEveryMethod(app, {
    url: '/dashboard',
    method: ['GET'],
    wrongMethod,
    handler: async (request, reply) => {
      const session = sessionOf(request);
      if (!session) return redirectToLogin(request, reply, prefix);
      return show(request, reply, session, EMPTY_APP);
    },
  });
  registerAppActions(
    app,
    stores.grants,
    prefix,
    wrongMethod,
    (request, reply, session, error) => show(request, reply, session, typedApp(readBody(request) ?? {}), error),
    async (accountId, clientId) =>
      (await stores.sessions.listApps(accountId)).find((listed) => listed.id === clientId)?.name,
  );
}

function dashboardPage(
  request: FastifyRequest,
  prefix: string,
  session: ActiveSession,
  apps: readonly AccountApp[],
  form: string,
): string {
  const csrf = csrfTokenOf(session);
  return page(
    frameOf(request, prefix),
    'Dashboard',
    `<h1>Your apps</h1>
<p class="lead">Logged in as <strong>${escapeHtml(session.email)}</strong>. Each app is an OAuth client: its id and
secret get access tokens for this account's data.</p>
<section aria-labelledby="apps-title">
<h2 id="apps-title">Apps</h2>
${apps.length === 0 ? '<p class="notice">This account has no apps.</p>' : appsList(apps, prefix, csrf)}
</section>
${form}`,
  );
}

/** One card per app: its name and type, then its facts in a list, then its pages and actions. */
function appsList(apps: readonly AccountApp[], prefix: string, csrf: string): string {
  const cards = apps
    .map((app) => {
      const uris =
        app.redirectUris.length === 0
          ? '<span class="muted">none</span>'
          : app.redirectUris.map((uri) => `<code>${escapeHtml(uri)}</code>`).join('<br>');
      const created = `<time datetime="${escapeHtml(app.createdAt)}">${escapeHtml(app.createdAt.slice(0, 16).replace('T', ' '))} UTC</time>`;
      return `<li class="card app">
<div class="app-head"><h3>${escapeHtml(app.name)}</h3><span class="badge">${app.type}</span></div>
<dl class="app-facts">
<div><dt>Client id</dt><dd><code class="client-id">${escapeHtml(app.id)}</code></dd></div>
<div><dt>Scopes</dt><dd>${app.scopes.map(escapeHtml).join(', ')}</dd></div>
<div><dt>Redirect URIs</dt><dd>${uris}</dd></div>
<div><dt>Created</dt><dd>${created}</dd></div>
</dl>
<div class="app-actions">${appLinks(app, prefix)}${appButtons(app, prefix, csrf)}</div>
</li>`;
    })
    .join('\n');
  return `<ul class="apps">\n${cards}\n</ul>`;
}

/** The app's own pages: what its tokens asked (the request log) and how much (usage). */
function appLinks(app: AccountApp, prefix: string): string {
  const base = appPath(prefix, app.id);
  const name = escapeHtml(app.name);
  return `<span class="app-links"><a href="${base}/requests" aria-label="Request log of ${name}">Request log</a> <a href="${base}/usage" aria-label="Usage of ${name}">Usage</a></span>`;
}

/** Rotate (confidential apps only) and delete: small forms, each with the session's CSRF token. */
function appButtons(app: AccountApp, prefix: string, csrf: string): string {
  const form = (action: string, label: string): string =>
    `<form method="post" action="${prefix}/dashboard/apps/${action}" class="inline">` +
    `<input type="hidden" name="csrf" value="${escapeHtml(csrf)}">` +
    `<input type="hidden" name="client_id" value="${escapeHtml(app.id)}">` +
    `<button type="submit" aria-label="${label} ${escapeHtml(app.name)}">${label}</button></form>`;
  return (app.type === 'confidential' ? form('rotate', 'Rotate secret') + ' ' : '') + form('delete', 'Delete');
}
