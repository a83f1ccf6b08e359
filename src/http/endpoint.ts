// An endpoint is a path with its operations per method; this turns one into a Fastify route for each version.
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { ApiError } from '../errors.js';
import { contextOf, parseIntent, type ApiContext, type Verb } from './context.js';
import type { AccessControl } from '../auth/access.js';
import type { Storage } from '../storage/storage.js';
import type { OperationDescriptor } from '../routes/descriptor.js';
import { answersLeave } from './answer-batch.js';
import { runIdempotent } from './idempotency.js';
import { sendOutcome, type Outcome } from './respond.js';
import { VERSIONS } from './versions.js';

export interface Operation {
  /** What it accepts and answers: its parameter check and its OpenAPI description read this. */
  readonly descriptor: OperationDescriptor;
  /** Runs stages 7 on (parameters and body, then the item) and returns what to send. */
  run(context: ApiContext): Promise<Outcome>;
}

export interface Endpoint {
  /** The path after the version, in Fastify's syntax: `/dogs/:id`. */
  readonly path: string;
  readonly operations: Partial<Record<Verb, Operation>>;
  /** Open operations need no token (route configuration, read by the access stage). */
  readonly open?: boolean;
  /** Answers any origin (CORS), preflight included. */
  readonly cors?: boolean;
}

export interface EndpointDeps {
  readonly storage: Storage;
  readonly access: AccessControl;
}

/** What a browser script on another origin may read of an answer (CORS). */
const EXPOSED_HEADERS = 'ETag, Link, Location, X-Request-Id, X-Total-Count, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, Deprecation, Sunset';

/** Every method is routed, so an unoffered one is the API's 400 with Allow, not Fastify's 404. */
export const ROUTED_METHODS: HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE'];
const VERB_ORDER: Verb[] = ['GET', 'POST', 'PUT', 'DELETE'];

export function allowHeader(endpoint: Endpoint): string {
  return VERB_ORDER.filter((verb) => endpoint.operations[verb])
    .flatMap((verb) => (verb === 'GET' ? ['GET', 'HEAD'] : [verb]))
    .join(', ');
}

export function registerEndpoint(app: FastifyInstance, endpoint: Endpoint, deps: EndpointDeps): void {
  const allow = allowHeader(endpoint);
  for (const version of VERSIONS) {
    app.route({
      method: ROUTED_METHODS,
      url: `/v${version}${endpoint.path}`,
      config: { endpoint, version },
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const intent = parseIntent(request, version);
        if (intent.overridden && request.method !== 'POST') reply.header('cache-control', 'no-store');
        if (endpoint.cors) {
          reply.header('access-control-allow-origin', '*');
          reply.header('access-control-expose-headers', EXPOSED_HEADERS);
          if (request.method === 'OPTIONS') return preflight(request, reply, allow);
        }
        const operation = endpoint.operations[intent.method];
        if (!operation) {
          const asked = intent.overridden ? `${intent.method} (by method override)` : request.method;
          throw new ApiError('methodNotAllowed', `${asked} is not offered on this path. It offers: ${allow}.`, { allow });
        }
        if (intent.overridden && request.method !== 'POST' && isPrefetch(request)) {
          throw new ApiError('prefetchRefused', 'This GET changes data (it has a method override) and was sent as a prefetch, so it was not carried out. Send it as a normal request.');
        }
        const checked = deps.access.check(request, reply, intent.method, endpoint.open === true);
        const { scope, clientId } = checked instanceof Promise ? await checked : checked;
        const context = contextOf(intent, scope, clientId);
        const outcome = context.method === 'POST'
          ? await runIdempotent(context, deps.storage, () => operation.run(context))
          : await operation.run(context);
        // A write's answer already leaves with its batch's, when the group commit resolves them all.
        if (context.method === 'GET') await answersLeave();
        return sendOutcome(request, reply, outcome, context.method === 'GET' && !context.overridden);
      },
    });
  }
}

/** A CORS preflight (an OPTIONS request) answers 200 with what the endpoint allows. */
function preflight(request: FastifyRequest, reply: FastifyReply, allow: string): FastifyReply {
  const asked = request.headers['access-control-request-headers'];
  return reply.code(200).headers({
    'access-control-allow-methods': allow,
    'access-control-allow-headers': typeof asked === 'string' ? asked : 'Accept, Content-Type',
    'access-control-max-age': '86400',
    allow,
  }).send();
}

function isPrefetch(request: FastifyRequest): boolean {
  const purpose = request.headers['sec-purpose'] ?? request.headers.purpose;
  return typeof purpose === 'string' && purpose.toLowerCase().includes('prefetch');
}
