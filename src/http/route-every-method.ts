// Routes every HTTP method of a path: those it offers to its handler, any other to its surface's wrong-method answer
// with Allow.
import { METHODS } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod, RouteOptions } from 'fastify';
import { allowAnyOrigin, answerPreflight } from './cors.js';
import { formatSuffixOf } from './format-suffix.js';
import { formatFromSuffix } from '../representation/formats.js';

/** How a surface answers a method the path does not offer; `allow` is the value of the Allow header to send. */
export type WrongMethodAnswer = (request: FastifyRequest, reply: FastifyReply, allow: string) => unknown;

export interface EveryMethodRoute {
  readonly url: string;
  /** The methods the path offers; HEAD comes with GET. */
  readonly method: readonly string[];
  readonly handler: RouteHandlerMethod;
  /** The surface's answer to any other method. */
  readonly wrongMethod: WrongMethodAnswer;
  /** The Allow header, when it is not simply the offered methods (the API routes POST for its overrides). */
  readonly allow?: string;
  readonly config?: RouteOptions['config'];
  readonly constraints?: RouteOptions['constraints'];
  /** Answers any origin: OPTIONS is a CORS preflight, a wrong method's answer carries the CORS headers. */
  readonly cors?: boolean;
}

/**
 * Every method Node's parser hands to a request handler (PROPFIND, MKCOL, …). CONNECT is not
 * one: Node emits it as a 'connect' event, and without a listener it closes the connection.
 */
const NODE_METHODS: readonly string[] = METHODS.filter((method) => method !== 'CONNECT');

/**
 * Lets Fastify route every method Node accepts, so that an unusual one is a wrong method, never a 404. Call once, on
 * the root.
 */
export function acceptEveryMethod(app: FastifyInstance): void {
  for (const method of NODE_METHODS) {
    // Bodyless: Fastify leaves a body unread, and Node discards it once the wrong-method answer is sent.
    if (!app.supportedMethods.includes(method)) app.addHttpMethod(method);
  }
  // No path offers QUERY, but Fastify would refuse one without a Content-Type before any route
  // could say so; as a bodyless method it reaches the wrong-method answer like the others.
  app.addHttpMethod('QUERY', { overrideExisting: true });
}

/**
 * Two routes for `url`: the offered methods to the handler, every other method to the surface's wrong-method answer;
 * with `cors`, a third: OPTIONS to the preflight.
 */
export function routeEveryMethod(app: FastifyInstance, route: EveryMethodRoute): void {
  const offered =
    route.method.includes('GET') && !route.method.includes('HEAD')
      ? route.method.flatMap((method) => (method === 'GET' ? ['GET', 'HEAD'] : [method]))
      : [...route.method];
  const allow = route.allow ?? offered.join(', ');
  const { wrongMethod, cors } = route;
  const shared = {
    url: route.url,
    exposeHeadRoute: false,
    config: cors ? { ...route.config, cors } : route.config,
    ...(route.constraints ? { constraints: route.constraints } : {}),
  };
  app.route({ ...shared, method: offered, handler: route.handler });
  if (cors) app.route({ ...shared, method: 'OPTIONS', handler: (request, reply) => preflight(request, reply, allow) });
  app.route({
    ...shared,
    method: NODE_METHODS.filter((method) => !offered.includes(method) && !(cors && method === 'OPTIONS')),
    handler: cors
      ? (request, reply) => wrongMethod(request, allowAnyOrigin(reply), allow)
      : (request, reply) => wrongMethod(request, reply, allow),
  });
}

/** A preflight answers for the path the request would reach: a format suffix the service does not have is a 400 first. */
function preflight(request: FastifyRequest, reply: FastifyReply, allow: string): FastifyReply {
  const suffix = formatSuffixOf(request.raw);
  if (suffix !== undefined) formatFromSuffix(suffix);
  return answerPreflight(reply, allow);
}
