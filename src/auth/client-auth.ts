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
    const credentials = basicCredentials(authorization!);
    if (!credentials) return { ok: false, viaHeader };
    ({ id, secret } = credentials);
  }
  if (typeof id !== 'string' || typeof secret !== 'string' || id === '' || secret === '') return { ok: false, viaHeader };
  const client = await store.findClient(id);
  if (!client || !secretMatches(secret, client.secretHash)) return { ok: false, viaHeader };
  return { ok: true, client };
}

/**
 * The id and secret of a Basic header, form-decoded as RFC 6749 §2.3.1 requires (clients such as
 * oauth4webapi encode even "-" and "_"); undefined when the header is not Basic or has no colon.
 */
export function basicCredentials(authorization: string): { id: string; secret: string } | undefined {
  const match = /^basic\s+(\S+)$/i.exec(authorization);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon === -1) return undefined;
  return { id: safeDecode(decoded.slice(0, colon)), secret: safeDecode(decoded.slice(colon + 1)) };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}
