// The versions page in a real browser: v1 and v2, then the changelog page reached from its link, at 1280 and 390 px.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RELEASES } from '../../src/portal/changelog.js';
import { openPortal, useBrowser } from './browser.js';

const chromium = useBrowser(import.meta.url);

test('the versions page links to the changelog, newest release first', async (t) => {
  const { page, visit, capture, portal } = await openPortal(t, chromium);
  assert.equal(await visit('/versions', 'versions'), 200);
  await page.getByRole('link', { name: 'the changelog' }).click();
  assert.equal(page.url(), `${portal}/changelog`);
  await capture('changelog');
  const releases = await page.locator('section.release h2').allTextContents();
  assert.deepEqual(
    releases,
    RELEASES.map((release) => `${release.title} ${release.date}`),
  );
  assert.ok(await page.getByRole('heading', { name: 'Changelog', level: 1 }).isVisible());
});
