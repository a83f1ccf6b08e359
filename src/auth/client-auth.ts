// The one client authentication of the token, revocation and introspection endpoints: client_secret_basic or
// client_secret_post, exactly one; or, where allowed, a public client's client_id alone ("none").
import type { AuthStore, Client } from './auth-store.js';
import { InvalidClient, InvalidRequest } from './oauth-errors.js';
import { secretHash, secretMatches } from './secrets.js';
import { ID_PATTERN } from '../storage/ids.js';

interface Credentials {
  readonly id: string;
  readonly secret: string;
  /** Sent in a Basic header (a failure is then challenged), or in the body. */
  readonly basic: boolean;
}

/** Compared with when the client id is unknown, so that the time of the answer does not tell which ids exist. */
const NO_CLIENT_HASH = secretHash('no client has this secret');

/**
 * RFC 6749 §2.3.1: the client's id and secret, in a Basic header (each form-encoded) or as
 * client_id and client_secret in the form body, never both (§2.3). The secret is compared in
 * constant time. Answers the client, or the error to send: invalid_client (401) when the
 * credentials are missing or wrong, invalid_request when they are sent two ways or twice.
 */
export async function authenticateClient(
  store: AuthStore,
  authorization: string | undefined,
  body: Readonly<Record<string, unknown>>,
  publicAllowed = false,
): Promise<Client | InvalidClient | InvalidRequest> {
  const basic = basicOf(authorization);
  if (publicAllowed) {
    const publicClient = await presentedPublicClient(store, basic, body);
    if (publicClient) return publicClient;
  }
  const credentials = presentedCredentials(basic, body);
  if (credentials instanceof InvalidClient || credentials instanceof InvalidRequest) return credentials;
  // An id no client can have is unknown without asking the storage: a NUL in it was a 500 on PostgreSQL.
  const client = ID_PATTERN.test(credentials.id) ? await store.findClient(credentials.id) : undefined;
  const matches = secretMatches(credentials.secret, client?.secretHash ?? NO_CLIENT_HASH);
  if (!client || !matches) {
    return new InvalidClient(
      'Client authentication failed: the client id is unknown or the secret is wrong. Check both (a rotated ' +
        'secret replaces the old one at once).',
      credentials.basic,
    );
  }
  return client;
}

/**
 * A public client (no secret) that sent its client_id alone: in the body, or as Basic with an empty secret (what
 * `curl -u id:` sends). Anything else goes on to the credentials' checks (a confidential client's id without its
 * secret is invalid_client there).
 */
async function presentedPublicClient(
  store: AuthStore,
  basic: PresentedBasic,
  body: Readonly<Record<string, unknown>>,
): Promise<Client | undefined> {
  if ((body.client_secret ?? '') !== '') return undefined;
  let id = body.client_id;
  if (basic !== undefined) {
    if (basic === 'malformed' || basic.secret !== '' || (id !== undefined && id !== basic.id)) return undefined;
    id = basic.id;
  }
  if (typeof id !== 'string' || !ID_PATTERN.test(id)) return undefined;
  const client = await store.findClient(id);
  return client?.type === 'public' ? client : undefined;
}

/** The credentials the request carries by exactly one method, or why there are none to check. */
function presentedCredentials(
  basic: PresentedBasic,
  body: Readonly<Record<string, unknown>>,
): Credentials | InvalidClient | InvalidRequest {
  const bodyId = bodyParameter(body, 'client_id');
  const bodySecret = bodyParameter(body, 'client_secret');
  if (bodyId instanceof InvalidRequest) return bodyId;
  if (bodySecret instanceof InvalidRequest) return bodySecret;
  if (basic !== undefined) {
    if (basic === 'malformed')
      return new InvalidClient(
        'The Authorization header is not valid Basic credentials: send Basic base64(client_id:client_secret), ' +
          'each part form-encoded (RFC 6749 §2.3.1).',
        true,
      );
    if (bodySecret !== undefined)
      return new InvalidRequest(
        'The client authenticated two ways: send the secret in the Authorization header or as client_secret in ' +
          'the body, not both (RFC 6749 §2.3).',
      );
    if (bodyId !== undefined && bodyId !== basic.id)
      return new InvalidRequest(
        'client_id in the body names another client than the Authorization header: send one client id.',
      );
    if (basic.secret === '')
      return new InvalidClient(
        'The Basic credentials carry no secret. A confidential client sends its secret; a public client (one ' +
          'without a secret) names itself this way only for authorization_code and refresh_token.',
        true,
      );
    return basic;
  }
  if (bodyId === undefined && bodySecret === undefined) {
    return new InvalidClient(
      'No client authentication was sent: use Basic with the client id and secret, or send client_id and ' +
        'client_secret in the form body.',
      false,
    );
  }
  if (bodyId === undefined || bodySecret === undefined) {
    return new InvalidClient(
      `Client authentication needs both client_id and client_secret; ` +
        `${bodyId === undefined ? 'client_id' : 'client_secret'} is missing.`,
      false,
    );
  }
  return { id: bodyId, secret: bodySecret, basic: false };
}

/** A form parameter sent at most once (RFC 6749 §3.2); an empty one counts as absent. */
function bodyParameter(body: Readonly<Record<string, unknown>>, name: string): string | undefined | InvalidRequest {
  const value = body[name];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string')
    return new InvalidRequest(`${name} was sent more than once, or not as text: send it once.`);
  return value;
}

/**
 * The Authorization header as client authentication, decoded once for both ways a client may present itself: undefined
 * without one or with another scheme (a Bearer token, say, is not a way to authenticate a client here: it is ignored),
 * `malformed` for a Basic header that is not valid Basic credentials.
 */
type PresentedBasic = Credentials | 'malformed' | undefined;

function basicOf(authorization: string | undefined): PresentedBasic {
  if (authorization === undefined || !/^basic(\s|$)/i.test(authorization)) return undefined;
  return basicCredentials(authorization) ?? 'malformed';
}

/**
 * The id and secret of a Basic header, form-decoded as RFC 6749 §2.3.1 requires (clients such as
 * oauth4webapi encode even "-" and "_"); undefined when the header has no colon or an empty id. The secret may be
 * empty (a public client).
 */
function basicCredentials(authorization: string): Credentials | undefined {
  const match = /^basic\s+(\S+)$/i.exec(authorization);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon === -1) return undefined;
  const id = formDecoded(decoded.slice(0, colon));
  const secret = formDecoded(decoded.slice(colon + 1));
  return id === '' ? undefined : { id, secret, basic: true };
}

/** A client that does not form-encode sends its text as it is; our ids and secrets hold no `%` or `+`. */
function formDecoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}
