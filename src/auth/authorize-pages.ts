// The pages of /oauth2/authorize: the consent page and the error page shown instead of a redirect.
import type { FastifyReply } from 'fastify';
import type { Frame } from '../portal/html.js';
import { escapeHtml, page } from '../portal/html.js';

/**
 * SPEC §12's headers of every HTML answer, stricter than the portal's (no script, no fetch at all) but without its
 * form-action: the Allow answer redirects to the app, which Chrome holds form-action to. Styles are the portal's file.
 */
function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .header(
      'content-security-policy',
      "default-src 'none'; style-src 'self'; img-src 'self'; frame-ancestors 'none'; base-uri 'none'",
    )
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .type('text/html; charset=utf-8')
    .send(html);
}

/** The person logged in on the request's session, for the page's header (their email and the logout form). */
export interface PageSession {
  readonly email: string;
  readonly csrfToken: string;
}

/**
 * An authorization request that cannot be sent back to the app (RFC 6749 §4.1.2.1): said to the person, 400. With a
 * session, the header shows who is logged in, as on every other page of their session.
 */
export function sendAuthorizeError(reply: FastifyReply, problem: string, session?: PageSession): FastifyReply {
  return sendPage(
    reply,
    400,
    page(
      frameOf(reply, session),
      'Authorization failed',
      `<div class="card narrow">
<h1>This app's sign-in link is not valid</h1>
<p class="alert" role="alert">${escapeHtml(problem)}</p>
<p>Nothing was shared with the app. Tell the app's developer; they can fix the link or the app's registered redirect
URIs in the developer portal.</p>
</div>`,
    ),
  );
}

export interface ConsentView {
  readonly appName: string;
  readonly ownerEmail: string;
  readonly accountEmail: string;
  readonly scopes: readonly string[];
  /** The authorization request's parameters, posted back with the decision. */
  readonly params: Readonly<Record<string, string>>;
  readonly csrfToken: string;
  /** The URL of /oauth2/authorize under the public base. */
  readonly action: string;
}

const SCOPE_TEXT: Readonly<Record<string, string>> = {
  read: 'read your dogs, owners, veterinarians and foods',
  write: 'create, change and delete your dogs, owners, veterinarians and foods',
};

/** Names the app, its owner and the scopes asked for; Allow and Deny post the request back with the CSRF token. */
export function sendConsent(reply: FastifyReply, view: ConsentView): FastifyReply {
  const hidden = Object.entries(view.params)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n');
  const scopes = view.scopes
    .map((scope) => `<li><code>${escapeHtml(scope)}</code>: ${escapeHtml(SCOPE_TEXT[scope] ?? scope)}</li>`)
    .join('\n');
  return sendPage(
    reply,
    200,
    page(
      frameOf(reply, { email: view.accountEmail, csrfToken: view.csrfToken }),
      `Allow ${view.appName}?`,
      `<div class="card narrow consent">
<h1>Allow <strong>${escapeHtml(view.appName)}</strong> to use your Dog Registry account?</h1>
<p>The app <strong>${escapeHtml(view.appName)}</strong> is made by the account <strong>${escapeHtml(view.ownerEmail)}</strong>.
It asks to act for you, <strong>${escapeHtml(view.accountEmail)}</strong>, and to:</p>
<ul>
${scopes}
</ul>
<form method="post" action="${escapeHtml(view.action)}">
${hidden}
<input type="hidden" name="csrf_token" value="${escapeHtml(view.csrfToken)}">
<p class="actions"><button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" class="secondary" name="decision" value="deny">Deny</button></p>
</form>
<p class="muted">Nothing is shared with the app until you choose. Deny sends you back to the app without access.</p>
</div>`,
    ),
  );
}

/** A decision posted without the session's CSRF token: refused, nothing changes. */
export function sendForbidden(reply: FastifyReply, session: PageSession): FastifyReply {
  return sendPage(
    reply,
    403,
    page(
      frameOf(reply, session),
      'Form expired',
      `<div class="card narrow">
<h1>This form has expired</h1>
<p class="alert" role="alert">The form was not sent from your current session, so nothing was done. Go back to the app
and start again.</p>
</div>`,
    ),
  );
}

/** The answer to a method /oauth2/authorize does not take: a 400 page with Allow. */
export function sendWrongMethod(reply: FastifyReply, allow: string): FastifyReply {
  reply.header('allow', allow);
  return sendPage(
    reply,
    400,
    page(frameOf(reply), 'Wrong method', `<h1>Wrong method</h1><p>This page takes ${escapeHtml(allow)}.</p>`),
  );
}

/**
 * The portal's frame around these pages (its stylesheet, icon and links), set on the route by registerAuthorize; with
 * the session's person in the header when there is one.
 */
function frameOf(reply: FastifyReply, session?: PageSession): Frame {
  const frame = (reply.request.routeOptions.config as { frame?: Frame }).frame ?? { prefix: '' };
  return session ? { ...frame, session } : frame;
}
