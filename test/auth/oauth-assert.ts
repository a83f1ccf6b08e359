// What the tests of the token, revocation and introspection endpoints share: a raw form POST, Basic credentials, and
// the RFC error shape asserted whole.
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../helper.js';

export const ENDPOINTS = ['/oauth2/token', '/oauth2/revoke', '/oauth2/introspect'] as const;
export type Path = (typeof ENDPOINTS)[number];

/** A raw form body (so that a parameter can be repeated or left empty) with any headers. */
export function post(api: TestApp, url: Path, form: string, headers: Record<string, string> = {}) {
  return api.request({
    method: 'POST',
    url,
    token: null,
    body: form,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  });
}

export function basic(id: string, secret: string): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}` };
}

/** What each endpoint needs besides the client's credentials to succeed. */
export function needed(url: Path, token: string): string {
  return url === '/oauth2/token' ? 'grant_type=client_credentials' : `token=${encodeURIComponent(token)}`;
}

/**
 * The RFC error shape, asserted whole: status, exactly {error, error_description}, no-store, and a
 * Basic challenge only on the invalid_client of a client that tried Basic (`challenged`).
 */
export function assertOAuthError(
  response: LightMyRequestResponse,
  status: number,
  error: string,
  what: string,
  challenged = false,
): void {
  assert.equal(response.statusCode, status, `${what}: ${response.body}`);
  const body = response.json();
  assert.deepEqual(Object.keys(body), ['error', 'error_description'], what);
  assert.equal(body.error, error, what);
  assert.match(body.error_description, /^[\x20\x21\x23-\x5B\x5D-\x7E]+$/, `${what}: RFC 6749 §5.2 characters only`);
  assert.match(String(response.headers['content-type']), /^application\/json/, what);
  assert.equal(response.headers['cache-control'], 'no-store', what);
  assert.equal(response.headers.pragma, 'no-cache', what);
  assert.ok(response.headers['x-request-id'], what);
  assert.equal(response.headers['www-authenticate'], challenged ? 'Basic realm="Dog Registry"' : undefined, what);
}
