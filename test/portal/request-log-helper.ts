// Request log page helpers: an account signed up and logged in with a token of its app, API calls it makes, entries
// written straight into the log (for pages and periods no test would wait for), and what a page shows.
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../helper.js';
import { batchOf } from '../../src/storage/request-log-records.js';
import type { RequestLogEntry } from '../../src/storage/request-log-store.js';
import { tokenRequest } from './apps-helper.js';
import { logIn, PASSWORD } from './portal-helper.js';

export interface Developer {
  readonly accountId: string;
  readonly clientId: string;
  /** A client-credentials token of the app. */
  readonly token: string;
  /** The portal session's cookie. */
  readonly cookie: string;
}

/** Signs `email` up (JSON), gets a token of its first app and logs in on the portal. */
export async function developer(api: TestApp, email: string): Promise<Developer> {
  const signed = await api.request({
    method: 'POST',
    url: '/portal/signup',
    json: { email, password: PASSWORD, appName: 'Shelter app' },
    headers: { accept: 'application/json' },
    token: null,
  });
  assert.equal(signed.statusCode, 200, signed.body);
  const { account, client } = signed.json() as { account: { id: string }; client: Record<string, string> };
  const issued = await tokenRequest(api, client.clientId!, client.clientSecret!);
  assert.equal(issued.statusCode, 200, issued.body);
  const cookie = await logIn(api, email);
  return { accountId: account.id, clientId: client.clientId!, token: issued.json().access_token, cookie };
}

/** An API call with the given X-Request-Id, the developer's token in the header unless the URL has it already. */
export function call(api: TestApp, who: Developer, url: string, requestId: string): Promise<LightMyRequestResponse> {
  const token = url.includes('access_token=') ? null : who.token;
  return api.request({ url, token, headers: { 'x-request-id': requestId } });
}

/** What a test says of an entry it writes: when, its status and id, and maybe its method, path and duration. */
export interface WrittenEntry {
  readonly time: number;
  readonly status: number;
  readonly requestId: string;
  readonly method?: string;
  readonly path?: string;
  readonly durationMs?: number;
}

/** Entries of the developer's app, written as one batch. */
export async function writeEntries(
  api: TestApp,
  who: Pick<Developer, 'accountId' | 'clientId'>,
  entries: readonly WrittenEntry[],
): Promise<void> {
  await api.storage.requestLog.insertBatch(
    batchOf(
      entries.map((entry): RequestLogEntry => ({
        tenantId: who.accountId,
        clientId: who.clientId,
        time: entry.time,
        method: entry.method ?? 'GET',
        path: entry.path ?? `/v2/dogs?n=${entry.requestId}`,
        version: 2,
        status: entry.status,
        code: entry.status >= 400 ? 4000 : null,
        message: entry.status >= 400 ? 'There is no dog with that id.' : null,
        durationMs: entry.durationMs ?? 1.25,
        requestId: entry.requestId,
      })),
    ),
  );
}

/** The request ids of a log page's rows, in order. */
export function shownIds(html: string): string[] {
  return [...html.matchAll(/<a href="[^"]+" class="rid"[^>]*>([^<]+)<\/a>/g)].map((match) => match[1]!);
}

/** The href of the link labelled `label` (its &amp; undone). */
export function linkOf(html: string, label: string): string | undefined {
  const match = new RegExp(`<a href="([^"]+)"[^>]*>${label}</a>`).exec(html);
  return match?.[1]!.replaceAll('&amp;', '&');
}
