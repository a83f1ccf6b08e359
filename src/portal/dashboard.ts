// The dashboard at {portal}/dashboard (logged in): the account's apps, the OAuth clients of its tenant.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AccountApp, SessionStore } from '../auth/session-store.js';
import { routeEveryMethod, type WrongMethodAnswer } from '../http/route-every-method.js';
import { escapeHtml, page } from './html.js';
import { frameOf, redirectToLogin, sendPage, sessionOf } from './portal-context.js';

export function registerDashboard(
  app: FastifyInstance,
  store: SessionStore,
  prefix: string,
  wrongMethod: WrongMethodAnswer,
): void {
  routeEveryMethod(app, {
    url: '/dashboard',
    method: ['GET'],
    wrongMethod,
    handler: async (request, reply) => {
      const session = sessionOf(request);
      if (!session) return redirectToLogin(request, reply, prefix);
      const apps = await store.listApps(session.accountId);
      return sendPage(reply, dashboardPage(request, prefix, session.email, apps));
    },
  });
}

function dashboardPage(request: FastifyRequest, prefix: string, email: string, apps: readonly AccountApp[]): string {
  return page(
    frameOf(request, prefix),
    'Dashboard',
    `<h1>Your apps</h1>
<p class="lead">Logged in as <strong>${escapeHtml(email)}</strong>. Each app is an OAuth client: its id and secret get
access tokens for this account's data.</p>
<section aria-labelledby="apps-title">
<h2 id="apps-title">Apps</h2>
${apps.length === 0 ? '<p class="notice">This account has no apps.</p>' : appsTable(apps)}
</section>
${appActions()}`,
  );
}

function appsTable(apps: readonly AccountApp[]): string {
  const rows = apps
    .map(
      (app) =>
        `<tr><td>${escapeHtml(app.name)}</td><td><code>${escapeHtml(app.id)}</code></td>` +
        `<td>${app.scopes.map(escapeHtml).join(', ')}</td><td><time datetime="${escapeHtml(app.createdAt)}">` +
        `${escapeHtml(app.createdAt.slice(0, 16).replace('T', ' '))} UTC</time></td></tr>`,
    )
    .join('\n');
  return `<div class="table-wrap"><table>
<thead><tr><th scope="col">Name</th><th scope="col">Client id</th><th scope="col">Scopes</th><th scope="col">Created</th></tr></thead>
<tbody>
${rows}
</tbody></table></div>`;
}

/**
 * Where the app actions go (create with redirect URIs and a type, rotate a secret, delete): each is a form that acts on
 * the session, so it carries the session's CSRF token (frameOf(request).session.csrfToken) and is checked with
 * csrfValid before it changes anything.
 */
function appActions(): string {
  return `<section aria-labelledby="actions-title">
<h2 id="actions-title">Manage apps</h2>
<p class="muted">Creating more apps, rotating a secret and deleting an app come here soon. Until then, keep the secret
you were shown at sign-up; the service stores only a hash of it.</p>
</section>`;
}
