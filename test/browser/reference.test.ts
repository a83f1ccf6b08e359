// The API reference in a real browser (SPEC §12): Swagger UI from the portal draws every operation of v2, "try it"
// sends a real request with the reader's token, and without JavaScript the page links the documents instead.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { openPortal, useBrowser } from './browser.js';

const chromium = useBrowser(import.meta.url);

test('the reference draws every operation of v2 once: no .json/.xml twin, no CORS preflight', async (t) => {
  const { page, visit, portal } = await openPortal(t, chromium);
  const document = (await (await fetch(`${portal}/openapi/v2.json`)).json()) as {
    paths: Record<string, Record<string, unknown>>;
  };
  const all = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((key) => ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'].includes(key))
      .map((method) => `${method.toUpperCase()} ${path}`),
  );
  const twin = (operation: string): boolean => /\.(json|xml)$/.test(operation);
  const expected = all.filter((operation) => !twin(operation) && !operation.startsWith('OPTIONS '));
  assert.ok(expected.length > 30 && expected.length < all.length / 3, `${expected.length} of ${all.length}`);
  assert.ok(expected.includes('GET /dogs') && expected.includes('DELETE /dogs/{id}'));
  const started = Date.now();
  await page.goto(`${portal}/reference`);
  await page.locator('.opblock').first().waitFor({ timeout: 30_000 });
  t.diagnostic(`first operation drawn in ${Date.now() - started} ms`);
  const drawn = await drawnOperations(page);
  assert.deepEqual([...drawn].sort(), expected.sort());
  assert.equal(await visit('/reference', 'reference-v2'), 200);
});

test('"try it" sends GET /v2/dogs with the token given to Authorize, and shows its 200', async (t) => {
  const { page, portal, api, capture } = await openPortal(t, chromium);
  await page.goto(`${portal}/reference/v2`);
  await page.locator('.btn.authorize').click();
  const bearer = page.locator('.auth-container').filter({ hasText: 'bearerToken' });
  await bearer.locator('input').fill(api.credentials.token);
  await bearer.getByRole('button', { name: 'Apply credentials' }).click();
  await bearer.getByRole('button', { name: 'Remove authorization' }).waitFor();
  await capture('reference-authorized');
  await page.getByRole('button', { name: 'Close', exact: true }).first().click();

  const operation = page
    .locator('.opblock-get')
    .filter({ has: page.locator('[data-path="/dogs"]') })
    .first();
  await operation.locator('.opblock-summary-control').click();
  await operation.getByRole('button', { name: 'Try it out' }).click();
  const sent = page.waitForRequest((request) => new URL(request.url()).pathname === '/v2/dogs');
  await operation.getByRole('button', { name: 'Execute' }).click();
  const request = await sent;
  assert.equal(request.url().startsWith(`${api.config.publicUrl}/v2/dogs`), true);
  assert.equal(await request.headerValue('authorization'), `Bearer ${api.credentials.token}`);
  assert.equal((await request.response())?.status(), 200);
  const status = operation.locator('.live-responses-table tbody .response-col_status').first();
  await status.waitFor();
  assert.equal((await status.textContent())?.trim(), '200');
  await capture('reference-try-it');
});

test('v1 has its own reference page, and an unknown version is the portal 404', async (t) => {
  const { page, visit } = await openPortal(t, chromium);
  assert.equal(await visit('/reference/v1', 'reference-v1'), 200);
  await page.locator('.opblock').first().waitFor();
  assert.match((await page.locator('h1').first().textContent()) ?? '', /v1/);
  assert.equal((await page.locator('.opblock.opblock-deprecated').count()) > 0, true);
  assert.equal(await visit('/reference/v3', 'reference-unknown-version'), 404);
  assert.equal(await page.getByRole('link', { name: "the portal's home page" }).getAttribute('href'), '/portal');
});

test('without JavaScript the reference links the JSON documents, the error codes and the versions', async (t) => {
  const { page, visit, portal } = await openPortal(t, chromium, { javaScript: false });
  assert.equal(await visit('/reference', 'reference-no-js'), 200);
  for (const [name, href] of [
    ['OpenAPI document of v2', '/portal/openapi/v2.json'],
    ['OpenAPI document of v1', '/portal/openapi/v1.json'],
    ['error codes', '/portal/errors'],
  ]) {
    const link = page.getByRole('link', { name, exact: true });
    await link.waitFor();
    assert.equal(await link.getAttribute('href'), href);
  }
  await page.getByRole('link', { name: 'error codes', exact: true }).click();
  assert.equal(page.url(), `${portal}/errors`);
  await page.goto(`${portal}/openapi/v2.json`);
  assert.match((await page.textContent('body')) ?? '', /"openapi":"3\.1/);
});

/**
 * The operations Swagger UI draws, as "METHOD /path". Over 150 rows it draws only those near the screen (a virtual
 * list), so the page is scrolled from top to bottom and each screenful's operations collected.
 */
async function drawnOperations(page: Page): Promise<Set<string>> {
  const seen = new Set<string>();
  for (let y = 0; ; y += 400) {
    await page.evaluate((top) => window.scrollTo(0, top), y);
    // Two frames: the virtual list measures in one and draws in the next.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const visible = await page
      .locator('.opblock')
      .evaluateAll((blocks) =>
        blocks.map(
          (block) =>
            `${block.querySelector('.opblock-summary-method')?.textContent} ${block.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`,
        ),
      );
    for (const operation of visible) seen.add(operation);
    const bottom = await page.evaluate(
      () => window.scrollY + window.innerHeight >= document.documentElement.scrollHeight,
    );
    if (bottom) return seen;
  }
}
