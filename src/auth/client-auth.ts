// Authenticates an OAuth client at the revocation and introspection endpoints: client_secret_basic or client_secret_post.
import type { AuthStore, Client } from './auth-store.js';
import { secretMatches } from './secrets.js';

export type ClientAuthResult = { ok: true; client: Client } | { ok: false; viaHeader: boolean };

/** RFC 6749 §2.3.1: Basic with the form-encoded id and secret, or client_id and client_secret in the form body. */
export async function authenticateClient(store: AuthStore, authorization: string | undefined, body: Record<string, unknown>): Promise<ClientAuthResult> {
  let id: unknown = body.client_id;
  let secret: unknown = body.client_secret;
  const viaHeader = authorization !== undefined && /^basic /i.test(authorization);
  if (viaHeader) {
    const decoded = Buffer.from(authorization!.slice(6).trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon === -1) return { ok: false, viaHeader };
    id = safeDecode(decoded.slice(0, colon));
    secret = safeDecode(decoded.slice(colon + 1));
  }
  if (typeof id !== 'string' || typeof secret !== 'string' || id === '' || secret === '') return { ok: false, viaHeader };
  const client = await store.findClient(id);
  if (!client || !secretMatches(secret, client.secretHash)) return { ok: false, viaHeader };
  return { ok: true, client };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}
