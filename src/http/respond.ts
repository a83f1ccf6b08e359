// Shapes the HTTP answer of an API request: status (or its suppression), headers and the serialized body.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiError } from '../errors.js';
import { type ApiStatus } from '../errors.js';
import { serialize, type Body, type Document } from '../representation/document.js';
import { MEDIA_TYPES } from '../representation/formats.js';
import { sendNotModified, sendText } from './compression.js';
import { etagOf, noneMatch } from './conditional.js';
import { allowAnyOrigin, isCorsRoute } from './cors.js';
import { renderingOf, type Rendering } from './context.js';
import { noteError } from './request-log-notes.js';

/** What an operation produced: the status, the document (none for a delete), extra headers. */
export interface Outcome {
  readonly status: 200 | 201;
  readonly document?: Body;
  readonly headers?: Readonly<Record<string, string>>;
  /** A replay of a stored answer (Idempotency-Key). */
  readonly replayed?: boolean;
}

/**
 * Sends an outcome. A read (its `cacheControl` given) gets that Cache-Control and an ETag, and If-None-Match may turn
 * it into a 304 without a body — or, with suppressed codes, into a 200 with the full body.
 */
export function sendOutcome(
  request: FastifyRequest,
  reply: FastifyReply,
  outcome: Outcome,
  cacheControl: string | undefined,
): FastifyReply {
  const { format, suppress } = renderingOf(request);
  reply.code(suppress ? 200 : outcome.status);
  reply.header('vary', 'Accept');
  if (outcome.headers) reply.headers(outcome.headers);
  if (outcome.replayed) reply.header('idempotent-replayed', 'true');
  if (!outcome.document) return reply.send();
  const body = serialize(format, outcome.document);
  if (cacheControl !== undefined) {
    const etag = etagOf(body);
    reply.header('etag', etag).header('cache-control', cacheControl);
    if (!suppress && !noneMatch(request.headers['if-none-match'], etag)) return sendNotModified(request, reply, body);
  }
  reply.header('content-type', MEDIA_TYPES[format]);
  return sendText(request, reply, body);
}

/** Renders an error: the envelope of SPEC §2 in the request's format, its status or a suppressed 200. */
export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  error: ApiError,
  moreInfoBase: string,
): FastifyReply {
  const rendering = renderingOf(request);
  const { format, suppress } = rendering;
  noteError(request, error);
  const status: ApiStatus = error.status;
  reply.code(suppress ? 200 : status);
  reply.header('vary', 'Accept');
  // An error says something of this request only (a 401, a 429): no cache may keep it (docs/decisions.md).
  reply.header('cache-control', 'no-store');
  // Errors raised before the handler (a body that does not parse) are readable cross-origin too.
  if (isCorsRoute(request)) allowAnyOrigin(reply);
  reply.headers(error.headers);
  reply.header('content-type', MEDIA_TYPES[format]);
  return sendText(request, reply, errorText(error, moreInfoBase, rendering));
}

/** The error envelope of SPEC §2 as text in `format`: `response_code` first when suppressed. */
export function errorText(error: ApiError, moreInfoBase: string, { format, suppress }: Rendering): string {
  const body: Document = {};
  if (suppress) body.response_code = String(error.status);
  body.message = error.message;
  body.more_info = `${moreInfoBase}/${error.code}`;
  body.code = error.code;
  return serialize(format, format === 'xml' ? { error: body } : body);
}
