// The portal's pages in a real browser (SPEC §12), as a developer meets them: home, sign-up whose shown credentials
// call the API, an error's more_info page opened from an API answer, and the portal's 404 page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPortal, useBrowser } from './browser.js';

const chromium = useBrowser(import.meta.url);

/** A base64url string of exactly `length` characters, not part of a longer one: how ids and secrets are shown. */
function shown(text: string, length: number): string {
  const match = new RegExp(`(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{${length}}(?![A-Za-z0-9_-])`).exec(text);
  assert.ok(match, `no ${length}-character value on the page:\n${text}`);
  return match[0];
}

test('the home page says what the API is, and every link on it opens', async (t) => {
  const { page, visit, base } = await openPortal(t, chromium);
  assert.equal(await visit('/', 'home'), 200);
  assert.match((await page.locator('h1').first().textContent()) ?? '', /Dog Registry/);
  assert.match((await page.textContent('body')) ?? '', new RegExp(base.replace(/[.:/]/g, '\\$&')));
  const links = await page
    .locator('a[href]')
    .evaluateAll((anchors) => anchors.map((a) => (a as HTMLAnchorElement).href));
  assert.ok(links.length > 0);
  for (const link of new Set(links)) {
    if (!link.startsWith(base)) continue;
    const answer = await fetch(link);
    assert.equal(answer.status < 400, true, `${link} answered ${answer.status}`);
  }
});

test('sign-up without JavaScript, by keyboard: the credentials shown get a token that calls the API', async (t) => {
  const { page, visit, base, capture } = await openPortal(t, chromium, { javaScript: false });
  assert.equal(await visit('/signup', 'signup'), 200);
  await page.getByLabel('Email').fill('reader@example.com');
  await page.getByLabel(/^Password/).fill('a long passphrase');
  await page.getByLabel(/name of your app/i).fill('Browser test');
  const answered = page.waitForNavigation();
  await page.getByLabel(/name of your app/i).press('Enter');
  assert.equal((await answered)?.status(), 200);
  await capture('signup-done');

  const text = (await page.textContent('body')) ?? '';
  const clientId = shown(text, 22);
  const secret = shown(text, 43);
  const token = await fetch(`${base}/oauth2/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  assert.equal(token.status, 200);
  const { access_token: accessToken } = (await token.json()) as { access_token: string };
  const dogs = await fetch(`${base}/v2/dogs`, { headers: { authorization: `Bearer ${accessToken}` } });
  assert.equal(dogs.status, 200);
  assert.deepEqual(((await dogs.json()) as { dogs: unknown[] }).dogs, []);
});

test("an API error's more_info link opens its page in the portal", async (t) => {
  const { page, visit, base, api, capture } = await openPortal(t, chromium);
  const answer = await fetch(`${base}/v2/dogs?limit=many`, {
    headers: { authorization: `Bearer ${api.credentials.token}` },
  });
  assert.equal(answer.status, 400);
  const error = (await answer.json()) as { code: number; more_info: string };
  assert.equal(error.more_info, `${base}/portal/errors/${error.code}`);
  assert.equal(await visit(error.more_info, 'error-code'), 200);
  assert.match((await page.locator('h1').first().textContent()) ?? '', new RegExp(`${error.code}`));
  await page.getByRole('link', { name: /all error codes/i }).click();
  assert.equal(page.url(), `${base}/portal/errors`);
  await page.getByRole('link', { name: String(error.code), exact: true }).waitFor();
  await capture('errors');
});

test('a portal page that does not exist is an HTML 404 with a way home', async (t) => {
  const { page, visit, portal } = await openPortal(t, chromium);
  assert.equal(await visit('/no-such-page', 'not-found'), 404);
  assert.match((await page.locator('h1').first().textContent()) ?? '', /not found/i);
  await page.getByRole('link', { name: /home/i }).first().click();
  assert.equal(page.url().replace(/\/$/, ''), portal);
});
