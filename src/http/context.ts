// Parses an API request into its intent: format, status suppression, the method carried out, its input.
import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';
import { parse as parseQuery } from 'fast-querystring';
import { ApiError } from '../errors.js';
import { single, type QueryParams } from '../query/collection.js';
import { formatFromAccept, formatFromSuffix, type Format } from '../representation/formats.js';
import type { Scope, TenantScope } from '../storage/storage.js';
import { decodes, isFormBody, readBody } from './raw-body.js';
import { formatSuffixOf, rewriteUrl } from './format-suffix.js';
import { prefersExactCount } from './links.js';

export type Verb = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * What the request asks for, before access control says whose data it sees: a plain record, so
 * an operation runs from it (and a storage) without Fastify. Headers are read here, once.
 */
export interface Intent {
  readonly version: number;
  readonly format: Format;
  readonly suppress: boolean;
  /** The method carried out: the HTTP method, or the one `method` / X-HTTP-Method-Override names. */
  readonly method: Verb;
  readonly overridden: boolean;
  /**
   * An overridden GET: the query string carries the input fields, so the body rules check it, not the parameter check.
   */
  readonly fieldsInQuery: boolean;
  /** The routed path, without the query or a format suffix: `/v2/dogs/abc`. */
  readonly path: string;
  /** The URL as sent (format suffix and query included), which the links to other pages repeat. */
  readonly url: string;
  /** The path parameter `id` (`/dogs/:id`, `/owners/:id/dogs`), undefined on a path without one. */
  readonly id: string | undefined;
  readonly query: QueryParams;
  /** The fields sent: the body, or the query string of an overridden GET; read when first asked for. */
  readonly input: () => Readonly<Record<string, unknown>>;
  /** Whether the input is a JSON body (SPEC §1: its id sets are arrays), not a form or an overridden GET's query. */
  readonly jsonInput: () => boolean;
  readonly ifMatch: string | undefined;
  readonly ifNoneMatch: string | undefined;
  /** `Prefer: count=exact` (RFC 7240): the answer adds the total. */
  readonly exactCount: boolean;
  /** The Idempotency-Key header as sent (repeated, it is an array, which the stage refuses). */
  readonly idempotencyKey: string | string[] | undefined;
}

/**
 * An API request ready to run: its intent, and who sends it (the OAuth client) and whose data it
 * sees: one tenant's for every operation but the open one, which sees the public view.
 */
export interface ApiContext<S extends Scope = TenantScope> extends Intent {
  readonly clientId: string;
  readonly scope: S;
}

/** How an answer is rendered; known before anything else is checked, so errors render right too. */
export interface Rendering {
  readonly format: Format;
  readonly suppress: boolean;
}

const RENDERING = Symbol('rendering');
type WithRendering = FastifyRequest & { [RENDERING]?: Rendering };

/**
 * The format and suppression a request asks for, never throwing: an unknown suffix renders
 * JSON, an invalid suppress_response_codes does not suppress (their 400s come from parseIntent).
 */
export function renderingOf(request: FastifyRequest): Rendering {
  const cached = (request as WithRendering)[RENDERING];
  if (cached) return cached;
  const rendering = renderingFrom(request.raw, underApi(request.url) ? suppressOf(request) : undefined);
  (request as WithRendering)[RENDERING] = rendering;
  return rendering;
}

/**
 * The format and suppression of a request Node answers itself before routing (an Expect it cannot meet): its suffix,
 * found as rewriteUrl finds it (the request goes no further), and suppression from its query alone.
 */
export function renderingOfRaw(request: IncomingMessage): Rendering {
  rewriteUrl(request);
  const url = request.url ?? '/';
  return renderingFrom(request, underApi(url) ? queryOfUrl(url).suppress_response_codes : undefined);
}

/** Suppression applies to answers under /v<N>/ only, never to the portal or the infrastructure. */
function underApi(url: string): boolean {
  return url.charCodeAt(1) === 118; /* v */
}

/** The suffix's format, else Accept's, JSON for one that is not known; suppression when `suppression` says true. */
function renderingFrom(raw: IncomingMessage, suppression: unknown): Rendering {
  const suffix = formatSuffixOf(raw);
  let format: Format;
  try {
    format = suffix === undefined ? formatFromAccept(raw.headers.accept) : formatFromSuffix(suffix);
  } catch {
    // An unknown suffix's 400 answers in the format the path ends with (`/v2/dogs/a.b.json`, suffix `b.json`), else as
    // Accept asks (`/v2/dogs.yaml` with Accept: application/xml in XML).
    const last = suffix?.slice(suffix.lastIndexOf('.') + 1).toLowerCase();
    format = last === 'json' || last === 'xml' ? last : formatFromAccept(raw.headers.accept);
  }
  const suppress = suppression === true || (typeof suppression === 'string' && suppression.toLowerCase() === 'true');
  return { format, suppress };
}

