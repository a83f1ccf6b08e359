// The one error handler, and the 404 handler for paths outside every surface: every failure becomes a catalogue error
// in the request's format.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';
import { MissingReferences, StorageError, type StorageFailure } from '../storage/storage-error.js';
import type { DeprecationStage } from './deprecation.js';
import { allowAnyOrigin } from './cors.js';
import { sendError } from './respond.js';
import { unmatchedPathError } from './versions.js';

/** Fastify's own errors, mapped onto the catalogue (and so onto the eight allowed statuses). */
const FRAMEWORK_ERRORS: Readonly<Record<string, (error: FastifyError) => ApiError>> = {
  FST_ERR_CTP_BODY_TOO_LARGE: () =>
    new ApiError(
      'bodyTooLarge',
      'The request body is larger than 16 KiB, the most the API accepts. Send fewer or shorter fields.',
    ),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () =>
    new ApiError(
      'mediaTypeUnsupported',
      'The body has a Content-Type the API does not read. Send application/json or application/x-www-form-urlencoded.',
    ),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () =>
    new ApiError('bodyMalformed', 'The body is shorter or longer than its Content-Length header says.'),
  FST_ERR_BAD_URL: () =>
    new ApiError(
      'requestMalformed',
      'The URL could not be decoded (a broken %-escape?). Percent-encode the path properly.',
    ),
};

/**
 * The portal's answer to a path of its own that it does not have (an HTML 404 page with its security headers), and
 * which requests those are, for the answers given outside its surface: a portal on a host of its own shares `/` with
 * the API (so the root's not-found handler gets its unknown paths), and a URL that does not decode is answered before
 * any routing.
 */
export interface PortalFallback {
  owns(request: FastifyRequest): boolean;
  notFound(request: FastifyRequest, reply: FastifyReply): FastifyReply;
  /**
   * A failure of a portal request a browser sent (a form body too large, not UTF-8): the error as an HTML page, or
   * undefined when the request asked for JSON (sign-up's API clients get the catalogue's shape).
   */
  failed(request: FastifyRequest, reply: FastifyReply, error: ApiError): FastifyReply | undefined;
}

export function registerErrorHandlers(app: FastifyInstance, portalUrl: string, portal?: PortalFallback): void {
  const moreInfoBase = `${portalUrl}/errors`;

  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    // The connection is gone (a broken body already answered by the protocol-error handler, or a
    // client that hung up mid-body): no answer can leave, and nothing failed on the server's side.
    if (request.raw.destroyed && reply.raw.destroyed) {
      request.log.info({ err: error }, 'request abandoned: the connection closed before the body arrived');
      return reply.send();
    }
    const failure = toApiError(error, request);
    if (portal?.owns(request)) {
      const page = portal.failed(request, reply, failure);
      if (page) return page;
    }
    return sendError(request, reply, failure, moreInfoBase);
  });

  // A path outside every surface; the API and the portal answer their own unknown paths. A catalogue error here is
  // readable cross-origin like the API's (the 1000 that shows the versioned path, a 1001): no page answers here.
  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    if (portal?.owns(request)) return portal.notFound(request, reply);
    // As sent: `/dogs.xml` is shown with its suffix, which rewriteUrl cut for the answer's format.
    const pathname = request.originalUrl.split('?')[0] ?? '/';
    return sendError(request, allowAnyOrigin(reply), unmatchedPathError(pathname, portalUrl), moreInfoBase);
  });
}

/**
 * Fastify's frameworkErrors option: errors raised before routing (a URL that does not decode)
 * get the API's shape too. No hook runs for them, so the deprecation stage is run here.
 */
export function frameworkErrorHandler(portalUrl: string, deprecation?: DeprecationStage, portal?: PortalFallback) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    reply.header('x-request-id', request.id);
    // A portal path that does not decode is a portal path that does not exist: its 404 page.
    if (error.code === 'FST_ERR_BAD_URL' && portal?.owns(request)) {
      portal.notFound(request, reply);
      return;
    }
    deprecation?.(request, reply);
    void sendError(request, reply, toApiError(error, request), `${portalUrl}/errors`);
  };
}

/**
 * A failure of the database itself (each backend classifies its driver's errors), as opposed to a
 * bug: retryable 9002; a busy database says when to try again.
 */
function storageFailure(error: StorageError, requestId: string): ApiError {
  if (error.kind === 'busy') {
    const message = `The database is busy right now. Retry in a second; quote the request id ${requestId} if it persists.`;
    return new ApiError('databaseUnavailable', message, { 'retry-after': '1' });
  }
  return new ApiError(
    'databaseUnavailable',
    `The service cannot reach its database right now. Retry later; quote the request id ${requestId} if it persists.`,
  );
}

/** References to ids that do not exist in the caller's tenant: the same words on every backend. */
function missingReferencesError({ field, target, ids }: MissingReferences): ApiError {
  const one = ids.length === 1;
  const list = ids.map((id) => `"${id}"`).join(', ');
  return new ApiError(
    'referenceNotFound',
    `The field "${field}" refers to ${target} ${list}, which ${one ? 'does' : 'do'} not exist or ` +
      `${one ? 'is' : 'are'} not visible to you. Create ${one ? 'it' : 'them'} first or correct the ` +
      `${one ? 'id' : 'ids'}.`,
  );
}

/** The storage's failures, the one place they meet the catalogue. */
function fromStorage(error: StorageFailure, request: FastifyRequest): ApiError {
  if (error instanceof MissingReferences) return missingReferencesError(error);
  request.log.error({ err: error }, `database ${error.kind}`);
  return storageFailure(error, request.id);
}

/** Any failure as a catalogue error (exported for the OAuth endpoints, which render it in RFC 6749's shape). */
export function toApiError(error: FastifyError, request: FastifyRequest): ApiError {
  if (error instanceof ApiError) return error;
  const mapped = error.code ? FRAMEWORK_ERRORS[error.code] : undefined;
  if (mapped) return mapped(error);
  if (error instanceof StorageError || error instanceof MissingReferences) return fromStorage(error, request);
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    request.log.info({ err: error }, 'client error from the framework');
    return new ApiError('requestMalformed', `The request could not be read: ${error.message}.`);
  }
  request.log.error({ err: error }, 'request failed');
  return new ApiError(
    'internal',
    `The service failed to answer this request. Quote the request id ${request.id} if you report it; retrying ` +
      `later may work.`,
  );
}
