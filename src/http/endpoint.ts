// An endpoint is a path with its operations per method; this turns one into a Fastify route for each version.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';
import { contextOf, parseIntent, type ApiContext, type Verb } from './context.js';
import type { AccessControl } from '../auth/access.js';
import type { PublicScope, Scope, Storage, TenantScope } from '../storage/storage.js';
import type { OperationDescriptor } from '../routes/descriptor.js';
import { answersLeave } from './answer-batch.js';
import { allowAnyOrigin } from './cors.js';
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

/**
 * SPEC §13: a client revalidates tenant data with its ETag every time; the open adoption list may be kept by any cache
 * for a minute (a dog adopted shows for at most that long).
 */
const TENANT_CACHE = 'private, no-cache';
const OPEN_CACHE = 'public, max-age=60';

const VERB_ORDER: Verb[] = ['GET', 'POST', 'PUT', 'DELETE'];

export function allowHeader(endpoint: Endpoint): string {
  return VERB_ORDER.filter((verb) => endpoint.operations[verb])
    .flatMap((verb) => (verb === 'GET' ? ['GET', 'HEAD'] : [verb]))
    .join(', ');
}

/**
 * The methods the endpoint's handler takes: GET and POST always (they carry method overrides, which
 * the handler checks), PUT and DELETE where offered; routeEveryMethod answers the CORS preflight.
 */
function handledMethods(endpoint: Endpoint): string[] {
  const methods = ['GET', 'POST'];
  if (endpoint.operations.PUT) methods.push('PUT');
  if (endpoint.operations.DELETE) methods.push('DELETE');
  return methods;
}

/** Any other method (PATCH, TRACE, PROPFIND, …): the API's 400 (1003) with Allow, in the request's format. */
function wrongMethod(request: FastifyRequest, _reply: FastifyReply, allow: string): never {
  throw new ApiError('methodNotAllowed', `${request.method} is not offered on this path. It offers: ${allow}.`, {
    allow,
  });
}

/** Routes the endpoint under each version, every method included: an unoffered one is 1003 with Allow, not a 404. */
export function registerEndpoint(app: FastifyInstance, endpoint: Endpoint, deps: EndpointDeps): void {
  const allow = allowHeader(endpoint);
  const method = handledMethods(endpoint);
  const cache = endpoint.open ? OPEN_CACHE : TENANT_CACHE;
  for (const version of VERSIONS) {
    routeEveryMethod(app, {
      method,
      allow,
      wrongMethod,
      cors: true,
      url: `/v${version}${endpoint.path}`,
      config: { endpoint, version },
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const intent = parseIntent(request, version);
        allowAnyOrigin(reply);
        if (intent.overridden && request.method !== 'POST') reply.header('cache-control', 'no-store');
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
        // An overridden GET keeps its no-store: it changes data (SPEC §3).
        return sendOutcome(request, reply, outcome, intent.method === 'GET' && !intent.overridden ? cache : undefined);
      },
    });
  }
}

function isPrefetch(request: FastifyRequest): boolean {
  const purpose = request.headers['sec-purpose'] ?? request.headers.purpose;
  return typeof purpose === 'string' && purpose.toLowerCase().includes('prefetch');
}
