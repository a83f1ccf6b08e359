// The API reference in a real browser (SPEC §12): without JavaScript every operation of the OpenAPI document is on the
// page and a GET form still sends itself; with it, "try it" sends a real request with the reader's token and shows
// the answer. Every field is labelled, and the page fits a 390 px screen (checked by capture).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { openPortal, useBrowser } from './browser.js';

const chromium = useBrowser(import.meta.url);
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

/** The operation ids of the document at `url`. */
async function operationIds(url: string): Promise<string[]> {
  const document = (await (await fetch(url)).json()) as {
    paths: Record<string, Record<string, { operationId: string }>>;
  };
  return Object.values(document.paths).flatMap((item) =>
    METHODS.filter((method) => method in item).map((method) => item[method]!.operationId),
  );
}

/** The ids whose element is missing or not rendered (display: none, or inside a closed details). */
async function hiddenOperations(page: Page, ids: readonly string[]): Promise<string[]> {
  return page.evaluate((all) => all.filter((id) => !document.getElementById(id)?.checkVisibility()), [...ids]);
}

test('without JavaScript every operation of v2 is on the page, and a GET form sends itself with access_token', async (t) => {
  const { page, portal, api, problems } = await openPortal(t, chromium, { javaScript: false });
  assert.equal((await page.goto(`${portal}/reference`))?.status(), 200);
  await captureTop(page, 'reference-no-js', problems);
  const ids = await operationIds(`${portal}/openapi/v2.json`);
  assert.ok(ids.length > 100, `${ids.length} operations`);
  assert.deepEqual(await hiddenOperations(page, ids), []);
  assert.equal(
    await page
      .locator('#listDogs h3')
      .textContent()
      .then((text) => text?.replace(/\s+/g, ' ').trim()),
    'GET /dogs List dogs',
  );

  await api.request({ method: 'POST', url: '/v2/dogs', json: { name: 'Biscuit' } });
  const operation = page.locator('#listDogs');
  await operation.locator('summary', { hasText: 'Try it' }).click();
  await operation.getByLabel('Access token').fill(api.credentials.token);
  await capture(page, 'reference-no-js-try-it', t, operation);
  await operation.getByRole('button', { name: 'Send GET' }).click();
  await page.waitForURL(/\/v2\/dogs\.json\?access_token=/);
  assert.match((await page.textContent('body')) ?? '', /"name":"Biscuit"/);
});

