// An example for every catalogue entry, as the portal's /errors/<code> pages show it (SPEC §12: "with an example
// answer"): a request that gets the error, and the message of its answer. test/portal/error-examples.test.ts sends
// each request to the app and checks that the answer is this one, so that the pages never show a message the
// service no longer writes.
import type { ErrorName } from './errors.js';

export interface ErrorExample {
  /** The request line's method and target (the path under {base}, or {portal} for the portal's). */
  readonly request: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  /** The reader's token is sent (as `Authorization: Bearer`) unless the request goes without one. */
  readonly token?: 'none' | 'read-only';
  /** Bytes as they go on the wire, for a protocol error no HTTP client library would send. */
  readonly raw?: string;
  /** The same request sent before, this many times (with this body, if another), so that this one fails. */
  readonly before?: { readonly times?: number; readonly body?: string };
  /** The service's settings the example assumes, besides the defaults. */
  readonly settings?: Readonly<Record<string, string>>;
  /** Headers of the answer that tell the client more (Allow, WWW-Authenticate, Retry-After). */
  readonly answerHeaders?: Readonly<Record<string, string>>;
  /** When no request alone gets the error: what the service was going through. */
  readonly situation?: string;
  /**
   * The answer's message. `{base}` and `{portal}` stand for the service's addresses, `{dog}` for the id of a dog of
   * the reader's (the request's too) and `{etag}` for its ETag, `{requestId}` for the answer's X-Request-Id.
   */
  readonly message: string;
}

const JSON_BODY = { 'Content-Type': 'application/json' };

