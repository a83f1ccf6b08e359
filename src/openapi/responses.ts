// The responses of the document: the envelopes of SPEC §2 in JSON and XML, the error answers and their headers.
import type { ResourceDef } from '../resources/definition.js';
import { ref, schemaNames, type JsonObject } from './json-schema.js';

function header(description: string, schema: JsonObject = { type: 'string' }, extra: JsonObject = {}): JsonObject {
  return { description, schema, ...extra };
}

export function headerComponents(): Record<string, JsonObject> {
  return {
    'X-Request-Id': header('Identifies the request in the service\'s logs; quote it when you report a problem. A well-formed X-Request-Id sent with the request is kept.'),
    Vary: header('Accept: the format of the answer may come from the Accept header.', { type: 'string' }, { example: 'Accept' }),
    Location: header('The absolute URL of the new item.', { type: 'string', format: 'uri' }, { required: true }),
    ETag: header('Identifies what this answer holds; send it back in If-None-Match to get a 304 while it is unchanged, or in If-Match to guard a change.'),
    Link: header('RFC 8288 links built from the API root: first always, prev and next where such a page exists, last with Prefer: count=exact.'),
    'X-Total-Count': header('With Prefer: count=exact, how many items match in all.', { type: 'integer', minimum: 0 }),
    'Preference-Applied': header('count=exact when the total was counted (RFC 7240).'),
    Allow: header('On a 400 for a method the path does not offer: the methods it offers.', { type: 'string' }, { example: 'GET, HEAD, POST' }),
    'WWW-Authenticate': header('Bearer, with error="invalid_token" when a token was given but is not valid, or error="insufficient_scope" on a 403 (RFC 6750).'),
    'Retry-After': header('On a 403 for a rate limit: seconds to wait before retrying.', { type: 'integer', minimum: 0 }),
  };
}

/** The headers of every API answer. */
export function commonHeaders(...extra: string[]): JsonObject {
  const headers: JsonObject = { 'X-Request-Id': ref('headers', 'X-Request-Id'), Vary: ref('headers', 'Vary') };
  for (const name of extra) headers[name] = ref('headers', name);
  return headers;
}

/** Both formats of one answer: JSON by default, XML by suffix (.xml) or Accept. */
export function bothFormats(json: JsonObject, xml: JsonObject): JsonObject {
  return { 'application/json': { schema: json }, 'application/xml': { schema: xml } };
}

function errorResponse(description: string, ...headers: string[]): JsonObject {
  const error = ref('schemas', 'Error');
  return { description, headers: commonHeaders(...headers), content: bothFormats(error, error) };
}

/** Reusable error answers; every one is 200 with response_code instead under suppress_response_codes=true. */
export function responseComponents(): Record<string, JsonObject> {
  return {
    BadRequest: errorResponse('The request is not valid: a parameter, the body, the format suffix or the method. '
      + 'The message says what to change; code names the error in the catalogue.', 'Allow'),
    Unauthorized: errorResponse('No token, or a token that is not valid or has expired.', 'WWW-Authenticate'),
    Forbidden: errorResponse('The token lacks the scope the operation needs (read for GET, write for changes), or a rate limit was reached.', 'WWW-Authenticate', 'Retry-After'),
    NotFound: errorResponse('No item has this id, or it belongs to another account.'),
    InternalError: errorResponse('The service failed to answer; the message carries the request id. Retrying later may work.'),
    NotModified: { description: 'The ETag in If-None-Match still matches: nothing changed, and the body is empty.', headers: commonHeaders('ETag') },
  };
}

export function itemResponse(def: ResourceDef, description: string, ...headers: string[]): JsonObject {
  const names = schemaNames(def);
  return { description, headers: commonHeaders(...headers), content: bothFormats(ref('schemas', names.envelope), ref('schemas', names.itemXml)) };
}

export function listResponse(def: ResourceDef, description: string): JsonObject {
  const names = schemaNames(def);
  return {
    description,
    headers: commonHeaders('ETag', 'Link', 'X-Total-Count', 'Preference-Applied'),
    content: bothFormats(ref('schemas', names.list), ref('schemas', names.listXml)),
  };
}

export function countResponse(description: string): JsonObject {
  return { description, headers: commonHeaders('ETag'), content: bothFormats(ref('schemas', 'Count'), ref('schemas', 'CountXml')) };
}

export function emptyResponse(description: string): JsonObject {
  return { description, headers: commonHeaders() };
}
