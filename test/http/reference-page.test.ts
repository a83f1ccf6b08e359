// The API reference pages and their assets, over HTTP (SPEC §12): served by the portal, cacheable, under a CSP that
// allows no inline script; what a browser does with them is test/browser/reference.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build } from '../helper.js';

// The portal's policy, plus the style attributes Swagger UI sets as it draws: no inline <style>, no inline script.
const POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self'; style-src-attr 'unsafe-inline'; img-src 'self' data:; " +
  "connect-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'; object-src 'none'";

test('the reference of each version is an HTML page naming its document, its scripts as files', async (t) => {
  const api = await build(t);
  for (const [url, version] of [
    ['/portal/reference', 2],
    ['/portal/reference/v2', 2],
    ['/portal/reference/v1', 1],
  ] as const) {
    const response = await api.request({ url, token: null, headers: { accept: 'text/html' } });
    assert.equal(response.statusCode, 200, url);
    assert.equal(response.headers['content-type'], 'text/html; charset=utf-8', url);
    assert.equal(response.headers['content-security-policy'], POLICY, url);
    assert.ok(response.body.includes(`data-document="/portal/openapi/v${version}.json"`), url);
    assert.ok(response.body.includes('<script src="/portal/assets/swagger-ui/swagger-ui-bundle.js" defer></script>'));
    assert.ok(response.body.includes('<script src="/portal/assets/reference.js" defer></script>'));
    // No inline script: every <script> names a file.
    assert.deepEqual(response.body.match(/<script(?![^>]*\ssrc=)[^>]*>/g), null, url);
    // The fallback without JavaScript links both documents and the error codes.
    const fallback = /<noscript>([\s\S]*?)<\/noscript>/.exec(response.body)?.[1] ?? '';
    for (const link of ['/portal/openapi/v1.json', '/portal/openapi/v2.json', '/portal/errors'])
      assert.ok(fallback.includes(`href="${link}"`), `${url}: the fallback links ${link}`);
  }
  const unknown = await api.request({ url: '/portal/reference/v3', token: null });
  assert.equal(unknown.statusCode, 404);
  assert.equal(unknown.headers['content-type'], 'text/html; charset=utf-8');
  const wrong = await api.request({ method: 'POST', url: '/portal/reference', token: null });
  assert.equal(wrong.statusCode, 400);
  assert.equal(wrong.headers.allow, 'GET, HEAD');
});

test('a portal on a host of its own lets "try it" call {base} and nothing else', async (t) => {
  const api = await build(t, { PORTAL_URL: 'https://developer.example.com' });
  const response = await api.request({
    url: '/reference',
    token: null,
    headers: { host: 'developer.example.com' },
  });
  assert.equal(response.statusCode, 200);
  assert.match(String(response.headers['content-security-policy']), /; connect-src 'self' http:\/\/api\.test;/);
});

test('Swagger UI and the starter are served from the portal, cacheable and revalidated with their ETag', async (t) => {
  const api = await build(t);
  for (const [url, type, text] of [
    ['/portal/assets/swagger-ui/swagger-ui-bundle.js', 'text/javascript; charset=utf-8', 'SwaggerUIBundle'],
    ['/portal/assets/swagger-ui/swagger-ui.css', 'text/css; charset=utf-8', '.swagger-ui'],
    ['/portal/assets/reference.js', 'text/javascript; charset=utf-8', 'validatorUrl: null'],
    ['/portal/assets/reference.css', 'text/css; charset=utf-8', '.swagger-ui'],
  ] as const) {
    const response = await api.request({ url, token: null });
    assert.equal(response.statusCode, 200, url);
    assert.equal(response.headers['content-type'], type, url);
    assert.equal(response.headers['cache-control'], 'public, max-age=86400', url);
    assert.ok(response.body.includes(text), url);
    const etag = String(response.headers.etag);
    assert.match(etag, /^"[\w-]+"$/, url);
    const again = await api.request({ url, token: null, headers: { 'if-none-match': etag } });
    assert.equal(again.statusCode, 304, url);
    assert.equal(again.body, '', url);
  }
  // The bundle is 1.7 MB: it leaves compressed, with its own tag.
  const compressed = await api.request({
    url: '/portal/assets/swagger-ui/swagger-ui-bundle.js',
    token: null,
    headers: { 'accept-encoding': 'br' },
  });
  assert.equal(compressed.headers['content-encoding'], 'br');
  assert.match(String(compressed.headers.etag), /-br"$/);
  assert.ok(compressed.rawPayload.length < 600_000);
});
