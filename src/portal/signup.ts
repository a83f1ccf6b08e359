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
import { checkXmlText } from '../query/xml-text.js';
import { newId } from '../storage/ids.js';
import { escapeHtml, page } from './html.js';

const MIN_PASSWORD_LENGTH = 12;
const EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]{2,}$/;
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
): void {
  routeEveryMethod(app, {
    url: '/signup',
    method: ['GET', 'POST'],
    wrongMethod,
    handler: async (request, reply) =>
      request.method === 'POST' ? signUp(request, reply) : reply.type('text/html; charset=utf-8').send(formPage()),
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
      if (browser) return reply.type('text/html; charset=utf-8').send(successPage(client.id, client.secret, publicUrl));
      const document = {
        account: { id: accountId, email },
        client: { clientId: client.id, clientSecret: client.secret, scopes: client.scopes },
      };
      return reply.type(MEDIA_TYPES.json).send(serialize('json', document));
    } catch (error) {
      if (!(error instanceof ApiError) || !browser) throw error;
      return reply.code(400).type('text/html; charset=utf-8').send(formPage(error.message));
    }
  }

  function wantsPage(request: FastifyRequest): boolean {
    const accept = request.headers.accept ?? '';
    return accept.includes('text/html') && !accept.includes('application/json');
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
    if (typeof value !== 'string' || value.trim() === '')
      throw new ApiError('fieldRequired', `The field "${name}" is required.`);
    checkXmlText(value, `The field "${name}"`);
    return name === 'password' ? value : value.trim();
  };
  const email = text('email').toLowerCase();
  if (!EMAIL.test(email) || email.length > 254)
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
  return { email, password, appName };
}

function formPage(error?: string): string {
  return page(
    'Sign up',
    `<h1>Sign up for the Dog Registry API</h1>
${error ? `<p role="alert"><strong>${escapeHtml(error)}</strong></p>` : ''}
<form method="post">
<p><label>Email <input type="email" name="email" required></label></p>
<p><label>Password (at least ${MIN_PASSWORD_LENGTH} characters) <input type="password" name="password" minlength="${MIN_PASSWORD_LENGTH}" required></label></p>
<p><label>Name of your app <input name="appName" maxlength="100" required></label></p>
<p><button type="submit">Create account</button></p>
</form>`,
  );
}

function successPage(clientId: string, secret: string, publicUrl: string): string {
  return page(
    'Your client',
    `<h1>Your account is ready</h1>
<p>Your client id is <code>${escapeHtml(clientId)}</code> and its secret is <code>${escapeHtml(secret)}</code>.</p>
<p><strong>This is the only time the secret is shown.</strong> Keep it safe; the service stores only a hash of it.</p>
<p>Get an access token:</p>
<pre>curl -u '${escapeHtml(clientId)}:${escapeHtml(secret)}' -d grant_type=client_credentials ${escapeHtml(publicUrl)}/oauth2/token</pre>`,
  );
}
