// The usage page (SPEC §12): an app's requests per hour for 24 hours and per day for 30 days, by status class, drawn
// on the server as SVG, with the same numbers as text; an empty period is an empty chart, not an error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build } from '../helper.js';
import { DAY_MS, HOUR_MS } from '../../src/storage/request-log-store.js';
import { getPage } from './portal-helper.js';
import { developer, writeEntries } from './request-log-helper.js';

/** The page's now: 14:30 UTC, so that the last hour bar is 14:00 and the last day bar 25 Nov. */
const NOW = Date.UTC(2026, 10, 25, 14, 30);
const USAGE = (clientId: string) => `/portal/dashboard/apps/${clientId}/usage`;

/** One chart of the page: the SVG whose title id starts with `chart-<id>`. */
function chartOf(html: string, id: 'hours' | 'days'): string {
  const match = new RegExp(`<svg class="chart"[^>]*aria-labelledby="chart-${id}-title[^"]*"[\\s\\S]*?</svg>`).exec(
    html,
  );
  assert.ok(match, `the page has the ${id} chart`);
  return match[0];
}

/** The bars of a chart: each stack's tooltip and its segments' classes and counts. */
function barsOf(svg: string): Array<{ title: string; segments: string[] }> {
  return [...svg.matchAll(/<g class="stack"><title>([^<]*)<\/title>(.*?)<\/g>/g)].map((match) => ({
    title: match[1]!,
    segments: [...match[2]!.matchAll(/<rect class="seg (s\d)"[^>]* height="([\d.]+)" data-count="(\d+)"\/>/g)].map(
      (segment) => {
        assert.ok(Number(segment[2]) > 0, 'a segment has a height');
        return `${segment[1]}=${segment[3]}`;
      },
    ),
  }));
}

test('usage counts per hour and per day by status class, stacked bars in an SVG drawn on the server', async (t) => {
  const api = await build(t, {}, undefined, { clock: () => NOW });
  const ann = await developer(api, 'ann@example.com');
  const at = (time: number, status: number, count: number, tag: string) =>
    Array.from({ length: count }, (_, index) => ({ time, status, requestId: `${tag}-${index}` }));
  await writeEntries(api, ann, [
    ...at(NOW - 31 * DAY_MS, 200, 5, 'too-old'),
    ...at(NOW - 3 * DAY_MS, 500, 2, 'days-ago'),
    ...at(NOW - 25 * HOUR_MS, 200, 4, 'yesterday'),
    ...at(NOW - 2 * HOUR_MS, 200, 3, 'two-hours'),
    ...at(NOW - 2 * HOUR_MS + 60000, 404, 1, 'two-hours-404'),
    ...at(NOW - 20 * 60000, 302, 2, 'this-hour'),
    ...at(NOW - 10 * 60000, 201, 1, 'this-hour-201'),
  ]);

  const page = await getPage(api, USAGE(ann.clientId), ann.cookie);
  assert.equal(page.statusCode, 200);
  assert.equal(page.headers['cache-control'], 'no-store');
  assert.match(page.headers['content-security-policy'] as string, /script-src 'self'/);
  assert.ok(!/<script|style=|https?:\/\/(?!www\.w3\.org)/.test(page.body), 'no script, inline style or other host');

  const hours = chartOf(page.body, 'hours');
  assert.match(hours, /viewBox="0 0 \d+ \d+" role="img"/);
  assert.match(hours, /<title id="chart-hours-title">Requests per hour, last 24 hours, by status class<\/title>/);
  assert.match(hours, /<desc id="chart-hours-desc">[^<]*7 requests: 4 2xx, 2 3xx, 1 4xx, 0 5xx\./);
  assert.deepEqual(barsOf(hours), [
    { title: '2026-11-25 12:00 UTC: 4 requests (3 2xx, 0 3xx, 1 4xx, 0 5xx)', segments: ['s2=3', 's4=1'] },
    { title: '2026-11-25 14:00 UTC: 3 requests (1 2xx, 2 3xx, 0 4xx, 0 5xx)', segments: ['s2=1', 's3=2'] },
  ]);
  for (const label of ['20:00', '02:00', '08:00', '14:00']) assert.match(hours, new RegExp(`>${label}</text>`));

  const days = chartOf(page.body, 'days');
  assert.deepEqual(barsOf(days), [
    { title: '2026-11-22: 2 requests (0 2xx, 0 3xx, 0 4xx, 2 5xx)', segments: ['s5=2'] },
    { title: '2026-11-24: 4 requests (4 2xx, 0 3xx, 0 4xx, 0 5xx)', segments: ['s2=4'] },
    { title: '2026-11-25: 7 requests (4 2xx, 2 3xx, 1 4xx, 0 5xx)', segments: ['s2=4', 's3=2', 's4=1'] },
  ]);
  assert.match(days, />28 Oct<\/text>/);
  assert.match(days, />25 Nov<\/text>/);

  // The numbers without the picture: totals per class in the legend, each bucket in a table.
  const legend = (id: string) =>
    [
      ...page.body
        .split(`id="${id}-heading"`)[1]!
        .matchAll(/<li><span class="swatch (s\d)"[^>]*><\/span>.*?<strong>(\d+)<\/strong><\/li>/g),
    ].map((match) => `${match[1]}=${match[2]}`);
  assert.deepEqual(legend('hours').slice(0, 4), ['s2=4', 's3=2', 's4=1', 's5=0']);
  assert.deepEqual(legend('days').slice(0, 4), ['s2=8', 's3=2', 's4=1', 's5=2']);
  assert.match(
    page.body,
    /<tr><th scope="row">2026-11-22<\/th><td class="num">0<\/td><td class="num">0<\/td><td class="num">0<\/td><td class="num">2<\/td><\/tr>/,
  );
  assert.match(page.body, /<a href="[^"]+\/usage" aria-current="page">Usage<\/a>/);
});

test('an app without requests draws empty charts with a note, not an error', async (t) => {
  const api = await build(t, {}, undefined, { clock: () => NOW });
  const ann = await developer(api, 'ann@example.com');
  const page = await getPage(api, USAGE(ann.clientId), ann.cookie);
  assert.equal(page.statusCode, 200);
  for (const id of ['hours', 'days'] as const) {
    const chart = chartOf(page.body, id);
    assert.deepEqual(barsOf(chart), []);
    assert.match(chart, /<text class="empty-note"[^>]*>No requests yet<\/text>/);
    assert.match(chart, /<desc id="chart-[a-z]+-desc">No requests in this period/);
  }
  assert.equal(page.body.match(/No requests yet in this period\./g)?.length, 2);
});

test("another account's requests never count in the usage", async (t) => {
  const api = await build(t, {}, undefined, { clock: () => NOW });
  const ann = await developer(api, 'ann@example.com');
  const bob = await developer(api, 'bob@example.com');
  await writeEntries(api, { accountId: bob.accountId, clientId: ann.clientId }, [
    { time: NOW - HOUR_MS, status: 200, requestId: 'bob-on-anns-app' },
  ]);
  const page = await getPage(api, USAGE(ann.clientId), ann.cookie);
  assert.equal(page.statusCode, 200);
  assert.deepEqual(barsOf(chartOf(page.body, 'hours')), []);
});