/**
 * suppress_response_codes as the query gives it, else as a field of a POST or PUT body (SPEC §1: a body may carry the
 * control parameters; a JSON body may say true or false as booleans). Never throws: a body that does not parse gives
 * nothing here and its own 400 in its stage.
 */
function suppressOf(request: FastifyRequest): unknown {
  const fromQuery = queryOf(request).suppress_response_codes;
  if (fromQuery !== undefined || (request.method !== 'POST' && request.method !== 'PUT')) return fromQuery;
  try {
    return readBody(request)?.suppress_response_codes;
  } catch {
    return undefined;
  }
}

/**
 * The request's query. A URL whose path does not decode reaches the error handler before Fastify parses the query
 * (its onBadUrl), and its answer still honours suppress_response_codes: that query is parsed here.
 */
function queryOf(request: FastifyRequest): QueryParams {
  return (request.query as QueryParams | null) ?? queryOfUrl(request.url);
}

/** The query of a URL, parsed as Fastify parses it. */
function queryOfUrl(url: string): QueryParams {
  const at = url.indexOf('?');
  return at === -1 ? {} : (parseQuery(url.slice(at + 1)) as QueryParams);
}

/** An intent as parseIntent makes it: with room for who sends it, filled in once access passes. */
type Draft = {
  -readonly [K in keyof ApiContext<Scope>]: ApiContext<Scope>[K] | (K extends 'scope' | 'clientId' ? undefined : never);
};

/**
 * The context of a request that passed access control: its intent, completed in place. One object
 * per request, whose shape parseIntent fixed (scope and clientId included), rather than a second
 * one copied field by field: a spread (`{ ...intent, scope, clientId }`) went through V8's generic
 * copy (4% of GET one's CPU in a profile), and a copy of every field doubled what each request
 * allocates, which GC showed under load.
 */
export function contextOf<S extends Scope>(intent: Intent, scope: S, clientId: string): ApiContext<S> {
  const context = intent as Draft;
  context.scope = scope;
  context.clientId = clientId;
  return context as ApiContext<S>;
}

const OVERRIDES: Readonly<Record<string, Verb>> = { post: 'POST', put: 'PUT', delete: 'DELETE' };

/** Stages 1–3 of every API request: format, suppression, and the method to carry out; then the rest of the intent. */
export function parseIntent(request: FastifyRequest, version: number): Intent {
  const rendering = renderingOf(request);
  const suffix = formatSuffixOf(request.raw);
  if (suffix !== undefined) formatFromSuffix(suffix);
  const url = request.url;
  const queryAt = url.indexOf('?');
  // The query parser keeps a broken escape as its text (%FF searched for "%FF"); the path's is already a 1008.
  if (queryAt !== -1 && !decodes(url.slice(queryAt + 1))) {
    throw new ApiError(
      'requestMalformed',
      'The query string has a broken %-escape, or escaped bytes that are not UTF-8. Percent-encode each value as ' +
        'UTF-8 (a space as %20, é as %C3%A9).',
    );
  }
  const query = (request.query ?? {}) as QueryParams;
  // Given twice, a control parameter is the 2009 of any repeated parameter, not an invalid value of its own.
  single(query, 'suppress_response_codes');
  single(query, 'method');
  const suppressRaw = suppressOf(request);
  if (
    suppressRaw !== undefined &&
    typeof suppressRaw !== 'boolean' &&
    (typeof suppressRaw !== 'string' || !/^(true|false)$/i.test(suppressRaw))
  ) {
    // A JSON body may give an object whose toString is no function: String() of it throws, JSON shows it.
    const shown = typeof suppressRaw === 'string' ? suppressRaw : JSON.stringify(suppressRaw);
    throw new ApiError('suppressInvalid', `suppress_response_codes must be true or false, got "${shown}".`);
  }
  const httpMethod = request.method;
  const target = overrideOf(request, httpMethod, query);
  const overridden = target !== undefined;
  const fieldsInQuery = overridden && httpMethod === 'GET';
  const { headers } = request;
  const prefer = headers.prefer;
  const intent: Draft = {
    version,
    format: rendering.format,
    suppress: rendering.suppress,
    method: target ?? (httpMethod === 'HEAD' ? 'GET' : (httpMethod as Verb)),
    overridden,
    fieldsInQuery,
    path: queryAt === -1 ? url : url.slice(0, queryAt),
    url: (request.raw as WithOriginalUrl).originalUrl ?? url,
    id: (request.params as { id?: string }).id,
    query,
    input: fieldsInQuery
      ? () => query
      : httpMethod === 'GET' || httpMethod === 'HEAD'
        ? noInput
        : () => readBody(request) ?? {},
    jsonInput: fieldsInQuery || httpMethod === 'GET' || httpMethod === 'HEAD' ? no : () => !isFormBody(request),
    ifMatch: headers['if-match'],
    ifNoneMatch: headers['if-none-match'],
    exactCount: prefer !== undefined && prefersExactCount(prefer),
    idempotencyKey: headers['idempotency-key'],
    scope: undefined,
    clientId: undefined,
  };
  return intent;
}

