// An app's request log and usage in a real browser (SPEC §12): a developer's API calls found by their X-Request-Id,
// a request's details, the 4xx filter, the usage charts, another account kept out; with and without JavaScript.
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { HOUR_MS } from '../../src/storage/request-log-store.js';
import { PASSWORD } from '../portal/portal-helper.js';
import { writeEntries, type WrittenEntry } from '../portal/request-log-helper.js';
import { openPortal, useBrowser, type Portal } from './browser.js';

const chromium = useBrowser(import.meta.url);
const TRACE = 'trace-404-from-the-browser-test';
const PATHS = ['/v2/dogs?limit=20', '/v2/dogs/dg_8Kq2/owners', '/v2/owners?q=smith', '/v2/dogs?fields=name,breed'];

/** Signs up through the API (as a script would) and returns the app's credentials and a token of it. */
async function signUp(base: string, email: string) {
  const signed = await fetch(`${base}/portal/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD, appName: 'Kennel sync' }),
  });
  assert.equal(signed.status, 200);
  const { account, client } = (await signed.json()) as {
    account: { id: string };
    client: { clientId: string; clientSecret: string };
  };
  const issued = await fetch(`${base}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: client.clientId,
      client_secret: client.clientSecret,
    }),
  });
  assert.equal(issued.status, 200);
  const { access_token: token } = (await issued.json()) as { access_token: string };
  return { accountId: account.id, clientId: client.clientId, token };
}

