// The responses of the document: the envelopes of SPEC §2 in JSON and XML, the error answers and their headers.
import type { ResourceDef } from '../resources/definition.js';
import type { DocumentKind } from '../routes/descriptor.js';
import { ref, schemaNames, withArticle, type JsonObject } from './json-schema.js';

function header(description: string, schema: JsonObject = { type: 'string' }, extra: JsonObject = {}): JsonObject {
  return { description, schema, ...extra };
}

const RATE_LIMIT_NOTE =
  "Sent once the token (or, on the open operation, the caller's IP) has been counted against its limit, unless " +
  'the limit is off.';

/** The headers of the document of `version`: Location only where a creation sends it (201 in v2, SPEC §8). */
export function headerComponents(version: number): Record<string, JsonObject> {
  const seconds = { type: 'integer', minimum: 0 };
  const headers: Record<string, JsonObject> = {
    'X-Request-Id': header(
      "Identifies the request in the service's logs; quote it when you report a problem. A well-formed " +
        'X-Request-Id sent with the request is kept.',
    ),
    Vary: header(
      'Accept: the format of the answer may come from the Accept header; and Accept-Encoding on an answer over 1 KiB, ' +
        'which is compressed when Accept-Encoding asks.',
      { type: 'string' },
      { example: 'Accept, Accept-Encoding' },
    ),
    'Content-Encoding': header(
      'gzip or br: an answer over 1 KiB leaves compressed in the coding Accept-Encoding prefers (none without ' +
        'Accept-Encoding). Its ETag then ends with -gzip or -br, and If-None-Match answers 304 with either tag.',
      { type: 'string', enum: ['gzip', 'br'] },
    ),
    Location: header('The absolute URL of the new item.', { type: 'string', format: 'uri' }, { required: true }),
    ETag: header(
      'Identifies what this answer holds; send it back in If-None-Match to get a 304 while it is unchanged, or ' +
        'in If-Match to guard a change.',
    ),
    Link: header(
      'RFC 8288 links built from the API root: first always, prev and next where such a page exists, last with ' +
        'Prefer: count=exact.',
    ),
    'X-Total-Count': header('With Prefer: count=exact, how many items match in all.', { type: 'integer', minimum: 0 }),
    'Preference-Applied': header('count=exact when the total was counted (RFC 7240).'),
    'Idempotent-Replayed': header(
      'true when the answer replays the first answer to the same Idempotency-Key; nothing new was created.',
      { type: 'string', enum: ['true'] },
    ),
    Allow: header(
      'On a 400 for a method the path does not offer: the methods it offers.',
      { type: 'string' },
      { example: 'GET, HEAD, POST' },
    ),
    'WWW-Authenticate': header(
      'Bearer (RFC 6750), with error="invalid_token" when a token was given but is not valid, or ' +
        'error="insufficient_scope" and the scope needed on a 403.',
      { type: 'string' },
      { example: 'Bearer realm="Dog Registry", error="invalid_token"' },
    ),
    'RateLimit-Limit': header(`How many requests a minute the limit allows. ${RATE_LIMIT_NOTE}`, {
      type: 'integer',
      minimum: 1,
    }),
    'RateLimit-Remaining': header(`How many requests are left in the current minute. ${RATE_LIMIT_NOTE}`, seconds),
    'RateLimit-Reset': header(
      `Seconds until the current minute's window ends and the count starts again. ${RATE_LIMIT_NOTE}`,
      seconds,
    ),
    'Retry-After': header('On a 403 for a rate limit: seconds to wait before retrying.', seconds),
    'Access-Control-Allow-Origin': header('CORS: any origin may read the answer.', { type: 'string', const: '*' }),
    'Cache-Control': header(
      'private, no-cache on reads of your data (revalidate with the ETag); public, max-age=60 on the open adoption ' +
        'list; no-store on errors and on every answer of an overridden GET (?method=…), which changes data.',
      { type: 'string' },
      { example: 'private, no-cache' },
    ),
  };
  if (version < 2) {
    delete headers.Location;
    Object.assign(headers, DEPRECATION_HEADERS);
    headers.Link = {
      ...headers.Link,
      description:
        `${String(headers.Link!.description)} Once V1_SUNSET is set, every answer also links the portal's ` +
        'versions page with rel="deprecation" (SPEC §8).',
    };
  }
  return headers;
}

/** What every v1 answer carries once the operator sets V1_SUNSET (SPEC §8). */
const DEPRECATION_HEADERS: Record<string, JsonObject> = {
  Deprecation: header(
    'Once V1_SUNSET is set: when v1 was deprecated (RFC 9745), as @ and Unix seconds.',
    { type: 'string', pattern: '^@[0-9]+$' },
    { example: '@1795219200' },
  ),
  Sunset: header(
    'Once V1_SUNSET is set: when v1 stops answering (RFC 8594), an HTTP date.',
    { type: 'string' },
    { example: 'Sun, 21 Nov 2027 00:00:00 GMT' },
  ),
};

/**
 * The v1 document's answers with the deprecation headers: Deprecation, Sunset and Link (rel="deprecation"), which
 * every v1 answer carries once V1_SUNSET is set. A reference to a shared answer gets them in that answer.
 */
