// Turns an endpoint into its OpenAPI path item: each method it offers, described and secured, its path parameters, CORS.
import { scopeFor } from '../auth/access.js';
import type { Verb } from '../http/context.js';
import { allowHeader, type Endpoint } from '../http/endpoint.js';
import { ref, type JsonObject } from './json-schema.js';
import { PATH_CONTROL_REFS } from './parameters.js';
import { withHeaders } from './responses.js';
import { finishOperation } from './security.js';

/** Describes one method of an endpoint (before security and the shared answers); undefined when nothing describes it. */
export type DescribeVerb = (verb: Verb, verbs: readonly Verb[]) => JsonObject | undefined;

const VERBS: readonly Verb[] = ['GET', 'POST', 'PUT', 'DELETE'];

/** `/dogs/:id` → `/dogs/{id}`. */
export function openApiPath(path: string): string {
  return path.replace(/:(\w+)/g, '{$1}');
}

/** The path item of one endpoint, keyed by its path; empty when none of its methods is described (a test then names it). */
export function pathItem(endpoint: Endpoint, describe: DescribeVerb): Record<string, JsonObject> {
  const verbs = VERBS.filter((verb) => endpoint.operations[verb]);
  const open = endpoint.open === true;
  const item: JsonObject = {};
  for (const verb of verbs) {
    const operation = describe(verb, verbs);
    if (operation) item[verb.toLowerCase()] = finishOperation(operation, { scope: scopeFor(verb), open, notFound: endpoint.path.includes('/:') });
  }
  if (Object.keys(item).length === 0) return {};
  if (endpoint.cors) {
    item.options = preflight(allowHeader(endpoint), (Object.values(item)[0] as JsonObject).tags);
    for (const [key, operation] of Object.entries(item)) item[key] = withCorsHeader(operation as JsonObject);
  }
  const path = openApiPath(endpoint.path);
  const names = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
  // An open operation ignores credentials, so access_token is left out of its parameters.
  const control = open ? PATH_CONTROL_REFS.filter((parameter) => !String(parameter.$ref).endsWith('/access_token')) : PATH_CONTROL_REFS;
  return { [path]: { parameters: [...names.map((name) => ref('parameters', name)), ...control], ...item } };
}

/** Every answer of a CORS endpoint, errors included, says any origin may read it. */
function withCorsHeader(operation: JsonObject): JsonObject {
  const header = { 'Access-Control-Allow-Origin': ref('headers', 'Access-Control-Allow-Origin') };
  const responses = Object.fromEntries(Object.entries(operation.responses as Record<string, JsonObject>)
    .map(([status, response]) => [status, withHeaders(response, header)]));
  return { ...operation, responses };
}

/** The CORS preflight: answered before any token check, 200 (never 204) with what the endpoint allows. */
function preflight(allow: string, tags: unknown): JsonObject {
  const header = (description: string, example: string): JsonObject => ({ description, schema: { type: 'string' }, example });
  return {
    summary: 'CORS preflight',
    description: 'What a browser asks before a cross-origin request. No token is needed; the answer is 200 with an empty body.',
    tags,
    security: [],
    parameters: [
      { name: 'Access-Control-Request-Method', in: 'header', required: false, description: 'The method the page means to send.', schema: { type: 'string' } },
      { name: 'Access-Control-Request-Headers', in: 'header', required: false, description: 'The headers the page means to send; all are allowed.', schema: { type: 'string' } },
    ],
    responses: {
      200: {
        description: 'The request may go ahead from any origin; the body is empty.',
        headers: {
          'X-Request-Id': ref('headers', 'X-Request-Id'),
          'Access-Control-Allow-Origin': ref('headers', 'Access-Control-Allow-Origin'),
          'Access-Control-Allow-Methods': header('The methods the path offers.', allow),
          'Access-Control-Allow-Headers': header('The headers asked for in Access-Control-Request-Headers, or Accept, Content-Type.', 'Accept, Content-Type'),
          'Access-Control-Max-Age': header('How long, in seconds, a browser may keep this answer.', '86400'),
          Allow: header('The methods the path offers.', allow),
        },
      },
      400: ref('responses', 'BadRequest'),
      500: ref('responses', 'InternalError'),
    },
  };
}
