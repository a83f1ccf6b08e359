// The OAuth endpoints' errors (RFC 6749 §5.2, RFC 7009 §2.2.1, RFC 7662 §2.3): one class per error, rendered in one
// place.
import OAuth2Server from '@node-oauth/oauth2-server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';

/**
 * The challenge of an invalid_client answer to a client that tried Basic: the one HTTP scheme a client may authenticate
 * with.
 */
const BASIC_CHALLENGE = 'Basic realm="Dog Registry"';

type OAuthErrorName =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'server_error';

/**
 * The base of the closed union below; only this module extends it, so `instanceof OAuthError`
 * means one of the seven, and a switch over `error` is exhaustive.
 */
export abstract class OAuthError extends Error {
  abstract readonly error: OAuthErrorName;
  abstract readonly status: 400 | 401 | 500;
}

/** The request lacks a parameter, repeats one, or is malformed (not a form POST, say). */
export class InvalidRequest extends OAuthError {
  readonly error = 'invalid_request';
  readonly status = 400;
}

/**
 * Client authentication failed: unknown client, wrong secret, none sent. 401, with a Basic challenge when the client
 * tried Basic.
 */
export class InvalidClient extends OAuthError {
  readonly error = 'invalid_client';
  readonly status = 401;

  constructor(
    description: string,
    readonly triedBasic: boolean,
  ) {
    super(description);
  }
}

/** The grant (a code, a refresh token, the client's own account) is not valid. */
class InvalidGrant extends OAuthError {
  readonly error = 'invalid_grant';
  readonly status = 400;
}

/** The client may not use this grant type, which the server does offer. */
class UnauthorizedClient extends OAuthError {
  readonly error = 'unauthorized_client';
  readonly status = 400;
}

/** The server does not offer this grant type at all. */
export class UnsupportedGrantType extends OAuthError {
  readonly error = 'unsupported_grant_type';
  readonly status = 400;
}

/** A scope asked for is unknown, malformed, or one the client does not hold. */
class InvalidScope extends OAuthError {
  readonly error = 'invalid_scope';
  readonly status = 400;
}

/** The server failed; the description carries the request id that its log line has. */
class ServerError extends OAuthError {
  readonly error = 'server_error';
  readonly status = 500;
}

/** Every error the token, revocation and introspection endpoints answer. */
export type OAuthFailure =
  | InvalidRequest
  | InvalidClient
  | InvalidGrant
  | UnauthorizedClient
  | UnsupportedGrantType
  | InvalidScope
  | ServerError;

/**
 * The library's messages that are its own generic words ("Invalid grant: authorization code is invalid"), said as the
 * service says things: what is wrong and what to do. Others (ours, passed through it) stay as they are.
 */
export function libraryDescription(name: string, message: string): string {
  if (name === 'invalid_scope') {
    // A refresh may narrow the consent's scopes, never widen them (RFC 6749 §6), whatever else the client holds.
    if (message.includes('extra scopes'))
      return (
        'A scope asked for was not granted by the consent this refresh token comes from: ask for some of the ' +
        "scopes it granted (the token answer's scope), or leave scope out to keep them all."
      );
    // The library's check of the parameter's characters; a scope the client lacks is named by validateScope.
    if (message.includes('Invalid parameter'))
      return (
        'The scope parameter is malformed: scopes are words of printable ASCII without quotes or backslashes ' +
        '(RFC 6749 section 3.3), separated by single spaces, such as "read write".'
      );
  }
  if (name === 'invalid_request' && message.includes('"plain" is not allowed'))
    return (
      'code_challenge_method must be S256: send the base64url SHA-256 of your code_verifier as code_challenge ' +
      '(RFC 7636 section 4.2). The plain method, which sends the verifier itself, is not accepted.'
    );
  if (name === 'unsupported_response_type')
    return (
      'response_type must be code: this server offers the authorization code flow with PKCE only. The implicit ' +
      'flow (response_type=token) is not offered: exchange the code at /oauth2/token instead.'
    );
  if (name === 'access_denied')
    return "The user declined this app's request for access on the consent page: no code was issued.";
  if (name === 'invalid_grant' && /authorization code/i.test(message))
    return (
      'The authorization code is unknown, expired (a code lives 60 s), already used, or was issued to another ' +
      'client: send the user through /oauth2/authorize again for a new one.'
    );
  if (name === 'invalid_grant' && /code verifier/i.test(message))
    return (
      "The code_verifier is not the one the authorization request's code_challenge was made from (its SHA-256, " +
      'base64url, RFC 7636): the code is used up; send the user through /oauth2/authorize again with a new pair.'
    );
  if (name === 'invalid_grant' && /refresh token/i.test(message))
    return (
      'The refresh token is unknown, expired, revoked, or already used (each use returns a new one, and the old ' +
      'one is retired): use the newest refresh token, or send the user through /oauth2/authorize again.'
    );
  if (name === 'unauthorized_client')
    return (
      'This client may not use this grant_type: a public client (one without a secret) uses authorization_code ' +
      'with PKCE and refresh_token; client_credentials needs a confidential client and its secret.'
    );
  if (name === 'invalid_request') return parameterDescription(message) ?? message;
  return message;
}

/** The library's words for a missing or malformed parameter ("Missing parameter: `state`"), said with the fix. */
function parameterDescription(message: string): string | undefined {
  if (/transform algorithm/i.test(message))
    return (
      'code_challenge_method must be S256, in capitals (RFC 7636 section 4.3): send the base64url SHA-256 of your ' +
      'code_verifier as code_challenge.'
    );
  const named = /^(Missing|Invalid) parameter: `(\w+)`/.exec(message);
  if (!named) return undefined;
  const [, kind, parameter] = named;
  const rule = PARAMETER_RULES[parameter!];
  if (kind === 'Missing') return `The ${parameter} parameter is missing: send it${rule ? ` (${rule})` : ''}.`;
  return `The ${parameter} parameter is malformed${rule ? `: ${rule}` : ''}.`;
}