export function withDeprecationHeaders(response: JsonObject): JsonObject {
  if ('$ref' in response) return response;
  return {
    ...response,
    headers: {
      ...(response.headers as JsonObject | undefined),
      ...headerRefs(['Deprecation', 'Sunset']),
      Link: (response.headers as JsonObject | undefined)?.Link ?? ref('headers', 'Link'),
    },
  };
}

const RATE_LIMIT_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];

function headerRefs(names: readonly string[]): JsonObject {
  return Object.fromEntries(names.map((name) => [name, ref('headers', name)]));
}

/**
 * The headers of every API answer that got past the token check: the request id, Vary, CORS (every API path answers
 * any origin, SPEC §13) and the rate limit.
 */
function commonHeaders(...extra: readonly string[]): JsonObject {
  return headerRefs([
    'X-Request-Id',
    'Vary',
    'Access-Control-Allow-Origin',
    'Cache-Control',
    'Content-Encoding',
    ...RATE_LIMIT_HEADERS,
    ...extra,
  ]);
}

/** Both formats of one answer: JSON by default, XML by suffix (.xml) or Accept. */
function bothFormats(json: JsonObject, xml: JsonObject): JsonObject {
  return { 'application/json': { schema: json }, 'application/xml': { schema: xml } };
}

function errorResponse(description: string, headers: JsonObject): JsonObject {
  const error = ref('schemas', 'Error');
  return { description, headers, content: bothFormats(error, error) };
}

/** Reusable error answers; every one is 200 with response_code instead under suppress_response_codes=true. */
export function responseComponents(): Record<string, JsonObject> {
  return {
    BadRequest: errorResponse(
      'The request is not valid: a parameter, the body, the format suffix or the method. ' +
        'The message says what to change; code names the error in the catalogue.',
      // WWW-Authenticate on a token sent twice (5004, RFC 6750 §3.1's invalid_request).
      commonHeaders('Allow', 'WWW-Authenticate'),
    ),
    Unauthorized: errorResponse(
      'No token, or a token that is not valid or has expired. Get one from POST /oauth2/token at the API root ' +
        '(outside `/v{N}`).',
      headerRefs([
        'X-Request-Id',
        'Vary',
        'Access-Control-Allow-Origin',
        'Cache-Control',
        'Content-Encoding',
        'WWW-Authenticate',
      ]),
    ),
    Forbidden: errorResponse(
      'The token lacks the scope the operation needs (read for GET, write for changes; WWW-Authenticate says which), ' +
        "or the client's rate limit was reached (Retry-After says when to try again).",
      commonHeaders('WWW-Authenticate', 'Retry-After'),
    ),
    RateLimited: errorResponse(
      'The rate limit of the open operation (per IP address) was reached; Retry-After says when to try again.',
      commonHeaders('Retry-After'),
    ),
    NotFound: errorResponse(
      'No item has this id, or it belongs to another account.' +
        ' On a nested path (/owners/{id}/dogs), the same holds for the item the path starts from.',
      commonHeaders(),
    ),
    InternalError: errorResponse(
      'The service failed to answer; the message carries the request id. Retrying later may work.',
      commonHeaders(),
    ),
    NotModified: {
      description:
        'The ETag in If-None-Match still matches: nothing changed, and the body is empty. A page keeps its Link ' +
        'header, and with Prefer: count=exact its X-Total-Count and Preference-Applied.',
      headers: commonHeaders('ETag', 'Link', 'X-Total-Count', 'Preference-Applied'),
    },
  };
}

/** The JSON and XML schemas of a document an answer carries; none for an empty body. */
function contentOf(
  document: Exclude<DocumentKind, 'not-modified'>,
  def: ResourceDef | undefined,
): JsonObject | undefined {
  const names = def && schemaNames(def);
  const both = (json: string, xml: string): JsonObject => bothFormats(ref('schemas', json), ref('schemas', xml));
  switch (document) {
    case 'item':
    case 'selected-item':
    case 'list':
      if (!names) throw new Error(`an answer with ${withArticle(document)} names its resource`);
      if (document === 'item') return both(names.envelope, names.item);
      return document === 'list' ? both(names.list, names.listXml) : both(names.fieldsEnvelope, names.fieldsXml);
    case 'public-list':
      return both('AdoptableDogsList', 'AdoptableDogsListXml');
    case 'count':
      return both('Count', 'CountXml');
    case 'results':
      return both('SearchResults', 'SearchResultsXml');
    case 'conversion':
      return both('ConversionEnvelope', 'Conversion');
    case 'none':
      return undefined;
  }
}

/** One answer of an operation: what it says, its headers beside the common ones, and its document in both formats. */
export function answerResponse(
  document: Exclude<DocumentKind, 'not-modified'>,
  def: ResourceDef | undefined,
  description: string,
  headers: readonly string[],
): JsonObject {
  const content = contentOf(document, def);
  const response: JsonObject = { description, headers: commonHeaders(...headers) };
  if (content) response.content = content;
  return response;
}
