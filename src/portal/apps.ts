// The dashboard's app actions (SPEC §12): create an app, rotate its secret, delete it. Each is a form that acts on the
// session (CSRF token checked before anything changes) and answers with a page (SPEC §8), never a redirect.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { GrantStore } from '../auth/grant-store.js';
import type { ActiveSession } from '../auth/session-store.js';
import { randomSecret, secretHash } from '../auth/secrets.js';
import { readBody } from '../http/raw-body.js';
import { routeEveryMethod, type WrongMethodAnswer } from '../http/route-every-method.js';
import { newId } from '../storage/ids.js';
import { checkApp, typedApp } from './app-form.js';
import { escapeHtml, page } from './html.js';
import { frameOf, redirectToLogin, sendPage, sessionOf } from './portal-context.js';
import { csrfValid } from './sessions.js';
import { csrfRefusedPage } from './session-pages.js';

type Action = (request: FastifyRequest, reply: FastifyReply, session: ActiveSession) => Promise<FastifyReply>;
/** Shows the dashboard again, with the create form's error and what was typed. */
export type DashboardAgain = (
  request: FastifyRequest,
  reply: FastifyReply,
  session: ActiveSession,
  error: string,
) => Promise<FastifyReply>;

export function registerAppActions(
  app: FastifyInstance,
  grants: GrantStore,
  prefix: string,
  wrongMethod: WrongMethodAnswer,
  dashboardAgain: DashboardAgain,
  /** The name of the account's app with that client id, for the pages that say what was done to it. */
  appName: (accountId: string, clientId: string) => Promise<string | undefined>,
): void {
  const route = (url: string, action: Action): void =>
    routeEveryMethod(app, {
      url,
      method: ['POST'],
      wrongMethod,
      handler: async (request, reply) => {
        reply.header('cache-control', 'no-store');
        const session = sessionOf(request);
        if (!session) return redirectToLogin(request, reply, prefix);
        if (!csrfValid(session, readBody(request)?.csrf)) return csrfRefusedPage(request, reply, prefix);
        return action(request, reply, session);
      },
    });
  route('/dashboard/apps', async (request, reply, session) => {
    const checked = checkApp(typedApp(readBody(request) ?? {}));
    if (typeof checked === 'string') return dashboardAgain(request, reply, session, checked);
    const id = newId();
    const secret = checked.type === 'confidential' ? randomSecret() : undefined;
    await grants.createClient({
      id,
      tenantId: session.accountId,
      ...checked,
      secretHash: secret ? secretHash(secret) : '',
    });
    return sendPage(reply, secretPage(request, prefix, 'Your new app', checked.name, id, secret, 'created'), 201);
  });
  route('/dashboard/apps/rotate', async (request, reply, session) => {
    const id = clientIdOf(request);
    const secret = randomSecret();
    if (!(await grants.rotateSecret(session.accountId, id, secretHash(secret))))
      return notYours(request, reply, prefix, 'has no secret to rotate');
    const name = await appName(session.accountId, id);
    return sendPage(reply, secretPage(request, prefix, 'New secret', name, id, secret, 'rotated'));
  });
  route('/dashboard/apps/delete', async (request, reply, session) => {
    const id = clientIdOf(request);
    const name = await appName(session.accountId, id);
    if (!(await grants.deleteClient(session.accountId, id))) return notYours(request, reply, prefix, 'is not there');
    return sendPage(reply, deletedPage(request, prefix, id, name));
  });
}

function clientIdOf(request: FastifyRequest): string {
  const id = readBody(request)?.client_id;
  return typeof id === 'string' ? id : '';
}

function secretPage(
  request: FastifyRequest,
  prefix: string,
  title: string,
  name: string | undefined,
  id: string,
  secret: string | undefined,
  done: 'created' | 'rotated',
): string {
  const secretPart = secret
    ? `<p>Client secret <code class="secret">${escapeHtml(secret)}</code></p>
<p class="notice"><strong>This is the only time the secret is shown.</strong> Copy it now (select it and copy) and keep
it safe; the service stores only a hash of it.${done === 'rotated' ? ' The old secret is refused from now on.' : ''}</p>`
    : '<p class="notice">A public app has no secret: it uses the code flow with PKCE and sends only its client id.</p>';
  return page(
    frameOf(request, prefix),
    title,
    `<h1>${escapeHtml(title)}</h1>
<div class="card">
${name ? `<p>App <strong>${escapeHtml(name)}</strong></p>` : ''}
<p>Client id <code class="secret">${escapeHtml(id)}</code></p>
${secretPart}
</div>
<p><a class="btn" href="${prefix}/dashboard">Back to your apps</a></p>`,
  );
}

function deletedPage(request: FastifyRequest, prefix: string, id: string, name: string | undefined): string {
  const app = name === undefined ? '' : ` <strong>${escapeHtml(name)}</strong>`;
  return page(
    frameOf(request, prefix),
    'App deleted',
    `<h1>App deleted</h1>
<p class="notice">The app${app} (client id <code>${escapeHtml(id)}</code>) is deleted. Its tokens stop working within 5
seconds.</p>
<p><a class="btn" href="${prefix}/dashboard">Back to your apps</a></p>`,
  );
}

/** Another account's app, an unknown id, or a public app's rotation: 404, and nothing changed. */
function notYours(request: FastifyRequest, reply: FastifyReply, prefix: string, what: string): FastifyReply {
  return sendPage(
    reply,
    page(
      frameOf(request, prefix),
      'App not found',
      `<h1>Nothing changed</h1>
<p class="alert" role="alert">This account has no app with that client id, or the app ${escapeHtml(what)}.</p>
<p><a class="btn" href="${prefix}/dashboard">Back to your apps</a></p>`,
    ),
    404,
  );
}
