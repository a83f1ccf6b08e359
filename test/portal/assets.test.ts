import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build } from '../helper.js';

test('the stylesheet is served cacheable with an ETag, and revalidates to 304', async (t) => {
  const api = await build(t);
  const css = await api.request({ url: '/portal/assets/portal.css', token: null });
  assert.equal(css.statusCode, 200);
  assert.equal(css.headers['content-type'], 'text/css; charset=utf-8');
  assert.equal(css.headers['cache-control'], 'public, max-age=86400');
  assert.match(css.body, /\.site-header/);
  assert.match(css.body, /@media \(max-width: 40rem\)/);
  const etag = String(css.headers.etag);
  assert.match(etag, /^"[\w-]+"$/);
  const again = await api.request({
    url: '/portal/assets/portal.css',
    token: null,
    headers: { 'if-none-match': etag },
  });
  assert.equal(again.statusCode, 304);
  assert.equal(again.body, '');
  // Over 1 KiB: compressed when asked, with its own tag, which revalidates too.
  const gzip = await api.request({
    url: '/portal/assets/portal.css',
    token: null,
    headers: { 'accept-encoding': 'gzip' },
  });
  assert.equal(gzip.headers['content-encoding'], 'gzip');
  const coded = String(gzip.headers.etag);
  const revalidated = await api.request({
    url: '/portal/assets/portal.css',
    token: null,
    headers: { 'accept-encoding': 'gzip', 'if-none-match': coded },
  });
  assert.equal(revalidated.statusCode, 304);
  assert.equal(revalidated.headers.etag, coded);
});

test('the icon: SVG for pages, ICO under the portal and at the root (no more favicon 404s)', async (t) => {
  const api = await build(t);
  const svg = await api.request({ url: '/portal/favicon.svg', token: null });
  assert.equal(svg.statusCode, 200);
  assert.equal(svg.headers['content-type'], 'image/svg+xml');
  assert.match(svg.body, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  for (const url of ['/portal/favicon.ico', '/favicon.ico']) {
    const ico = await api.app.inject({ url });
    assert.equal(ico.statusCode, 200, url);
    assert.equal(ico.headers['content-type'], 'image/x-icon', url);
    assert.equal(ico.headers['cache-control'], 'public, max-age=86400', url);
    const bytes = ico.rawPayload;
    assert.deepEqual([...bytes.subarray(0, 6)], [0, 0, 1, 0, 1, 0], `${url}: an ICO with one image`);
    assert.equal(bytes.readUInt32LE(6 + 8), bytes.length - 22, `${url}: the image fills the rest`);
    const revalidated = await api.app.inject({ url, headers: { 'if-none-match': String(ico.headers.etag) } });
    assert.equal(revalidated.statusCode, 304, url);
  }
  const wrong = await api.request({ method: 'POST', url: '/favicon.ico', token: null });
  assert.equal(wrong.statusCode, 400);
  assert.equal(wrong.json().code, 1003);
  assert.equal(wrong.headers.allow, 'GET, HEAD');
});

test('a portal on a host of its own serves its icon at the root path', async (t) => {
  const api = await build(t, { PORTAL_URL: 'http://developer.test' });
  const ico = await api.app.inject({ url: '/favicon.ico', headers: { host: 'developer.test' } });
  assert.equal(ico.statusCode, 200);
  assert.equal(ico.headers['content-type'], 'image/x-icon');
  const css = await api.app.inject({ url: '/assets/portal.css', headers: { host: 'developer.test' } });
  assert.equal(css.statusCode, 200);
});
