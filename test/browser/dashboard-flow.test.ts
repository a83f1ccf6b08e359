// The dashboard in a real browser (SPEC §12), by keyboard and clicks, with and without JavaScript: log in, create an
// app whose secret (shown once) gets a token that calls the API, rotate (the old secret refused at once), delete (its
// token refused within 5 s), log out; and a form sent without its CSRF token refused with nothing changed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPortal, useBrowser } from './browser.js';
import {
  clientToken,
  createAppOnPage,
  dogsSeen,
  logInOnPage,
  refusedWithinFiveSeconds,
  shownCredentials,
  signUp,
  submit,
} from './flows-helper.js';

const chromium = useBrowser(import.meta.url);

for (const javaScript of [true, false]) {
  const mode = javaScript ? 'js' : 'nojs';
  test(`login → create → rotate → delete → logout (${javaScript ? 'with' : 'without'} JavaScript)`, async (t) => {
    const portal = await openPortal(t, chromium, { javaScript });
    const { page, base, visit, capture } = portal;
    page.setDefaultTimeout(5000);
    await signUp(base, 'ann@example.com');
    assert.equal(await visit('/login', `${mode}-login`), 200);
    const landed = await logInOnPage(page, 'ann@example.com');
    assert.equal(landed.status(), 200);
    assert.equal(page.url(), `${base}/portal/dashboard`);
    await capture(`${mode}-dashboard`);

    const created = await createAppOnPage(
      portal,
      { name: 'Fetch Bot', redirectUri: 'https://fetch.example/callback', type: 'confidential' },
      `${mode}-app-created`,
    );
    assert.ok(created.secret, 'a confidential app is shown its secret');
    const first = await clientToken(base, created.clientId, created.secret);
    assert.equal(first.status, 200);
    assert.equal((await dogsSeen(base, first.accessToken!)).status, 200);

    await submit(page, () => page.getByRole('link', { name: 'Back to your apps' }).click());
    // Shown once: the dashboard never shows the secret again.
    assert.ok(!((await page.textContent('body')) ?? '').includes(created.secret));
    const row = page.getByRole('listitem').filter({ hasText: 'Fetch Bot' });
    assert.match((await row.textContent()) ?? '', /https:\/\/fetch\.example\/callback/);
    const rotated = await submit(page, () => page.getByRole('button', { name: 'Rotate secret Fetch Bot' }).click());
    assert.equal(rotated.status(), 200);
    await capture(`${mode}-secret-rotated`);
    const second = await shownCredentials(page);
    assert.equal(second.clientId, created.clientId);
    assert.notEqual(second.secret, created.secret);
    const old = await clientToken(base, created.clientId, created.secret);
    assert.equal(old.status, 401);
    assert.equal(old.error, 'invalid_client');
    const fresh = await clientToken(base, created.clientId, second.secret!);
    assert.equal(fresh.status, 200);

    await submit(page, () => page.getByRole('link', { name: 'Back to your apps' }).click());
    const deleted = await submit(page, () => page.getByRole('button', { name: 'Delete Fetch Bot' }).click());
    assert.equal(deleted.status(), 200);
    await capture(`${mode}-app-deleted`);
    await refusedWithinFiveSeconds(base, fresh.accessToken!);
    assert.equal((await clientToken(base, created.clientId, second.secret!)).status, 401);
    await submit(page, () => page.getByRole('link', { name: 'Back to your apps' }).click());
    assert.equal(await page.getByRole('listitem').filter({ hasText: 'Fetch Bot' }).count(), 0);

    const out = await submit(page, () => page.getByRole('button', { name: 'Log out' }).click());
    assert.equal(out.status(), 200);
    assert.equal(page.url(), `${base}/portal`);
    await capture(`${mode}-logged-out`);
    // The session is over: the dashboard asks for a login again.
    await page.goto(`${base}/portal/dashboard`);
    assert.match(page.url(), /\/portal\/login\?next=/);
  });
}

test('a form sent without its CSRF token is refused with 403 and changes nothing', async (t) => {
  const portal = await openPortal(t, chromium);
  const { page, base, visit, capture } = portal;
  page.setDefaultTimeout(5000);
  await signUp(base, 'ann@example.com');
  await visit('/login', 'login');
  await logInOnPage(page, 'ann@example.com');
  const kept = await createAppOnPage(
    portal,
    { name: 'Keeper', redirectUri: 'https://keeper.example/callback', type: 'confidential' },
    'keeper-created',
  );
  await submit(page, () => page.getByRole('link', { name: 'Back to your apps' }).click());

  // Create: the hidden token taken out of the form in the page, then the form sent as usual.
  await page.locator('form[action$="/dashboard/apps"] input[name="csrf"]').evaluate((input) => input.remove());
  await page.getByLabel('Name', { exact: true }).fill('Sneaky');
  const refused = await submit(page, () => page.getByRole('button', { name: 'Create app' }).click());
  assert.equal(refused.status(), 403);
  await capture('csrf-refused');
  assert.match((await page.locator('h1').textContent()) ?? '', /refused/);
  await page.goto(`${base}/portal/dashboard`);
  assert.equal(await page.getByRole('listitem').filter({ hasText: 'Sneaky' }).count(), 0);

  // Delete and rotate: the app is still there and its secret still works.
  for (const action of ['Delete Keeper', 'Rotate secret Keeper']) {
    const button = page.getByRole('button', { name: action });
    await button
      .locator('xpath=..')
      .locator('input[name="csrf"]')
      .evaluate((input) => input.remove());
    assert.equal((await submit(page, () => button.click())).status(), 403, action);
    await page.goto(`${base}/portal/dashboard`);
    assert.equal(await page.getByRole('listitem').filter({ hasText: 'Keeper' }).count(), 1, action);
  }
  assert.equal((await clientToken(base, kept.clientId, kept.secret!)).status, 200);

  // Logout: the session goes on.
  await page.locator('form[action$="/logout"] input[name="csrf"]').evaluate((input) => input.remove());
  assert.equal((await submit(page, () => page.getByRole('button', { name: 'Log out' }).click())).status(), 403);
  await page.goto(`${base}/portal/dashboard`);
  assert.equal(page.url(), `${base}/portal/dashboard`);
});