/**
 * Fastify's preRouting keeps the URL as sent on the raw request before rewriteUrl cuts the suffix.
 * Its own `request.originalUrl` getter caches it in a new property of the request, a change of
 * the request's shape that cost GET one several per cent once it ran on every request.
 */
type WithOriginalUrl = FastifyRequest['raw'] & { originalUrl?: string };

/** A GET or HEAD reads no input: one shared function and value instead of a closure per request. */
const NO_INPUT: Readonly<Record<string, unknown>> = Object.freeze({});
const noInput = (): Readonly<Record<string, unknown>> => NO_INPUT;
const no = (): boolean => false;

/**
 * The method a GET or POST names instead of its own (SPEC §3), or undefined. Any other method
 * (HEAD, PUT, DELETE, …) carrying `method` or X-HTTP-Method-Override is refused, never ignored:
 * ignoring it let `DELETE ?method=bogus` delete. A POST body that does not parse names no
 * override here; the body stage answers it once the token has passed (SPEC §8).
 */
function overrideOf(request: FastifyRequest, httpMethod: string, query: QueryParams): Verb | undefined {
  const header = request.headers['x-http-method-override'];
  if (httpMethod !== 'GET' && httpMethod !== 'POST') {
    if (query.method === undefined && header === undefined) return undefined;
    throw new ApiError(
      'methodOverrideInvalid',
      `A method override (the method parameter or X-HTTP-Method-Override) applies only to a GET or a POST; this ` +
        `request is a ${httpMethod}. Send the method you mean as the request's own method, without the override.`,
    );
  }
  const named = namedOverride(request);
  if (named === undefined) return undefined;
  if (httpMethod === 'POST') checkOneOverride(request);
  const lower = typeof named === 'string' ? named.toLowerCase() : undefined;
  // Own properties only: `?method=constructor` must not find Object.prototype's.
  const target = lower !== undefined && Object.hasOwn(OVERRIDES, lower) ? OVERRIDES[lower] : undefined;
  if (!target) {
    // A JSON body may name an object whose toString is no function: String() of it throws, JSON shows it.
    const shown = typeof named === 'string' ? `"${named}"` : JSON.stringify(named);
    throw new ApiError(
      'methodOverrideInvalid',
      `The method override ${shown} is not one of post, put, delete. Send it as ?method=put (or the ` +
        `X-HTTP-Method-Override header on a POST).`,
    );
  }
  return target;
}

/**
 * What a GET or POST names as the method to carry out, checked or not: the query's `method`, else a POST body's
 * `method` field or its X-HTTP-Method-Override header. Never throws (a body that does not parse names nothing), so the
 * request counter of /metrics reads the same override after the answer.
 */
export function namedOverride(request: FastifyRequest): unknown {
  const named = (request.query as QueryParams | undefined)?.method;
  if (named !== undefined || request.method !== 'POST') return named;
  // The body's or else the header's: a body's `"method": null` names nothing.
  return postOverrides(request).find(([, value]) => value !== undefined && value !== null)?.[1];
}

/** Where a POST may name its override, in the order namedOverride reads them, each with its name for a message. */
function postOverrides(request: FastifyRequest): Array<[string, unknown]> {
  return [
    ['the method parameter', (request.query as QueryParams | undefined)?.method],
    ["the body's method field", bodyMethod(request)],
    ['X-HTTP-Method-Override', request.headers['x-http-method-override']],
  ];
}

/**
 * A POST may name its override in the query, its body and the header; two that name different methods are a 400, so
 * that a request meant as a PUT is never carried out as the DELETE another source names.
 */
function checkOneOverride(request: FastifyRequest): void {
  const given = postOverrides(request).filter(([, value]) => value !== undefined);
  const methods = new Set(given.map(([, value]) => (typeof value === 'string' ? value.toLowerCase() : value)));
  if (methods.size < 2) return;
  throw new ApiError(
    'methodOverrideInvalid',
    `The method override is named more than once, differently (${given
      .map(([where, value]) => `${where}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
      .join('; ')}). Name the method once.`,
  );
}

function bodyMethod(request: FastifyRequest): unknown {
  try {
    return readBody(request)?.method;
  } catch (error) {
    if (error instanceof ApiError) return undefined;
    throw error;
  }
}
