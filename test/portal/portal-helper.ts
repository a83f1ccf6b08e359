// Portal test helpers: an account signed up through the portal, a login that returns its session cookie, a page's token.
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../helper.js';

export const PASSWORD = 'a long passphrase';

/** Signs up `email` (JSON, as a script would) and returns the account id, its first client id and that secret. */
export async function signUp(
  api: TestApp,
  email: string,
): Promise<{ accountId: string; clientId: string; clientSecret: string }> {
  const response = await api.request({
    method: 'POST',
    url: '/portal/signup',
    json: { email, password: PASSWORD, appName: 'Shelter app' },
    headers: { accept: 'application/json' },
    token: null,
  });
  assert.equal(response.statusCode, 200, response.body);
  const body = response.json();
  return { accountId: body.account.id, clientId: body.client.clientId, clientSecret: body.client.clientSecret };
}

/** Posts the login form; `cookie` is a session cookie the browser already has. */
export function postLogin(
  api: TestApp,
  fields: Record<string, string>,
  cookie?: string,
  ip = '203.0.113.7',
): Promise<LightMyRequestResponse> {
  return api.app.inject({
    method: 'POST',
    url: '/portal/login',
    remoteAddress: ip,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
    payload: new URLSearchParams(fields).toString(),
  });
}

/** The `name=value` pair of the Set-Cookie of an answer. */
export function sessionCookie(response: LightMyRequestResponse): string {
  const header = response.headers['set-cookie'];
  const line = Array.isArray(header) ? header[0] : header;
  assert.ok(line, 'the answer sets a cookie');
  return line.split(';')[0]!;
}

/** Logs `email` in and returns the session cookie (`name=value`). */
export async function logIn(api: TestApp, email: string): Promise<string> {
  const response = await postLogin(api, { email, password: PASSWORD });
  assert.equal(response.statusCode, 303, response.body);
  return sessionCookie(response);
}

/** GET a portal page as a browser with `cookie`. */
export function getPage(api: TestApp, url: string, cookie?: string): Promise<LightMyRequestResponse> {
  return api.request({ url, token: null, headers: { accept: 'text/html', ...(cookie ? { cookie } : {}) } });
}

/** The CSRF token a page's logout form carries. */
export function csrfOf(html: string): string {
  const match = /name="csrf" value="([^"]+)"/.exec(html);
  assert.ok(match, 'the page has a form with a CSRF token');
  return match[1]!;
}
