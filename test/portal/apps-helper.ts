// Dashboard app helpers: post a dashboard form with the session's CSRF token, read a secret page, get a token.
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../helper.js';
import { csrfOf, getPage } from './portal-helper.js';

/** Posts `fields` (and the dashboard's CSRF token unless `csrf` is given) to a dashboard form. */
export async function postForm(
  api: TestApp,
  path: string,
  cookie: string,
  fields: Record<string, string | string[]>,
  csrf?: string,
): Promise<LightMyRequestResponse> {
  const token = csrf ?? csrfOf((await getPage(api, '/portal/dashboard', cookie)).body);
  const body = new URLSearchParams({ csrf: token });
  for (const [name, value] of Object.entries(fields))
    for (const one of Array.isArray(value) ? value : [value]) body.append(name, one);
  return api.app.inject({
    method: 'POST',
    url: `/portal/dashboard/${path}`,
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
    payload: body.toString(),
  });
}

/** The client id and secret an answer page shows. */
export function shownCredentials(html: string): { clientId: string; secret?: string } {
  const id = /Client id <code class="secret">([^<]+)<\/code>/.exec(html);
  assert.ok(id, 'the page shows the client id');
  const secret = /Client secret <code class="secret">([^<]+)<\/code>/.exec(html);
  return { clientId: id[1]!, secret: secret?.[1] };
}

/** client_credentials at the token endpoint. */
export function tokenRequest(api: TestApp, clientId: string, secret: string): Promise<LightMyRequestResponse> {
  return api.request({
    method: 'POST',
    url: '/oauth2/token',
    token: null,
    form: { grant_type: 'client_credentials', client_id: clientId, client_secret: secret },
  });
}