/** What each parameter the library checks must be, as RFC 6749 and RFC 7636 write it. */
const PARAMETER_RULES: Readonly<Record<string, string>> = {
  response_type: 'response_type=code',
  state: 'printable ASCII characters, as RFC 6749 appendix A.5 allows in state',
  refresh_token: 'the refresh_token of your last token answer, with grant_type=refresh_token',
  code_verifier: '43 to 128 characters of A-Z, a-z, 0-9 and - . _ ~ (RFC 7636 section 4.1)',
  code_challenge: 'the base64url SHA-256 of your code_verifier, 43 characters (RFC 7636 section 4.2)',
  code: 'the code your redirect_uri received, with grant_type=authorization_code',
  scope: 'scopes separated by single spaces, such as "read write"',
  client_id: "your app's client id",
  redirect_uri: 'one of the redirect URIs registered for your app, character for character',
};

/**
 * The library's errors that the token grant may raise, by their RFC name (the only source of some of the classes above,
 * for now), with the words of libraryDescription.
 */
const FROM_LIBRARY: Readonly<Record<string, (description: string) => OAuthFailure>> = {
  // RFC 6749 §5.2: a redirect_uri that "does not match the redirection URI used in the authorization request" is
  // invalid_grant; the library says invalid_request (a missing one is refused before the library: oauth-server.ts).
  invalid_request: (description) =>
    description.includes('`redirect_uri`')
      ? new InvalidGrant(
          'The redirect_uri is not the one of the authorization request that issued this code: send that same URI, ' +
            'character for character.',
        )
      : new InvalidRequest(libraryDescription('invalid_request', description)),
  invalid_client: (description) => new InvalidClient(description, false),
  // The library's one invalid_grant that is a missing parameter (a code exchange without its code_verifier) never
  // reaches it: oauth-server.ts answers a missing one invalid_request before (RFC 6749 §5.2).
  invalid_grant: (description) => new InvalidGrant(libraryDescription('invalid_grant', description)),
  unauthorized_client: (description) => new UnauthorizedClient(libraryDescription('unauthorized_client', description)),
  unsupported_grant_type: (description) => new UnsupportedGrantType(description),
  invalid_scope: (description) => new InvalidScope(libraryDescription('invalid_scope', description)),
};

/**
 * What any failure of an OAuth endpoint answers: our own errors as they are, a catalogue 400 (the body reader's, the
 * framework's) as invalid_request and any other catalogue error as server_error, the library's errors by their RFC
 * name; anything else is logged and answered server_error with the request id.
 */
export function oauthFailureOf(error: unknown, request: FastifyRequest): OAuthFailure {
  if (error instanceof OAuthError) return error as OAuthFailure;
  // The catalogue's messages are written for clients (a 5xx's carries the request id): kept as they are.
  if (error instanceof ApiError) {
    return error.status === 400 ? new InvalidRequest(error.message) : new ServerError(error.message);
  }
  if (error instanceof OAuth2Server.OAuthError && Object.hasOwn(FROM_LIBRARY, error.name)) {
    return FROM_LIBRARY[error.name]!(error.message);
  }
  request.log.error({ err: error }, 'OAuth endpoint failed');
  return new ServerError(`The server failed; quote the request id ${request.id} if you report it.`);
}

/** The one renderer of OAuth errors: `{"error", "error_description"}`, the RFC status, never cached. */
export function sendOAuthError(reply: FastifyReply, failure: OAuthFailure): FastifyReply {
  // RFC 6749 §5.2: a client that tried the Authorization header is challenged in the scheme it used
  // (docs/decisions.md says why one that sent its secret in the body is not).
  if (failure.error === 'invalid_client' && failure.triedBasic) reply.header('www-authenticate', BASIC_CHALLENGE);
  return sendOAuth(reply, failure.status, { error: failure.error, error_description: rfcText(failure.message) });
}

/** Typography of the service's own messages, in the ASCII an error_description is written in. */
const ASCII_FOR: Readonly<Record<string, string>> = {
  '§': 'section ',
  '’': "'",
  '‘': "'",
  '“': "'",
  '”': "'",
  '–': '-',
  '—': '-',
  '…': '...',
};

/**
 * RFC 6749 §4.1.2.1 and §5.2: error_description is printable ASCII without `"` and `\`; a message that quotes input is
 * made so (the token endpoint's answers and the authorization endpoint's redirects alike). The service's own
 * typography becomes its ASCII form (RFC 6749 §2.3.1 → RFC 6749 section 2.3.1); anything else outside ASCII, `?`.
 */
export function rfcText(text: string): string {
  return /^[\x20\x21\x23-\x5B\x5D-\x7E]*$/.test(text)
    ? text
    : text
        .replace(/§ ?|[’‘“”–—…]/g, (char) => ASCII_FOR[char.trimEnd()] ?? '?')
        .replace(/"/g, "'")
        .replace(/\\/g, '/')
        .replace(/[^\x20-\x7E]/g, '?');
}

/** An answer of the token, revocation or introspection endpoint: JSON, and never stored by a cache (RFC 6749 §5.1). */
export function sendOAuth(reply: FastifyReply, status: number, body: Record<string, unknown>): FastifyReply {
  reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}
