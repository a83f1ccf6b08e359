// Turns an endpoint into its OpenAPI path item: each method it offers, described and secured, its path parameters,
// CORS.
import { scopeFor } from '../auth/access.js';
import type { Verb } from '../http/context.js';
import { allowHeader, type Endpoint } from '../http/endpoint.js';
import type { ResourceDef } from '../resources/definition.js';
import { describeOperation, pathParameters } from './describe-operation.js';
import { ref, type JsonObject } from './json-schema.js';
import { PATH_CONTROL_REFS } from './parameters.js';
import { finishOperation } from './security.js';
import { withSuppressedAnswers } from './alternatives.js';
import { withOverrides } from './overrides.js';

const VERBS: readonly Verb[] = ['GET', 'POST', 'PUT', 'DELETE'];

/** `/dogs/:id` → `/dogs/{id}`. */
function openApiPath(path: string): string {
  return path.replace(/:(\w+)/g, '{$1}');
}

/** The path item of one endpoint, keyed by its path: each of its operations described from its descriptor. */
export function pathItem(
  endpoint: Endpoint,
  version: number,
  defs: readonly ResourceDef[],
): Record<string, JsonObject> {
  const verbs = VERBS.filter((verb) => endpoint.operations[verb]);
  const open = endpoint.open === true;
  const item: JsonObject = {};
  let parameters: JsonObject[] = [];
  for (const verb of verbs) {
    const { descriptor } = endpoint.operations[verb]!;
    parameters = pathParameters(descriptor);
    checkPathParameters(endpoint, verb, parameters);
    item[verb.toLowerCase()] = finishOperation(describeOperation(descriptor, version, defs), {
      scope: scopeFor(verb),
      open,
      notFound: parameters.length > 0,
    });
  }
  const operations = withOverrides(item as Record<string, JsonObject>, pathWords(endpoint.path));
  for (const [verb, operation] of Object.entries(operations)) operations[verb] = withSuppressedAnswers(operation);
  // Every API path answers a CORS preflight (SPEC §13).
  operations.options = preflight(endpoint.path, allowHeader(endpoint), (Object.values(item)[0] as JsonObject).tags);
  return { [openApiPath(endpoint.path)]: { parameters: [...parameters, ...PATH_CONTROL_REFS], ...operations } };
}

/** `/dogs/:id/foods` → `DogsIdFoods`: the path in an operationId, unique as the path is. */
function pathWords(path: string): string {
  return path
    .split(/[^A-Za-z0-9]+/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
}

/**
 * A descriptor names exactly the route's path parameters (`/dogs/:id` → id), or the document would promise another
 * path.
 */
function checkPathParameters(endpoint: Endpoint, verb: Verb, parameters: readonly JsonObject[]): void {
  const route = endpoint.path
    .split('/')
    .filter((segment) => segment.startsWith(':'))
    .map((segment) => ref('parameters', segment.slice(1)).$ref);
  const described = parameters.map((parameter) => parameter.$ref);
  if (route.join() !== described.join())
    throw new Error(`${verb} ${endpoint.path} describes the path parameters ${described.join(', ') || 'none'}`);
}

/** The CORS preflight: answered before any token check, 200 (never 204) with what the endpoint allows. */
function preflight(path: string, allow: string, tags: unknown): JsonObject {
  const header = (description: string, example: string): JsonObject => ({
    description,
    schema: { type: 'string' },
    example,
  });
  return {
    operationId: `preflight${pathWords(path)}`,
    summary: 'CORS preflight',
    description:
      'What a browser asks before a cross-origin request. No token is needed; the answer is 200 with an empty body.',
    tags,
    security: [],
    parameters: [
      {
        name: 'Access-Control-Request-Method',
        in: 'header',
        required: false,
        description: 'The method the page means to send.',
        schema: { type: 'string' },
      },
      {
        name: 'Access-Control-Request-Headers',
        in: 'header',
        required: false,
        description: 'The headers the page means to send.',
        schema: { type: 'string' },
      },
    ],
    responses: {
      200: {
        description: 'The request may go ahead from any origin; the body is empty.',
        headers: {
          'X-Request-Id': ref('headers', 'X-Request-Id'),
          'Access-Control-Allow-Origin': ref('headers', 'Access-Control-Allow-Origin'),
          'Access-Control-Allow-Methods': header('The methods the path offers.', allow),
          'Access-Control-Allow-Headers': header(
            'The headers a page may send.',
            'Authorization, Content-Type, Accept, If-Match, If-None-Match, Idempotency-Key',
          ),
          'Access-Control-Max-Age': header('How long, in seconds, a browser may keep this answer.', '86400'),
          Allow: header('The methods the path offers.', allow),
        },
      },
      400: ref('responses', 'BadRequest'),
      500: ref('responses', 'InternalError'),
    },
  };
}
