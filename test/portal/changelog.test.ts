// The changelog at {portal}/changelog (SPEC §12): every release, newest first, with its date and what changed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build } from '../helper.js';
import { RELEASES } from '../../src/portal/changelog.js';
import { getPage } from './portal-helper.js';

test('the changelog page lists every release, newest first, each with its date and changes', async (t) => {
  const api = await build(t);
  const versions = await getPage(api, '/portal/versions');
  assert.match(versions.body, /<a href="\/portal\/changelog">the\nchangelog<\/a>/);
  const page = await getPage(api, '/portal/changelog');
  assert.equal(page.statusCode, 200);
  assert.match(page.body, /<title>Changelog · /);
  const changelog = page.body.slice(page.body.indexOf('<h1>Changelog</h1>'));
  assert.ok(page.body.includes('<h1>Changelog</h1>'), 'the page has a heading');
  const shown = [...changelog.matchAll(/<h2>([^<]+) <time datetime="(\d{4}-\d{2}-\d{2})">\2<\/time><\/h2>/g)].map(
    (match) => ({ title: match[1], date: match[2] }),
  );
  assert.deepEqual(
    shown,
    RELEASES.map((release) => ({ title: release.title, date: release.date })),
  );
  assert.ok(shown.length >= 4);
  assert.equal(shown.at(-1)!.title, 'First release');
  const dates = shown.map((release) => release.date!);
  assert.deepEqual(dates, [...dates].sort().reverse(), 'newest first');
  for (const date of dates) assert.ok(!Number.isNaN(Date.parse(`${date}T00:00:00Z`)), date);
  // Each release says what changed, as list items, escaped like any text of the page.
  for (const release of RELEASES) {
    assert.ok(release.changes.length > 0, release.title);
    for (const change of release.changes)
      assert.ok(changelog.includes(`<li>${change.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</li>`), change);
  }
  assert.match(changelog, /<li>The OAuth authorization-code flow at \/oauth2\/authorize/);
});
