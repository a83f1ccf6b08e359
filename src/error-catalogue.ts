// The error catalogue as data: every API error by name, with its stable integer code, HTTP status,
// title and the explanation its portal page gives (the ApiError that carries one is in errors.ts).
//
// Codes are numbered by area (1xxx request routing and format, 2xxx query parameters,
// 3xxx request bodies, 4xxx the addressed items, 5xxx authentication, sign-up and rate limits,
// 6xxx currency conversion, 9xxx the server).
// A code, once released, keeps its meaning; a retired code is never reused. The portal's
// /errors pages and docs/errors.md are generated from this table.

export type ApiStatus = 400 | 401 | 403 | 404 | 500;

export interface CatalogueEntry {
  readonly code: number;
  readonly status: ApiStatus;
  readonly title: string;
  /** What the portal page says about the error: why it happens and how to fix it. */
  readonly explanation: string;
  /** Whether retrying the same request later may succeed. */
  readonly retryable?: boolean;
}

export const catalogue = {
  versionMissing: {
    code: 1000,
    status: 400,
    title: 'Version missing',
    explanation: 'Every API path starts with the version, for example /v2/dogs. Add the version in front of the path.',
  },
  versionUnknown: {
    code: 1001,
    status: 404,
    title: 'Unknown version',
    explanation:
      'The first path segment names a version the service does not offer. Use one of the supported versions (v1, ' +
      'v2), written as "v" and a whole number.',
  },
  routeNotFound: {
    code: 1002,
    status: 404,
    title: 'No such path',
    explanation:
      'The path does not name a resource, an item of one, or an operation of the API. Check the spelling against ' +
      'the API reference.',
  },
  methodNotAllowed: {
    code: 1003,
    status: 400,
    title: 'Method not offered',
    explanation:
      'The path exists but does not offer this HTTP method. The Allow header of the answer lists the methods it ' +
      'offers.',
  },
  formatUnknown: {
    code: 1004,
    status: 400,
    title: 'Unknown format',
    explanation:
      'The suffix of the last path segment names a format the service does not offer. Use .json or .xml, or ' +
      'leave the suffix out and send an Accept header.',
  },
  methodOverrideInvalid: {
    code: 1005,
    status: 400,
    title: 'Invalid method override',
    explanation:
      'The method parameter and the X-HTTP-Method-Override header take post, put or delete, on a GET or POST request.',
  },
  prefetchRefused: {
    code: 1006,
    status: 400,
    title: 'Prefetch of a changing request',
    explanation:
      'A GET whose method parameter makes it change data was sent as a browser prefetch (Sec-Purpose or Purpose: ' +
      'prefetch). It was not carried out; send it as a normal request.',
  },
  suppressInvalid: {
    code: 1007,
    status: 400,
    title: 'Invalid suppress_response_codes',
    explanation: 'suppress_response_codes takes true or false (in any case).',
  },
  requestMalformed: {
    code: 1008,
    status: 400,
    title: 'Request does not parse',
    explanation:
      'The request line or a header could not be read, for example a path or a query string with a broken ' +
      '%-escape or escaped bytes that are not UTF-8. Percent-encode the URL as UTF-8.',
  },
  headersTooLarge: {
    code: 1009,
    status: 400,
    title: 'Request line and headers too large',
    explanation:
      'The URL and the headers together may be at most 16 KiB. A very long URL (a huge fields selection, a long ' +
      'filter list) or an oversized cookie or header is the usual cause: ask for less per request, or page ' +
      'through the collection.',
  },
  expectationUnsupported: {
    code: 1010,
    status: 400,
    title: 'Expectation not supported',
    explanation:
      'The Expect header takes only 100-continue, the one expectation HTTP/1.1 defines. Remove the header, or ' +
      'send Expect: 100-continue.',
  },
  hostMissing: {
    code: 1011,
    status: 400,
    title: 'Host header missing',
    explanation:
      'An HTTP/1.1 request must carry a Host header naming the host it is for (RFC 9112 §3.2). HTTP clients add ' +
      'it themselves; a hand-written request needs it.',
  },
  methodTokenInvalid: {
    code: 1012,
    status: 400,
    title: 'Method not recognized',
    explanation:
      'The request line starts with a method the HTTP parser does not know, or with bytes that are not a method at all. Use an HTTP method such as GET, POST, PUT or DELETE, in capitals.',
  },
  requestTargetInvalid: {
    code: 1013,
    status: 400,
    title: 'Characters not allowed in the URL',
    explanation:
      'The request line has characters a URL may not contain as they are: spaces, control characters, or ' +
      'non-ASCII letters. Percent-encode them (é is %C3%A9, a space is %20).',
  },
  bodyFramingInvalid: {
    code: 1014,
    status: 400,
    title: 'Body framing broken',
    explanation:
      'The length of the body could not be read: a chunked body with a malformed chunk size or ending, or a ' +
      'Content-Length that is not a number or contradicts Transfer-Encoding. Send the body with one valid ' +
      'Content-Length, or with correct chunked encoding.',
  },
  requestTargetAsterisk: {
    code: 1015,
    status: 400,
    title: 'The request target * is for OPTIONS',
    explanation:
      'The request line names `*` instead of a path. HTTP allows that form only for OPTIONS, to ask which methods ' +
      'the server knows. Name the resource instead: GET /v2/dogs.',
  },
  hostInvalid: {
    code: 1016,
    status: 400,
    title: 'Host header invalid',
    explanation:
      'The request carries more than one Host header, or one that is not a host name or address with an optional ' +
      'port (RFC 9112 §3.2 asks a server to refuse both). Send one Host header: Host: api.example.com or ' +
      'Host: 192.0.2.1:8080.',
  },
  unknownParameter: {
    code: 2000,
    status: 400,
    title: 'Unknown query parameter',
    explanation:
      'The query string has a parameter this operation does not accept, often a typo (colour for color). The ' +
      'message lists the accepted parameters.',
  },
  limitInvalid: {
    code: 2001,
    status: 400,
    title: 'Invalid limit',
    explanation: 'limit is a whole number from 1 to 100; the default is 10.',
  },
  offsetInvalid: {
    code: 2002,
    status: 400,
    title: 'Invalid offset',
    explanation: 'offset is a whole number, 0 or more; the default is 0.',
  },
  fieldsInvalid: {
    code: 2003,
    status: 400,
    title: 'Invalid fields selection',
    explanation:
      'fields is a comma-separated list of field names, with a nested selection in parentheses for an ' +
      'association, for example fields=name,dogs(name). The message says where the selection went wrong and ' +
      'lists the valid fields at that level.',
  },
  fieldsTooDeep: {
    code: 2004,
    status: 400,
    title: 'Fields nested too deeply',
    explanation: 'A fields selection may nest associations at most four levels deep.',
  },
  filterInvalid: {
    code: 2005,
    status: 400,
    title: 'Invalid filter value',
    explanation: 'A filter has a value it cannot take. The message lists the values accepted.',
  },
  sortInvalid: {
    code: 2006,
    status: 400,
    title: 'Invalid sort',
    explanation:
      'sort names one sortable field, with a leading - for descending order, for example sort=-name. The message ' +
      'lists the sortable fields.',
  },
  searchInvalid: {
    code: 2007,
    status: 400,
    title: 'Invalid search text',
    explanation: 'q is free text of 1 to 200 characters.',
  },
  idempotencyKeyInvalid: {
    code: 2008,
    status: 400,
    title: 'Invalid Idempotency-Key',
    explanation:
      'The Idempotency-Key header is 1 to 255 visible ASCII characters, for example a UUID made fresh for each ' +
      'new creation.',
  },
  parameterRepeated: {
    code: 2009,
    status: 400,
    title: 'Query parameter repeated',
    explanation:
      'A query parameter appears more than once. Give each parameter once; to filter on several values, separate ' +
      'them with commas in one parameter (color=brown,black).',
  },
  characterNotAllowed: {
    code: 2010,
    status: 400,
    title: 'Character XML cannot carry',
    explanation:
      'A query parameter, a body field or a sign-up field contains a character XML 1.0 cannot carry: a control ' +
      'character other than tab, line feed and carriage return (NUL included), U+FFFE, U+FFFF or an unpaired ' +
      'surrogate. The message names the parameter or field and the character; remove it and send the request again.',
  },
  answerTooLarge: {
    code: 2011,
    status: 400,
    title: 'Answer too large',
    explanation:
      'A fields selection would write more than 50,000 nested items, or more than 16 million characters of them, ' +
      'in one answer. A nested array is written again ' +
      'under every item that reaches it, so four levels of 100 can reach millions: ' +
      "dogs?limit=100&fields=owner(dogs(owner(dogs(name)))) writes each owner's dogs once per dog of the page, and " +
      "their owner's again under each of those. Select fewer levels, ask for a smaller limit, or page through a " +
      'nested path such as /owners/<id>/dogs.',
  },
  bodyMalformed: {
    code: 3000,
    status: 400,
    title: 'Body does not parse',
    explanation:
      'The request body could not be read as its Content-Type says. Send valid JSON with Content-Type: ' +
      'application/json, or name=value pairs with Content-Type: application/x-www-form-urlencoded; both in UTF-8.',
  },
  bodyTooLarge: {
    code: 3001,
    status: 400,
    title: 'Body too large',
    explanation: 'A request body may be at most 16 KiB.',
  },
  mediaTypeUnsupported: {
    code: 3002,
    status: 400,
    title: 'Unsupported body type',
    explanation:
      'Request bodies are application/json or application/x-www-form-urlencoded, sent without a content coding. ' +
      'Set the Content-Type header to one of them, and send the body uncompressed (no Content-Encoding).',
  },
  bodyFieldUnknown: {
    code: 3003,
    status: 400,
    title: 'Unknown body field',
    explanation:
      'The body has a field the resource does not have. The message names it and lists the fields that can be written.',
  },
  fieldRequired: {
    code: 3004,
    status: 400,
    title: 'Required field missing',
    explanation: 'A field that must have a value is missing, empty or null. The message names it.',
  },
  fieldTooLong: {
    code: 3005,
    status: 400,
    title: 'Field too long',
    explanation: 'Text fields hold at most 100 characters after leading and trailing spaces are removed.',
  },
  fieldInvalid: {
    code: 3006,
    status: 400,
    title: 'Invalid field value',
    explanation:
      'A body field has a value of the wrong kind (for example a number or a list where text is expected, or a ' +
      'control character). The message names the field and what it takes.',
  },
  emailInvalid: {
    code: 3007,
    status: 400,
    title: 'Invalid email address',
    explanation: 'email must be an address such as ann@example.com.',
  },
  valueNotAllowed: {
    code: 3008,
    status: 400,
    title: 'Value not allowed',
    explanation:
      'A field takes one of a fixed set of values (state: registered, adoptable, adopted, lost). The message ' +
      'lists them.',
  },
  referenceNotFound: {
    code: 3009,
    status: 400,
    title: 'Referenced item not found',
    explanation:
      'A field refers to an item (an owner, a veterinarian, a food) by an id that does not exist or that you ' +
      'cannot see. Create the item first, or correct the id.',
  },
  itemNotFound: {
    code: 4000,
    status: 404,
    title: 'Item not found',
    explanation:
      'No item with this id exists, or it is not visible to you. It may have been deleted; list the collection ' +
      'to find current ids.',
  },
  preconditionFailed: {
    code: 4001,
    status: 400,
    title: 'Item changed (If-Match)',
    explanation:
      'The If-Match header does not match the current ETag of the item, so someone changed it since you read it. ' +
      'Nothing was changed: GET the item again, reapply your change, and send it with the new ETag.',
  },
  idempotencyKeyReused: {
    code: 4002,
    status: 400,
    title: 'Idempotency-Key reused',
    explanation:
      'This Idempotency-Key was already used in the last 24 hours for a request with another body or path. Use a ' +
      'fresh key for a new creation; reuse a key only to retry the very same request.',
  },
  idempotencyInProgress: {
    code: 4003,
    status: 400,
    title: 'Same request in progress',
    explanation:
      'A request with this Idempotency-Key is still being carried out. Retry in a moment: you will get its answer.',
    retryable: true,
  },
  currencyUnknown: {
    code: 6000,
    status: 400,
    title: 'Unknown currency',
    explanation:
      'from and to take a three-letter ISO 4217 currency code (EUR, USD, JPY, in any case) for which the service ' +
      'has a euro reference rate of the European Central Bank. The message lists the codes accepted.',
  },
  amountInvalid: {
    code: 6001,
    status: 400,
    title: 'Invalid amount',
    explanation:
      'amount is a decimal number of 0 or more, written with digits and an optional decimal point (100, 99.95), ' +
      'with at most 15 digits before the point and 6 after it. A sign, an exponent, spaces and thousands ' +
      'separators are not accepted.',
  },
  conversionParameterMissing: {
    code: 6002,
    status: 400,
    title: 'Conversion parameter missing',
    explanation:
      'A conversion needs from, to and amount, each given once and not empty: /convert?from=EUR&to=USD&amount=100.',
  },
  tokenMissing: {
    code: 5000,
    status: 401,
    title: 'Access token missing',
    explanation:
      'Every operation under /v<N>/ except GET /adoptions needs an OAuth 2.0 access token. Sign up in the ' +
      'developer portal for a client, get a token from POST /oauth2/token (grant_type=client_credentials), and ' +
      'send it as Authorization: Bearer <token>.',
  },
  tokenInvalid: {
    code: 5001,
    status: 401,
    title: 'Access token not valid',
    explanation:
      'The access token is unknown, expired or revoked. Get a new one from POST /oauth2/token. Tokens expire ' +
      'after TOKEN_TTL_SECONDS (one hour by default).',
  },
  scopeInsufficient: {
    code: 5002,
    status: 403,
    title: 'Scope missing',
    explanation:
      'The token is valid but lacks the scope the operation needs: read for GET, write for POST, PUT and DELETE (method overrides included). Ask for the scope when you get the token.',
  },
  rateLimited: {
    code: 5003,
    status: 403,
    title: 'Rate limit reached',
    explanation:
      'The client (or, on the open operation, the IP address) sent more requests this minute than the limit ' +
      'allows. Wait for the seconds in Retry-After; the RateLimit-* headers of every answer show where you stand.',
    retryable: true,
  },
  tokenMultiple: {
    code: 5004,
    status: 400,
    title: 'Access token sent twice',
    explanation:
      'RFC 6750 allows one way of sending the token per request: the Authorization header, or access_token in ' +
      'the query string or a form body.',
  },
  emailTaken: {
    code: 5005,
    status: 400,
    title: 'Email already signed up',
    explanation: 'An account with this email exists already. Sign in with it, or sign up with another address.',
  },
  passwordTooShort: {
    code: 5006,
    status: 400,
    title: 'Password too short',
    explanation: 'A password has at least 12 characters.',
  },
  metricsTokenInvalid: {
    code: 5007,
    status: 401,
    title: 'Metrics token missing or wrong',
    explanation:
      'This service protects /metrics with the token its operators set in METRICS_TOKEN. Send it as ' +
      'Authorization: Bearer <METRICS_TOKEN> (an OAuth access token does not open /metrics).',
  },
  internal: {
    code: 9000,
    status: 500,
    title: 'Internal error',
    explanation:
      'The service failed to answer. The message carries a request id; quote it when you report the problem. ' +
      'Retrying later may work.',
    retryable: true,
  },
  shuttingDown: {
    code: 9001,
    status: 500,
    title: 'Service restarting',
    explanation:
      'The node that received the request is shutting down. Retry the request; another node, or this one after ' +
      'its restart, will answer.',
    retryable: true,
  },
  databaseUnavailable: {
    code: 9002,
    status: 500,
    title: 'Database unavailable',
    explanation: 'The service cannot reach its database. Retry later.',
    retryable: true,
  },
} as const satisfies Record<string, CatalogueEntry>;
