// An endpoint is a path with its operations per method; this turns one into a Fastify route for each version.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';
import { contextOf, parseIntent, type ApiContext, type Verb } from './context.js';
import type { AccessControl } from '../auth/access.js';
import type { PublicScope, Scope, Storage, TenantScope } from '../storage/storage.js';
import type { OperationDescriptor } from '../routes/descriptor.js';
import { answersLeave } from './answer-batch.js';
import { runIdempotent, type ClaimedKey } from './idempotency.js';
import { sendOutcome, type Outcome } from './respond.js';
import { routeEveryMethod } from './route-every-method.js';
import { VERSIONS } from './versions.js';

export interface Operation<S extends Scope = TenantScope> {
  /** What it accepts and answers: its parameter check and its OpenAPI description read this. */
  readonly descriptor: OperationDescriptor;
  /**
   * Runs stages 7 on (parameters and body, then the item) and returns what to send; a create commits `claimed`'s
   * answer.
   */
  run(context: ApiContext<S>, claimed?: ClaimedKey): Promise<Outcome>;
}

/** A path whose operations act on a tenant's data (a token needed), or an open one. */
export type Endpoint = TenantEndpoint | OpenEndpoint;

interface EndpointPath {
  /** The path after the version, in Fastify's syntax: `/dogs/:id`. */
  readonly path: string;
  /** Answers any origin (CORS), preflight included. */
  readonly cors?: boolean;
}

interface TenantEndpoint extends EndpointPath {
  readonly operations: Partial<Record<Verb, Operation>>;
  readonly open?: false;
}

/** Open operations need no token and see the public view (route configuration, read by the access stage). */
interface OpenEndpoint extends EndpointPath {
  readonly operations: Partial<Record<Verb, Operation<PublicScope>>>;
  readonly open: true;
}

export interface EndpointDeps {
  readonly storage: Storage;
  readonly access: AccessControl;
}

/** What a browser script on another origin may read of an answer (CORS). */
const EXPOSED_HEADERS =
  'ETag, Link, Location, X-Request-Id, X-Total-Count, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, ' +
  'Retry-After, Deprecation, Sunset';

const VERB_ORDER: Verb[] = ['GET', 'POST', 'PUT', 'DELETE'];

export function allowHeader(endpoint: Endpoint): string {
  return VERB_ORDER.filter((verb) => endpoint.operations[verb])
    .flatMap((verb) => (verb === 'GET' ? ['GET', 'HEAD'] : [verb]))
    .join(', ');
}

/**
 * The methods the endpoint's handler takes: GET and POST always (they carry method overrides, which
 * the handler checks), PUT and DELETE where offered, OPTIONS for a CORS preflight.
 */
function handledMethods(endpoint: Endpoint): string[] {
  const methods = ['GET', 'POST'];
  if (endpoint.operations.PUT) methods.push('PUT');
  if (endpoint.operations.DELETE) methods.push('DELETE');
  if (endpoint.cors) methods.push('OPTIONS');
  return methods;
}

/** Any other method (PATCH, TRACE, PROPFIND, …): the API's 400 (1003) with Allow, in the request's format. */
function wrongMethodOf(endpoint: Endpoint) {
  return (request: FastifyRequest, reply: FastifyReply, allow: string): never => {
    if (endpoint.cors)
      reply.header('access-control-allow-origin', '*').header('access-control-expose-headers', EXPOSED_HEADERS);
    throw new ApiError('methodNotAllowed', `${request.method} is not offered on this path. It offers: ${allow}.`, {
      allow,
    });
  };
}

/** Routes the endpoint under each version, every method included: an unoffered one is 1003 with Allow, not a 404. */
export function registerEndpoint(app: FastifyInstance, endpoint: Endpoint, deps: EndpointDeps): void {
  const allow = allowHeader(endpoint);
  const method = handledMethods(endpoint);
  const wrongMethod = wrongMethodOf(endpoint);
  for (const version of VERSIONS) {
    routeEveryMethod(app, {
      method,
      allow,
      wrongMethod,
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
          throw new ApiError('methodNotAllowed', `${asked} is not offered on this path. It offers: ${allow}.`, {
            allow,
          });
        }
        if (intent.overridden && request.method !== 'POST' && isPrefetch(request)) {
          throw new ApiError(
            'prefetchRefused',
            'This GET changes data (it has a method override) and was sent as a prefetch, so it was not carried ' +
              'out. Send it as a normal request.',
          );
        }
        let outcome: Outcome;
        if (endpoint.open) {
          const { scope, clientId } = deps.access.checkOpen(request, reply);
          outcome = await endpoint.operations[intent.method]!.run(contextOf(intent, scope, clientId));
        } else {
          const checked = deps.access.check(request, reply, intent.method);
          const { scope, clientId } = checked instanceof Promise ? await checked : checked;
          const context = contextOf(intent, scope, clientId);
          const tenantOperation = endpoint.operations[intent.method]!;
          outcome =
            context.method === 'POST'
              ? await runIdempotent(context, deps.storage, (claimed) => tenantOperation.run(context, claimed))
              : await tenantOperation.run(context);
        }
        // A write's answer already leaves with its batch's, when the group commit resolves them all.
        if (intent.method === 'GET') await answersLeave();
        return sendOutcome(request, reply, outcome, intent.method === 'GET' && !intent.overridden);
      },
    });
  }
}

/** A CORS preflight (an OPTIONS request) answers 200 with what the endpoint allows. */
function preflight(request: FastifyRequest, reply: FastifyReply, allow: string): FastifyReply {
  const asked = request.headers['access-control-request-headers'];
  return reply
    .code(200)
    .headers({
      'access-control-allow-methods': allow,
      'access-control-allow-headers': typeof asked === 'string' ? asked : 'Accept, Content-Type',
      'access-control-max-age': '86400',
      allow,
    })
    .send();
}

function isPrefetch(request: FastifyRequest): boolean {
  const purpose = request.headers['sec-purpose'] ?? request.headers.purpose;
  return typeof purpose === 'string' && purpose.toLowerCase().includes('prefetch');
}
