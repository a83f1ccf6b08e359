// Security in the document: the OAuth 2.0 scheme as implemented, and each operation's requirement and access answers.
import { GRANT_TYPES, SCOPES } from '../auth/oauth-server.js';
import type { Config } from '../config.js';
import { ref, type JsonObject } from './json-schema.js';

const SCOPE_TEXT: Readonly<Record<(typeof SCOPES)[number], string>> = {
  read: 'Read: every GET.',
  write: 'Change: every POST, PUT and DELETE, method overrides included.',
};

/** What the stages before an operation (token, scope, rate limit; SPEC §8) add to it. */
export interface AccessTraits {
  readonly scope: 'read' | 'write';
  /** The open operation: no token, so no 401 and no scope 403, but a per-IP rate limit. */
  readonly open: boolean;
  /** The path names an item (its own, or the parent of a nested path) that may not exist. */
  readonly notFound: boolean;
}

/** An operation with its security requirement and the answers every operation shares, in status order. */
export function finishOperation(operation: JsonObject, traits: AccessTraits): JsonObject {
  const responses: JsonObject = { ...(operation.responses as JsonObject), 400: ref('responses', 'BadRequest') };
  if (traits.open) responses[403] = ref('responses', 'RateLimited');
  else Object.assign(responses, { 401: ref('responses', 'Unauthorized'), 403: ref('responses', 'Forbidden') });
  if (traits.notFound) responses[404] = ref('responses', 'NotFound');
  responses[500] = ref('responses', 'InternalError');
  const security = traits.open ? [] : [{ oauth2: [traits.scope] }, { accessToken: [traits.scope] }];
  return { ...operation, security, responses };
}

/**
 * What the authorization server implements (GRANT_TYPES): the client credentials grant and the authorization code
 * flow with PKCE S256, whose refresh tokens rotate.
 *
 * The OAuth endpoints are described in this scheme, not as paths: they live at {base}, outside
 * /v<N>, and belong to no version (v1's document marks every one of its paths deprecated, which
 * they are not), and their own RFC 8414 metadata already describes them to machines.
 */
export function securitySchemes(config: Config): JsonObject {
  const base = config.publicUrl;
  const flows: JsonObject = {};
  if ((GRANT_TYPES as readonly string[]).includes('client_credentials'))
    flows.clientCredentials = { tokenUrl: `${base}/oauth2/token`, scopes: { ...SCOPE_TEXT } };
  if ((GRANT_TYPES as readonly string[]).includes('authorization_code'))
    flows.authorizationCode = {
      authorizationUrl: `${base}/oauth2/authorize`,
      tokenUrl: `${base}/oauth2/token`,
      refreshUrl: `${base}/oauth2/token`,
      scopes: { ...SCOPE_TEXT },
    };
  return {
    oauth2: { type: 'oauth2', description: describeAuthorizationServer(config), flows },
    // RFC 6750 §2.3: the same token in the query, for clients that cannot set headers; an apiKey scheme is how
    // OpenAPI names a credential in the query, and the operation's scope still applies.
    accessToken: {
      type: 'apiKey',
      in: 'query',
      name: 'access_token',
      description:
        'The OAuth 2.0 access token of the oauth2 scheme, sent as the access_token query parameter (RFC 6750 §2.3) ' +
        'by clients that cannot set the Authorization header; a form body may carry it too (RFC 6750 §2.2). The ' +
        'operation needs the same scope.',
    },
  };
}

function describeAuthorizationServer(config: Config): string {
  const base = config.publicUrl;
  return [
    'Send the access token as `Authorization: Bearer {token}` (RFC 6750), or as `access_token` in the query ' +
      'string or a form body. ' +
      'A token without the scope an operation needs gets a 403; an expired or revoked one a 401.',
    `Get a client by signing up at ${config.portalUrl}/signup. The service is its own authorization server, at ` +
      `the API root (outside /v{N}):`,
    [
      `- GET ${base}/.well-known/oauth-authorization-server: its metadata (RFC 8414).`,
      `- GET, POST ${base}/oauth2/authorize: the code flow's login and consent pages (RFC 6749 §4.1), with ` +
        'code_challenge and code_challenge_method=S256 (RFC 7636) required; the code lives 60 seconds, once.',
      `- POST ${base}/oauth2/token: a form with grant_type=${GRANT_TYPES.join(' or ')} (RFC 6749 §4.4, §4.1.3, ` +
        '§6; a code with its redirect_uri and code_verifier, a refresh token that is replaced at each use) and ' +
        `optionally scope (space-separated: ${SCOPES.join(', ')}; ` +
        'all the client holds by default). The client authenticates with Basic credentials (client_secret_basic) ' +
        'or with client_id and client_secret ' +
        'in the form (client_secret_post); a public client sends only client_id. The answer is `{"access_token", ' +
        '"token_type": "Bearer", "expires_in", "scope"}`, with "refresh_token" in the code flow.',
      `- POST ${base}/oauth2/revoke: a form with token (RFC 7009); the token stops working on every node within ` +
        `5 seconds.`,
      `- POST ${base}/oauth2/introspect: a form with token (RFC 7662); \`{"active": …}\` and, for an active ` +
        `token of the client's own account or issued to it, what it grants.`,
    ].join('\n'),
    'They answer in the RFCs\' own JSON (`{"error", "error_description"}` on a failure, 401 with a Basic ' +
      'challenge when Basic client authentication fails), ' +
      "never the API's error envelope, and with `Cache-Control: no-store`.",
  ].join('\n\n');
}
