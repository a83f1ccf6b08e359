// POST {portal}/signup: creates an account (a tenant) and its first OAuth client; GET shows the form.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthStore } from '../auth/auth-store.js';
import { SCOPES } from '../auth/oauth-server.js';
import { hashPassword, randomSecret, secretHash } from '../auth/secrets.js';
import { ApiError } from '../errors.js';
import { readBody } from '../http/raw-body.js';
import { enforceRateLimit, type RateLimiter } from '../http/rate-limit.js';
import { routeEveryMethod, type WrongMethodAnswer } from '../http/route-every-method.js';
import { serialize } from '../representation/document.js';
import { MEDIA_TYPES } from '../representation/formats.js';
import { isEmailAddress } from '../query/email-address.js';
import { checkXmlText } from '../query/xml-text.js';
import { shownTextProblem } from './app-form.js';
import { newId } from '../storage/ids.js';
import { escapeHtml, page, type Frame } from './html.js';
import { frameOf, sendPage, wantsPage } from './portal-context.js';

const MIN_PASSWORD_LENGTH = 12;
const FIELDS = ['email', 'password', 'appName'] as const;

/** Errors of a JSON sign-up are thrown to the one error handler, so they come in the API error shape (SPEC §7). */
/**
 * `limiter` counts sign-ups per IP (the open limit): each runs scrypt on purpose slowly, so
 * unlimited sign-ups would be an easy way to load the service.
 */
export function registerSignup(
  app: FastifyInstance,
  store: AuthStore,
  publicUrl: string,
  limiter: RateLimiter,
  wrongMethod: WrongMethodAnswer,
  prefix: string,
): void {
  routeEveryMethod(app, {
    url: '/signup',
    method: ['GET', 'POST'],
    wrongMethod,
    handler: async (request, reply) =>
      request.method === 'POST' ? signUp(request, reply) : sendPage(reply, formPage(frameOf(request, prefix))),
  });

  async function signUp(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const browser = wantsPage(request);
    try {
      if (limiter.enabled) enforceRateLimit(limiter, `signup:${request.ip}`, 'sign-ups from this address');
      const { email, password, appName } = readSignup(readBody(request) ?? {});
      const accountId = newId();
      const client = { id: newId(), name: appName, secret: randomSecret(), scopes: [...SCOPES] };
      const created = await store.createAccount({
        accountId,
        email,
        passwordHash: await hashPassword(password),
        client: { id: client.id, name: client.name, secretHash: secretHash(client.secret), scopes: client.scopes },
      });
      if (!created)
        throw new ApiError(
          'emailTaken',
          `An account with the email ${email} exists already. Sign up with another address.`,
        );
      app.businessMetrics.signups.inc();
      reply.header('cache-control', 'no-store');
      if (browser) return sendPage(reply, successPage(frameOf(request, prefix), client.id, client.secret, publicUrl));
      const document = {
        account: { id: accountId, email },
        client: { clientId: client.id, clientSecret: client.secret, scopes: client.scopes },
      };
      return reply.type(MEDIA_TYPES.json).send(serialize('json', document));
    } catch (error) {
      if (!(error instanceof ApiError) || !browser) throw error;
      return sendPage(reply, formPage(frameOf(request, prefix), error.message, typedValues(request)), 400);
    }
  }
}

function readSignup(body: Record<string, unknown>): { email: string; password: string; appName: string } {
  for (const name of Object.keys(body)) {
    if (!(FIELDS as readonly string[]).includes(name)) {
      throw new ApiError(
        'bodyFieldUnknown',
        `Sign-up takes the fields ${FIELDS.join(', ')}; "${name}" is not one of them.`,
      );
    }
  }
  const text = (name: (typeof FIELDS)[number]): string => {
    const value = body[name];
    // A form that gives a field twice reads as a list of its values.
    if (Array.isArray(value))
      throw new ApiError('fieldInvalid', `The field "${name}" is given ${value.length} times; give it once.`);
    if (typeof value !== 'string' || value.trim() === '')
      throw new ApiError('fieldRequired', `The field "${name}" is required.`);
    checkXmlText(value, `The field "${name}"`);
    return name === 'password' ? value : value.trim();
  };
  const email = text('email').toLowerCase();
  const emailProblem = shownTextProblem(email, 'The field "email"');
  if (emailProblem !== undefined) throw new ApiError('fieldInvalid', emailProblem);
  if (!isEmailAddress(email))
    throw new ApiError('emailInvalid', `The email "${email}" is not an address such as ann@example.com.`);
  const password = text('password');
  if ([...password].length < MIN_PASSWORD_LENGTH) {
    throw new ApiError(
      'passwordTooShort',
      `The password has ${[...password].length} characters; it needs at least ${MIN_PASSWORD_LENGTH}.`,
    );
  }
  const appName = text('appName');
  if ([...appName].length > 100)
    throw new ApiError('fieldTooLong', 'The field "appName" holds at most 100 characters.');
  const nameProblem = shownTextProblem(appName, 'The field "appName"');
  if (nameProblem !== undefined) throw new ApiError('fieldInvalid', nameProblem);
  return { email, password, appName };
}

/** What the browser sent, to fill the form again after an error: the email and the app's name, never the password. */
function typedValues(request: FastifyRequest): { email: string; appName: string } {
  let body: Record<string, unknown> = {};
  try {
    body = readBody(request) ?? {};
  } catch {
    // A body that does not parse kept nothing to show again.
  }
  const text = (value: unknown): string => (typeof value === 'string' ? value : '');
  return { email: text(body.email), appName: text(body.appName) };
}

function formPage(frame: Frame, error?: string, typed = { email: '', appName: '' }): string {
  return page(
    frame,
    'Sign up',
    `<div class="card narrow">
<h1>Sign up</h1>
<p class="muted">An account, and a first app with the id and secret that get access tokens.</p>
${error ? `<p class="alert" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="${frame.prefix}/signup">
<div class="field"><label for="email">Email</label>
<input id="email" type="email" name="email" autocomplete="email" required value="${escapeHtml(typed.email)}"></div>
<div class="field"><label for="password">Password <span class="hint">At least ${MIN_PASSWORD_LENGTH} characters</span></label>
<input id="password" type="password" name="password" autocomplete="new-password" minlength="${MIN_PASSWORD_LENGTH}" required></div>
<div class="field"><label for="appName">Name of your app</label>
<input id="appName" name="appName" maxlength="100" required value="${escapeHtml(typed.appName)}"></div>
<p><button type="submit">Create account</button></p>
</form>
<p class="muted">Already have an account? <a href="${frame.prefix}/login">Log in</a>.</p>
</div>`,
  );
}

function successPage(frame: Frame, clientId: string, secret: string, publicUrl: string): string {
  return page(
    frame,
    'Your client',
    `<h1>Your account is ready</h1>
<div class="card">
<p>Client id <code class="secret">${escapeHtml(clientId)}</code></p>
<p>Client secret <code class="secret">${escapeHtml(secret)}</code></p>
<p class="notice"><strong>This is the only time the secret is shown.</strong> Keep it safe; the service stores only a hash of it.</p>
</div>
<h2>Get an access token</h2>
<pre><code>curl -u '${escapeHtml(clientId)}:${escapeHtml(secret)}' \\
  -d grant_type=client_credentials ${escapeHtml(publicUrl)}/oauth2/token</code></pre>
<p><a class="btn" href="${frame.prefix}/login">Log in</a> to see your apps on the dashboard.</p>`,
  );
}