export const errorExamples: Readonly<Record<ErrorName, ErrorExample>> = {
  versionMissing: {
    request: 'GET /dogs',
    message:
      'The path /dogs has no version. Every API path starts with the version: use /v2/dogs (v2 is current, v1 is also available).',
  },
  versionUnknown: {
    request: 'GET /v3/dogs',
    message:
      'The version "v3" does not exist. Supported versions: v1, v2; write them as /v2/…, with no dot or minor number.',
  },
  routeNotFound: {
    request: 'GET /v2/cats',
    message:
      'There is nothing at /v2/cats. The collections are /v2/dogs, /v2/owners, /v2/veterinarians, /v2/foods, each with /<id> for one item and /count; there are also /v2/search, /v2/convert and /v2/adoptions. See the API reference.',
  },
  methodNotAllowed: {
    answerHeaders: { Allow: 'GET, HEAD, POST' },
    request: 'PATCH /v2/dogs',
    message: 'PATCH is not offered on this path. It offers: GET, HEAD, POST.',
  },
  formatUnknown: {
    request: 'GET /v2/dogs.yaml',
    message:
      'The format ".yaml" is not offered. Use .json or .xml at the end of the path, or an Accept header of application/json or application/xml.',
  },
  methodOverrideInvalid: {
    request: 'GET /v2/dogs?method=patch',
    message:
      'The method override "patch" is not one of post, put, delete. Send it as ?method=put (or the X-HTTP-Method-Override header on a POST).',
  },
  prefetchRefused: {
    request: 'GET /v2/dogs/{dog}?method=delete',
    headers: { 'Sec-Purpose': 'prefetch' },
    message:
      'This GET changes data (it has a method override) and was sent as a prefetch, so it was not carried out. Send it as a normal request.',
  },
  suppressInvalid: {
    request: 'GET /v2/dogs?suppress_response_codes=yes',
    message: 'suppress_response_codes must be true or false, got "yes".',
  },
  requestMalformed: {
    request: 'GET /v2/dogs/%E0%A4%A',
    message: 'The URL could not be decoded (a broken %-escape?). Percent-encode the path properly.',
  },
  headersTooLarge: {
    request: 'GET /v2/dogs',
    raw: `GET /v2/dogs HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nX-Padding: ${'a'.repeat(17 * 1024)}\r\n\r\n`,
    message:
      'The request line and headers are larger than 16 KiB. Shorten the URL (a long fields selection or filter list?) or the headers.',
  },
  expectationUnsupported: {
    request: 'GET /v2/dogs',
    raw: 'GET /v2/dogs HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nExpect: ready\r\n\r\n',
    message: 'The Expect header "ready" is not one the service meets: only 100-continue is. Remove the header.',
  },
  hostMissing: {
    request: 'GET /v2/dogs',
    raw: 'GET /v2/dogs HTTP/1.1\r\nConnection: close\r\n\r\n',
    message:
      'The request has no Host header, which HTTP/1.1 requires. Name the host the request is for: Host: api.example.com.',
  },
  methodTokenInvalid: {
    request: 'GE@T /v2/dogs',
    raw: 'GE@T /v2/dogs HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n',
    message:
      'The request line does not start with an HTTP method the service knows. Use GET, POST, PUT or DELETE, in capitals.',
  },
  requestTargetInvalid: {
    request: 'GET /v2/do\\x7fgs',
    raw: 'GET /v2/do\x7fgs HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n',
    message:
      'The URL has characters that must be percent-encoded (non-ASCII letters, spaces, control characters): é is %C3%A9.',
  },
  bodyFramingInvalid: {
    request: 'POST /v2/dogs',
    raw: 'POST /v2/dogs HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}',
    message: "The request has more than one Content-Length header. Send one, with the body's length in bytes.",
  },
  requestTargetAsterisk: {
    request: 'GET *',
    raw: 'GET * HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n',
    message:
      'The request target * names no resource; HTTP allows it only with OPTIONS. Send GET to a path, such as /v2/dogs.',
  },
  hostInvalid: {
    request: 'GET /v2/dogs',
    raw: 'GET /v2/dogs HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n',
    message:
      'The Host header must name one host, once (api.example.com or 192.0.2.1:8080), got "a b". Send a single Host header with the host the request is for.',
  },
  unknownParameter: {
    request: 'GET /v2/dogs?colour=brown',
    message:
      'The query parameter "colour" is not accepted here. Accepted parameters: fields, limit, offset, sort, q, color, state, location, method, suppress_response_codes, access_token.',
  },
  limitInvalid: {
    request: 'GET /v2/dogs?limit=500',
    message: 'limit must be a whole number from 1 to 100, got "500". Leave it out for the default of 10.',
  },
  offsetInvalid: {
    request: 'GET /v2/dogs?offset=-10',
    message: 'offset must be a whole number, 0 or more, got "-10". Leave it out to start at the first item.',
  },
  fieldsInvalid: {
    request: 'GET /v2/dogs?fields=name,colour',
    message:
      'The fields parameter names "colour", which dogs do not have. Valid fields of dogs: id, name, furColor, state, location, ownerId, veterinarianId, createdAt, updatedAt, owner, veterinarian, foods.',
  },
  fieldsTooDeep: {
    request: 'GET /v2/owners?fields=dogs(foods(dogs(foods(dogs(name)))))',
    message:
      'The fields parameter is not valid: the selection nests more than 4 levels deep at "dogs(". Valid fields of foods: id, name, brand, createdAt, updatedAt, dogs.',
  },
  filterInvalid: {
    request: 'GET /v2/dogs?state=sleeping',
    message: 'The filter state has the value "sleeping", which is not one of: registered, adoptable, adopted, lost.',
  },
  sortInvalid: {
    request: 'GET /v2/dogs?sort=age',
    message:
      'sort cannot order by "age". Sortable fields of dogs: id, name, furColor, state, location, ownerId, veterinarianId, createdAt, updatedAt; put - in front for descending order (sort=-name).',
  },
  searchInvalid: {
    request: `GET /v2/dogs?q=${'rex'.repeat(100)}`,
    message: 'q must be search text of 1 to 200 characters, got 300 characters.',
  },
  idempotencyKeyInvalid: {
    request: 'POST /v2/dogs',
    headers: { ...JSON_BODY, 'Idempotency-Key': 'k'.repeat(300) },
    body: '{"name": "Rex"}',
    message:
      'The Idempotency-Key header must be 1 to 255 visible ASCII characters (a fresh UUID per creation is a good key), given once.',
  },
  parameterRepeated: {
    request: 'GET /v2/dogs?limit=5&limit=10',
    message: 'The query parameter "limit" is given 2 times; give it once.',
  },
  characterNotAllowed: {
    request: 'POST /v2/dogs',
    headers: JSON_BODY,
    body: '{"name": "Rex\\u0000"}',
    message:
      'The field "name" contains the character U+0000 at position 4, which XML cannot carry. Remove it: control characters other than tab, line feed and carriage return, U+FFFE, U+FFFF and unpaired surrogates are refused.',
  },
  answerTooLarge: {
    situation: 'The reader had an owner with 100 dogs.',
    request: 'GET /v2/dogs?limit=100&fields=owner(dogs(owner(dogs(name))))',
    message:
      'This fields selection would write more than 50,000 nested items, or more than 16 million characters of them, in one answer: a nested array is written again under every item that reaches it. Select fewer levels or fields, ask for a smaller limit, or page through a nested path such as /owners/<id>/dogs.',
  },
  bodyMalformed: {
    request: 'POST /v2/dogs',
    headers: JSON_BODY,
    body: '{"name": "Rex",}',
    message:
      'The JSON body does not parse (Expected double-quoted property name in JSON at position 15). Send one JSON object, such as {"name": "Rex"}.',
  },
  bodyTooLarge: {
    request: 'POST /v2/dogs',
    headers: JSON_BODY,
    body: `{"name": "Rex", "location": "${'Oslo '.repeat(4000)}"}`,
    message: 'The request body is larger than 16 KiB, the most the API accepts. Send fewer or shorter fields.',
  },
  mediaTypeUnsupported: {
    request: 'POST /v2/dogs',
    headers: { 'Content-Type': 'text/plain' },
    body: 'name=Rex',
    message: 'The body has Content-Type text/plain. Send application/json or application/x-www-form-urlencoded.',
  },
  bodyFieldUnknown: {
    request: 'POST /v2/dogs',
    headers: JSON_BODY,
    body: '{"name": "Rex", "age": 3}',
    message:
      'The body has the field "age", which dogs do not have. Fields you can write: name, furColor, state, location, ownerId, veterinarianId, foodIds.',
  },
  fieldRequired: {
    request: 'POST /v2/dogs',
    headers: JSON_BODY,
    body: '{"furColor": "brown"}',
    message: 'The field "name" is required: give it a non-empty value.',
  },
  fieldTooLong: {
    request: 'POST /v2/dogs',
    headers: JSON_BODY,
    body: `{"name": "${'Rex'.repeat(100)}"}`,
    message: 'The field "name" is 300 characters long; the most is 100.',
  },
  fieldInvalid: {
    request: 'POST /v2/dogs',
    headers: JSON_BODY,
    body: '{"name": 5}',
    message: 'The field "name" must be text (a string), got a number.',
  },
  emailInvalid: {
    request: 'POST /v2/owners',
    headers: JSON_BODY,
    body: '{"name": "Ann", "email": "ann.example.com"}',
    message: 'The field "email" must be an email address such as ann@example.com, got "ann.example.com".',
  },
  valueNotAllowed: {
    request: 'POST /v2/dogs',
    headers: JSON_BODY,
    body: '{"name": "Rex", "state": "sleeping"}',
    message: 'The field "state" must be one of: registered, adoptable, adopted, lost, got "sleeping".',
  },
  referenceNotFound: {
    request: 'POST /v2/dogs',
    headers: JSON_BODY,
    body: '{"name": "Rex", "ownerId": "v7bKq2WcR0mS4dXn1yT8aA"}',
    message:
      'The field "ownerId" refers to owners "v7bKq2WcR0mS4dXn1yT8aA", which does not exist or is not visible to you. Create it first or correct the id.',
  },
  itemNotFound: {
    request: 'GET /v2/dogs/v7bKq2WcR0mS4dXn1yT8aA',
    message:
      'There is no dog with the id "v7bKq2WcR0mS4dXn1yT8aA". It may have been deleted, or the id is mistyped; GET /dogs lists the current ones.',
  },
  preconditionFailed: {
    request: 'PUT /v2/dogs/{dog}',
    headers: { ...JSON_BODY, 'If-Match': '"an-old-etag"' },
    body: '{"name": "Rex"}',
    message:
      'If-Match "an-old-etag" does not match the current ETag "{etag}" of this dog: it changed since you read it. Nothing was changed; GET it again and retry with the new ETag.',
  },
  idempotencyKeyReused: {
    request: 'POST /v2/dogs',
    headers: { ...JSON_BODY, 'Idempotency-Key': 'create-rex-1' },
    body: '{"name": "Max"}',
    before: { body: '{"name": "Rex"}' },
    message:
      'The Idempotency-Key "create-rex-1" was already used for a request with another body or path. Use a new key for a new creation.',
  },
  idempotencyInProgress: {
    request: 'POST /v2/dogs',
    headers: { ...JSON_BODY, 'Idempotency-Key': 'create-rex-1' },
    body: '{"name": "Rex"}',
    situation: 'The same request, with the same Idempotency-Key, was sent a moment before and is not answered yet.',
    message:
      'A request with the Idempotency-Key "create-rex-1" is still in progress. Retry in a moment to get its answer.',
  },
  currencyUnknown: {
    request: 'GET /v2/convert?from=EUR&to=XYZ&amount=100',
    message:
      'to "XYZ" is not an ISO 4217 code. Accepted codes (in any case): AUD, BGN, BRL, CAD, CHF, CNY, CZK, DKK, EUR, GBP, HKD, HRK, HUF, IDR, ILS, INR, ISK, JPY, KRW, MXN, MYR, NOK, NZD, PHP, PLN, RON, SEK, SGD, THB, TRY, USD, ZAR.',
  },
  amountInvalid: {
    request: 'GET /v2/convert?from=EUR&to=USD&amount=-5',
    message:
      'amount must be a decimal number of 0 or more written with digits and an optional decimal point, such as 100 or 99.95, with at most 15 digits before the point and 6 after it (no sign, exponent, spaces or thousands separators); "-5" is not: it is negative.',
  },
  conversionParameterMissing: {
    request: 'GET /v2/convert?from=EUR&to=USD',
    message:
      'amount is missing or empty. A conversion takes from and to (ISO 4217 currency codes, such as EUR and USD) and amount (a decimal number of 0 or more): /convert?from=EUR&to=USD&amount=100.',
  },
  tokenMissing: {
    answerHeaders: { 'WWW-Authenticate': 'Bearer realm="Dog Registry"' },
    request: 'GET /v2/dogs',
    token: 'none',
    message:
      'This operation needs an access token: send Authorization: Bearer <token>. Get one from POST /oauth2/token with your client id and secret (sign up in the developer portal for a client).',
  },
  tokenInvalid: {
    answerHeaders: {
      'WWW-Authenticate':
        'Bearer realm="Dog Registry", error="invalid_token", error_description="The access token is unknown, expired or revoked"',
    },
    request: 'GET /v2/dogs',
    token: 'none',
    headers: { Authorization: 'Bearer 3q2-not-a-token' },
    message: 'The access token is not valid: it is unknown, expired or revoked. Get a new one from POST /oauth2/token.',
  },
  scopeInsufficient: {
    answerHeaders: {
      'WWW-Authenticate':
        'Bearer realm="Dog Registry", error="insufficient_scope", error_description="The token lacks the write scope", scope="write"',
    },
    request: 'POST /v2/dogs',
    token: 'read-only',
    headers: JSON_BODY,
    body: '{"name": "Rex"}',
    message:
      'The access token lacks the "write" scope that POST needs (it has: read). Ask for it when you get the token: scope=write.',
  },
  rateLimited: {
    answerHeaders: { 'Retry-After': '60' },
    request: 'GET /v2/dogs',
    settings: { RATE_LIMIT_PER_MINUTE: '100' },
    before: { times: 100 },
    message: 'Too many requests: the limit is 100 a minute. Retry in 60 s.',
  },
  tokenMultiple: {
    answerHeaders: {
      'WWW-Authenticate':
        'Bearer realm="Dog Registry", error="invalid_request", error_description="Send the access token once, one way"',
    },
    request: 'GET /v2/dogs?access_token={token}',
    message:
      'The access token was sent more than once. Send it once: in the Authorization header, or as access_token in the query string or the form body.',
  },
  emailTaken: {
    request: 'POST {portal}/signup',
    token: 'none',
    headers: { ...JSON_BODY, Accept: 'application/json' },
    body: '{"email": "ann@example.com", "password": "correct horse battery", "appName": "Ann\'s app"}',
    before: {},
    message: 'An account with the email ann@example.com exists already. Sign up with another address.',
  },
  passwordTooShort: {
    request: 'POST {portal}/signup',
    token: 'none',
    headers: { ...JSON_BODY, Accept: 'application/json' },
    body: '{"email": "ann@example.com", "password": "secret", "appName": "Ann\'s app"}',
    message: 'The password has 6 characters; it needs at least 12.',
  },
  metricsTokenInvalid: {
    request: 'GET /metrics',
    token: 'none',
    settings: { METRICS_TOKEN: 'scrape-4f9a1c7e2b8d' },
    message: '/metrics needs the token set in METRICS_TOKEN: send Authorization: Bearer <METRICS_TOKEN>.',
  },
  internal: {
    request: 'GET /v2/dogs',
    situation: 'The service failed on a fault of its own, say a disk error while reading.',
    message:
      'The service failed to answer this request. Quote the request id {requestId} if you report it; retrying later may work.',
  },
  shuttingDown: {
    request: 'GET /v2/dogs',
    situation: 'The node was stopping (SIGTERM) when the request arrived.',
    message: 'This node is shutting down and took no new work. Retry the request; it is safe to repeat.',
  },
  databaseUnavailable: {
    request: 'GET /v2/dogs',
    situation: 'The database could not be reached.',
    message:
      'The service cannot reach its database right now. Retry later; quote the request id {requestId} if it persists.',
  },
};
