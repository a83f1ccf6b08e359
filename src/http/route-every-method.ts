// Routes every HTTP method of a path: those it offers to its handler, any other to its surface's wrong-method answer
// with Allow.
//
// Fastify's router keeps a tree per method, so that a path routed for each of Node's 34 methods cost 34 insertions,
// and those were half of building the app (about 50 of 90 ms). Only six methods are offered anywhere (OFFERED); the
// others reach the router as one stand-in (standInUnoffered, before routing) and come back as themselves before any
// of the service's code sees the request (restoreUnoffered), so that a path routes seven methods instead.
import { METHODS, type IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod, RouteOptions } from 'fastify';
import { allowAnyOrigin, answerPreflight } from './cors.js';
import { formatSuffixOf } from './format-suffix.js';
import { formatFromSuffix } from '../representation/formats.js';
import { ApiError } from '../errors.js';

/** How a surface answers a method the path does not offer; `allow` is the value of the Allow header to send. */
export type WrongMethodAnswer = (request: FastifyRequest, reply: FastifyReply, allow: string) => unknown;

/**
 * The catalogue's answer to a wrong method (1003, a 400 with Allow, in the request's format): the infrastructure's
 * paths' and the OpenAPI documents' (JSON for code generators, not portal pages).
 */
export function catalogueWrongMethod(request: FastifyRequest, _reply: FastifyReply, allow: string): never {
  throw new ApiError(
    'methodNotAllowed',
    `${request.method} is not offered on ${request.url.split('?')[0]}. It offers: ${allow}.`,
    { allow },
  );
}

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

/** The methods some route offers: a route that offers another fails the app's build (acceptEveryMethod). */
const OFFERED: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS']);

/** What every other method is routed as: one no route offers, any of them would do. */
const STAND_IN = 'UNLINK';

/** The method a request was sent with, while the router sees the stand-in. */
const SENT = Symbol('sentMethod');

type WithSentMethod = IncomingMessage & { [SENT]?: string };

/** Before routing (Fastify's rewriteUrl): a method no route offers is routed as the stand-in. */
export function standInUnoffered(request: IncomingMessage): void {
  const method = request.method ?? '';
  if (OFFERED.has(method) || method === STAND_IN) return;
  (request as WithSentMethod)[SENT] = method;
  request.method = STAND_IN;
}

/**
 * Right after routing, before anything reads the method: the request is the one sent again. Fastify's genReqId is the
 * first call it makes with the request once a route (or the not-found handler) is found (route.js routeHandler,
 * four-oh-four.js), ahead of its log of the incoming request, the hooks and the body's parsing (which depends on the
 * method); with requestIdHeader off (app.ts), Fastify calls it for every request.
 */
export function restoreUnoffered(request: IncomingMessage): void {
  const sent = (request as WithSentMethod)[SENT];
  if (sent !== undefined) request.method = sent;
}

/** The handlers of wrong-method routes, which alone may route the stand-in. */
const wrongMethodHandlers = new WeakSet<object>();

/**
 * Lets Fastify route every method Node accepts, so that an unusual one is a wrong method, never a 404. Call once, on
 * the root, before any route: routes that offer a method outside OFFERED fail the build, since it would reach them as
 * the stand-in.
 */
export function acceptEveryMethod(app: FastifyInstance): void {
  for (const method of NODE_METHODS) {
    // Bodyless: Fastify leaves a body unread, and Node discards it once the wrong-method answer is sent.
    if (!app.supportedMethods.includes(method)) app.addHttpMethod(method);
  }
  // No path offers QUERY, but Fastify would refuse one without a Content-Type before any route
  // could say so; as a bodyless method it reaches the wrong-method answer like the others.
  app.addHttpMethod('QUERY', { overrideExisting: true });
  app.addHook('onRoute', (route) => {
    if (wrongMethodHandlers.has(route.handler)) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const other = methods.find((method) => !OFFERED.has(method));
    if (other !== undefined)
      throw new Error(`${route.url} offers ${other}, which reaches routes as ${STAND_IN}: add it to OFFERED.`);
  });
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
  const handler: RouteHandlerMethod = cors
    ? (request, reply) => wrongMethod(request, allowAnyOrigin(reply), allow)
    : (request, reply) => wrongMethod(request, reply, allow);
  wrongMethodHandlers.add(handler);
  app.route({
    ...shared,
    method: [...OFFERED, STAND_IN].filter((method) => !offered.includes(method) && !(cors && method === 'OPTIONS')),
    handler,
  });
}

/** A preflight answers for the path the request would reach: a format suffix the service does not have is a 400 first. */
function preflight(request: FastifyRequest, reply: FastifyReply, allow: string): FastifyReply {
  const suffix = formatSuffixOf(request.raw);
  if (suffix !== undefined) formatFromSuffix(suffix);
  return answerPreflight(reply, allow);
}
