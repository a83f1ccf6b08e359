// Steps of the dashboard and code-flow browser tests: an account made as a script would (set-up, not under test), then
// what a person does on the pages (log in, create an app) and what an app does with the credentials (Node fetch).
import assert from 'node:assert/strict';
import type { Page, Response } from 'playwright-core';
import type { Portal } from './browser.js';

export const PASSWORD = 'a long passphrase';

export interface Account {
  readonly email: string;
  /** An access token of the account's first app (client_credentials): it acts on the account's own data. */
  readonly token: string;
}

/** Signs `email` up through the portal's JSON form and gets a token of its first app. */
export async function signUp(base: string, email: string): Promise<Account> {
  const answer = await fetch(`${base}/portal/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD, appName: 'Shelter app' }),
  });
  assert.equal(answer.status, 200, await answer.clone().text());
  const { client } = (await answer.json()) as { client: { clientId: string; clientSecret: string } };
  const token = await clientToken(base, client.clientId, client.clientSecret);
  assert.equal(token.status, 200);
  return { email, token: token.accessToken! };
}

/** client_credentials at /oauth2/token with HTTP Basic, as a server app sends it. */
export async function clientToken(base: string, clientId: string, secret: string): Promise<TokenAnswer> {
  return tokenCall(base, { grant_type: 'client_credentials' }, `${clientId}:${secret}`);
}

export interface TokenAnswer {
  readonly status: number;
  readonly accessToken?: string;
  readonly refreshToken?: string;
  readonly error?: string;
}

/** A POST to /oauth2/token with a form and, for a confidential client, `id:secret` as HTTP Basic. */
export async function tokenCall(base: string, form: Record<string, string>, basic?: string): Promise<TokenAnswer> {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (basic) headers.authorization = `Basic ${Buffer.from(basic).toString('base64')}`;
  const answer = await fetch(`${base}/oauth2/token`, { method: 'POST', headers, body: new URLSearchParams(form) });
  const body = (await answer.json()) as { access_token?: string; refresh_token?: string; error?: string };
  return { status: answer.status, accessToken: body.access_token, refreshToken: body.refresh_token, error: body.error };
}

/** GET {base}/v2/dogs with a bearer token: the status and the names of the dogs it sees. */
export async function dogsSeen(base: string, token: string): Promise<{ status: number; names: string[] }> {
  const answer = await fetch(`${base}/v2/dogs`, { headers: { authorization: `Bearer ${token}` } });
  if (answer.status !== 200) return { status: answer.status, names: [] };
  const { dogs } = (await answer.json()) as { dogs: Array<{ dog: { name: string } }> };
  return { status: 200, names: dogs.map((entry) => entry.dog.name) };
}

export async function createDog(base: string, token: string, name: string): Promise<void> {
  const answer = await fetch(`${base}/v2/dogs`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  assert.equal(answer.status, 201);
}

/** SPEC §7: a revoked token stops working within 5 s on every node; asked every 200 ms, never more than 6 s. */
export async function refusedWithinFiveSeconds(base: string, token: string): Promise<void> {
  const started = Date.now();
  for (;;) {
    const { status } = await dogsSeen(base, token);
    if (status === 401) return;
    assert.equal(status, 200);
    assert.ok(Date.now() - started < 6000, 'the token still works more than 5 s later');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Clicks (or presses Enter on) what submits a form or follows a link, and answers the page's new answer. */
export async function submit(page: Page, act: () => Promise<void>): Promise<Response> {
  const [answer] = await Promise.all([page.waitForNavigation(), act()]);
  assert.ok(answer, 'the page navigated');
  return answer;
}

/** The login page as a person fills it: email, password, Enter. Answers the page it lands on. */
export async function logInOnPage(page: Page, email: string): Promise<Response> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  return submit(page, () => page.getByLabel('Password').press('Enter'));
}

export interface Shown {
  readonly clientId: string;
  readonly secret?: string;
}

/** The client id and (for a confidential app) the secret a page shows once. */
export async function shownCredentials(page: Page): Promise<Shown> {
  const values = await page.locator('code.secret').allTextContents();
  assert.ok(values.length >= 1, 'the page shows the client id');
  return { clientId: values[0]!, secret: values[1] };
}

export interface NewApp {
  readonly name: string;
  readonly redirectUri: string;
  readonly type: 'confidential' | 'public';
}

/** Fills the dashboard's "Create an app" form (the page is the dashboard) and sends it; the page shows the result. */
export async function createAppOnPage(portal: Portal, app: NewApp, screenshot: string): Promise<Shown> {
  const { page } = portal;
  await page.getByLabel('Name', { exact: true }).fill(app.name);
  await page.getByLabel(/Redirect URIs/).fill(app.redirectUri);
  await page.getByRole('radio', { name: app.type === 'public' ? /Public/ : /Confidential/ }).check();
  const answer = await submit(page, () => page.getByRole('button', { name: 'Create app' }).click());
  assert.equal(answer.status(), 201);
  await portal.capture(screenshot);
  return shownCredentials(page);
}