test('a type name in an answer leads to its schema, described with its fields', async (t) => {
  const { page, portal, problems } = await openPortal(t, chromium, { javaScript: true });
  assert.equal((await page.goto(`${portal}/reference`))?.status(), 200);
  await page.locator('#getDog').getByRole('link', { name: 'DogEnvelope' }).first().click();
  await page.waitForURL(/#schema-DogEnvelope$/);
  const envelope = page.locator('#schema-DogEnvelope');
  assert.ok(await envelope.isVisible());
  // The envelope's one field is a dog: its type links on to the dog's own fields.
  await envelope.getByRole('link', { name: 'Dog', exact: true }).click();
  await page.waitForURL(/#schema-Dog$/);
  const dog = page.locator('#schema-Dog');
  assert.ok(await dog.isVisible());
  assert.deepEqual(await dog.locator('td[data-label="Field"] code.name').allTextContents(), [
    'id',
    'name',
    'furColor',
    'state',
    'location',
    'ownerId',
    'veterinarianId',
    'createdAt',
    'updatedAt',
  ]);
  await capture(page, 'reference-schema', t, dog);
  assert.deepEqual(problems, []);
});

test('"try it" sends real requests with the token of the page, and shows status, headers and body', async (t) => {
  const { page, portal, api, problems } = await openPortal(t, chromium);
  await page.goto(`${portal}/reference/v2`);
  await captureTop(page, 'reference-v2', problems);
  await page.getByLabel('Access token').fill(api.credentials.token);

  const create = page.locator('#createDog');
  await create.locator('summary', { hasText: 'Try it' }).click();
  const body = create.getByLabel('Body');
  assert.deepEqual(JSON.parse(await body.inputValue()), {
    name: 'Rex',
    furColor: 'brown',
    state: 'adoptable',
    location: 'Oslo',
  });
  const posted = page.waitForRequest(
    (request) => request.method() === 'POST' && request.url() === `${api.config.publicUrl}/v2/dogs`,
  );
  await create.getByRole('button', { name: 'Send POST' }).click();
  const post = await posted;
  assert.equal(await post.headerValue('authorization'), `Bearer ${api.credentials.token}`);
  assert.equal((await post.response())?.status(), 201);
  await create.locator('.try-result .status').waitFor();
  assert.equal(await create.locator('.try-result .status').textContent(), '201');
  const created = JSON.parse((await create.locator('.try-body').textContent()) ?? '{}') as { dog: { id: string } };

  const list = page.locator('#listDogs');
  await list.locator('summary', { hasText: 'Try it' }).click();
  await list.getByLabel(/^limit/).fill('5');
  await list.getByLabel(/^sort/).selectOption('-name');
  const sent = page.waitForRequest(
    (request) => new URL(request.url()).pathname === '/v2/dogs' && request.method() === 'GET',
  );
  await list.getByRole('button', { name: 'Send GET' }).click();
  const request = await sent;
  assert.equal(request.url(), `${api.config.publicUrl}/v2/dogs?limit=5&sort=-name`);
  assert.equal(await request.headerValue('authorization'), `Bearer ${api.credentials.token}`);
  assert.equal((await request.response())?.status(), 200);
  const result = list.locator('.try-result');
  await result.locator('.status').waitFor();
  assert.equal(await result.locator('.status').textContent(), '200');
  assert.match((await result.textContent()) ?? '', /x-request-id: /);
  assert.match((await result.locator('.try-body').textContent()) ?? '', new RegExp(`"id": "${created.dog.id}"`));
  await capture(page, 'reference-try-it', t, list);

  // A path parameter goes into the path.
  const one = page.locator('#getDog');
  await one.locator('summary', { hasText: 'Try it' }).click();
  await one.getByLabel(/^id/).fill(created.dog.id);
  await one.getByRole('button', { name: 'Send GET' }).click();
  await one.locator('.try-result .status').waitFor();
  assert.equal(await one.locator('.try-result .status').textContent(), '200');
});

test('every field of the page is labelled, and the keyboard opens and sends a form', async (t) => {
  const { page, portal } = await openPortal(t, chromium);
  await page.goto(`${portal}/reference`);
  const unlabelled = await page.evaluate(() =>
    [...document.querySelectorAll('input, select, textarea')]
      .filter((field) => (field as HTMLInputElement).labels?.length === 0)
      .map((field) => field.id),
  );
  assert.deepEqual(unlabelled, []);
  const summary = page.locator('#listAdoptableDogs summary');
  await summary.focus();
  await page.keyboard.press('Enter');
  const button = page.locator('#listAdoptableDogs').getByRole('button', { name: 'Send GET' });
  await button.focus();
  await page.keyboard.press('Enter');
  await page.locator('#listAdoptableDogs .try-result .status').waitFor();
  assert.equal(await page.locator('#listAdoptableDogs .try-result .status').textContent(), '200');
});

test('v1 has its own reference, marked deprecated and linked to v2; an unknown version is the portal 404', async (t) => {
  const { page, visit, portal, problems } = await openPortal(t, chromium);
  assert.equal((await page.goto(`${portal}/reference/v1`))?.status(), 200);
  await captureTop(page, 'reference-v1', problems);
  assert.match((await page.locator('h1').textContent()) ?? '', /v1, deprecated/);
  assert.ok((await page.locator('#listDogs .tag-deprecated').count()) === 1);
  await page.locator('nav.versions').getByRole('link', { name: 'v2 (current)' }).click();
  assert.match((await page.locator('h1').textContent()) ?? '', /v2, current/);
  assert.equal(await visit('/reference/v3', 'reference-unknown-version'), 404);
  assert.equal(await page.getByRole('link', { name: "the portal's home page" }).getAttribute('href'), '/portal');
});

/**
 * The first screen of a reference page at 1280 and 390 px, and no sideways scroll at 390 px. The whole page is too tall
 * for the suite's full-page screenshots (Chromium times out), so they are left to the shorter pages.
 */
async function captureTop(page: Page, name: string, problems: readonly string[]) {
  const dir = `${process.cwd()}/test-output/screenshots/reference`;
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    // Loaded at the phone's width, as a phone would: the script closes the table of contents there.
    if (width === 390) await page.reload();
    await page.screenshot({ path: `${dir}/${name}-${width}.png` });
    const { scrollWidth, clientWidth, height } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      clientWidth: document.documentElement.clientWidth,
      height: document.documentElement.scrollHeight,
    }));
    assert.ok(scrollWidth <= clientWidth, `${name} at ${width} px is ${scrollWidth} px wide (${height} px tall)`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  assert.deepEqual(problems, [], `${name}: the page logged errors or asked another host`);
}

/** The part of the page a test is about, at 1280 and 390 px (the whole page is captured by visit). */
async function capture(
  page: Page,
  name: string,
  t: { diagnostic: (message: string) => void },
  part: ReturnType<Page['locator']>,
) {
  const dir = `${process.cwd()}/test-output/screenshots/reference`;
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await part.screenshot({ path: `${dir}/${name}-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  t.diagnostic(`saved ${name}`);
}