async function logIn(page: Page, portal: string, email: string): Promise<void> {
  await page.goto(`${portal}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  const answered = page.waitForNavigation();
  await page.getByLabel('Password').press('Enter');
  assert.equal((await answered)?.status(), 200);
}

/** A morning's traffic of the app through the API, the 404 with the test's own X-Request-Id among it. */
async function makeCalls({ base, api }: Portal, token: string): Promise<void> {
  const send = async (path: string, status: number, init: RequestInit = {}) => {
    const headers = { authorization: `Bearer ${token}`, ...(init.headers as Record<string, string>) };
    const answer = await fetch(`${base}${path}`, { ...init, headers });
    assert.equal(answer.status, status, path);
  };
  await send('/v2/dogs?limit=5', 200);
  await send('/v2/dogs', 201, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"name":"Rex"}',
  });
  await send('/v1/dogs?limit=many', 400);
  await send('/v2/dogs/no-such-dog', 404, { headers: { 'x-request-id': TRACE } });
  await send('/v2/owners', 200);
  await api.app.requestRecorder.flush();
}

/** Older traffic written straight into the log, so that the charts show a day's and a month's shape. */
async function history(portal: Portal, who: { accountId: string; clientId: string }): Promise<void> {
  const now = Date.now();
  const entries: WrittenEntry[] = [];
  for (let bucket = 1; bucket < 24 * 30; bucket += bucket < 24 ? 1 : 5) {
    const base = now - bucket * HOUR_MS;
    const busy = 3 + ((bucket * 7) % 11) + (bucket < 24 ? 6 : 0);
    for (let index = 0; index < busy; index++) {
      const status = index % 9 === 8 ? 404 : index % 13 === 12 ? 503 : index % 7 === 6 ? 304 : 200;
      const path = PATHS[(bucket + index) % PATHS.length]!;
      const durationMs = 0.6 + ((bucket * 31 + index * 17) % 90) / 10;
      entries.push({ time: base + index * 61000, status, requestId: randomUUID(), path, durationMs });
    }
  }
  entries.sort((a, b) => a.time - b.time);
  await writeEntries(portal.api, who, entries);
}

test('a developer finds a request by its X-Request-Id, opens its details, filters 4xx and sees the usage', async (t) => {
  // A month of history kept (the default keeps 7 days), so that the 30-day chart has a month's shape.
  const portal = await openPortal(t, chromium, { env: { REQUEST_LOG_DAYS: '30' } });
  const { page, base, capture } = portal;
  const ann = await signUp(base, 'ann@example.com');
  await history(portal, ann);
  await makeCalls(portal, ann.token);
  await logIn(page, portal.portal, 'ann@example.com');
  await capture('dashboard-with-links');

  await page.getByRole('link', { name: 'Request log of Kennel sync' }).click();
  await page.getByRole('heading', { level: 1, name: /Request log/ }).waitFor();
  await capture('request-log');
  const row = page.locator('tr', { hasText: TRACE });
  assert.equal(await row.count(), 1);
  assert.match((await row.textContent()) ?? '', /GET\s*\/v2\/dogs\/no-such-dog\s*v2\s*404/);

  await page.getByRole('link', { name: TRACE }).click();
  await page.getByRole('heading', { level: 1, name: /Request details/ }).waitFor();
  await capture('request-details');
  const details = (await page.textContent('main')) ?? '';
  assert.match(details, /Messag.*dog/is);
  const codeLink = page.locator('dd a[href*="/errors/"]');
  assert.equal(await codeLink.count(), 1);

  await page.getByRole('link', { name: 'Back to the request log' }).click();
  await page.getByLabel('Status').selectOption('4xx');
  await page.getByRole('button', { name: 'Filter' }).click();
  await page.waitForURL(/status=4xx/);
  await capture('request-log-4xx');
  const statuses = await page.locator('tbody .status').allTextContents();
  assert.ok(statuses.length >= 2, 'the 400 and the 404 at least');
  assert.ok(
    statuses.every((status) => status.startsWith('4')),
    statuses.join(' '),
  );

  await page.getByRole('link', { name: 'Usage' }).click();
  await page.getByRole('heading', { level: 1, name: /Usage/ }).waitFor();
  await capture('usage');
  for (const id of ['hours', 'days']) {
    const bars = page.locator(`svg[aria-labelledby^="chart-${id}"] rect.seg`);
    assert.ok((await bars.count()) > 5, `${id}: bars are drawn`);
    const box = await bars.first().boundingBox();
    assert.ok(box && box.height > 0 && box.width > 1, `${id}: a bar has a size`);
  }
  await page.locator('details.numbers summary').first().click();
  await capture('usage-numbers');
});

test("a second account does not see the first one's app or requests", async (t) => {
  const portal = await openPortal(t, chromium);
  const { page, base, visit } = portal;
  const ann = await signUp(base, 'ann@example.com');
  await makeCalls(portal, ann.token);
  await signUp(base, 'bob@example.com');
  await logIn(page, portal.portal, 'bob@example.com');
  assert.equal(await visit(`/dashboard/apps/${ann.clientId}/requests`, 'other-account-log'), 404);
  assert.equal(await visit(`/dashboard/apps/${ann.clientId}/requests/${TRACE}`, 'other-account-details'), 404);
  assert.equal(await visit(`/dashboard/apps/${ann.clientId}/usage`, 'other-account-usage'), 404);
  assert.ok(!((await page.textContent('body')) ?? '').includes('Kennel sync'));
});

test('without JavaScript: the filter form, the details and the usage work by keyboard', async (t) => {
  const portal = await openPortal(t, chromium, { javaScript: false });
  const { page, base, capture } = portal;
  const ann = await signUp(base, 'ann@example.com');
  await makeCalls(portal, ann.token);
  await logIn(page, portal.portal, 'ann@example.com');
  await page.goto(`${portal.portal}/dashboard/apps/${ann.clientId}/requests`);
  await page.getByLabel(/Request id/).fill(TRACE);
  const filtered = page.waitForNavigation();
  await page.getByLabel(/Request id/).press('Enter');
  assert.equal((await filtered)?.status(), 200);
  assert.deepEqual(await page.locator('a.rid').allTextContents(), [TRACE]);
  await capture('request-log-by-id-no-js');
  await page.locator('a.rid').focus();
  const opened = page.waitForNavigation();
  await page.keyboard.press('Enter');
  assert.equal((await opened)?.status(), 200);
  assert.match((await page.textContent('h1')) ?? '', /Request details/);

  assert.equal(
    await portal.visit(`/dashboard/apps/${ann.clientId}/requests?status=7xx`, 'request-log-bad-filter'),
    400,
  );
  assert.match((await page.textContent('[role=alert]')) ?? '', /not a status class/);
  assert.equal(await portal.visit(`/dashboard/apps/${ann.clientId}/usage`, 'usage-no-js'), 200);
  assert.ok((await page.locator('svg rect.seg').count()) > 0);
});
