// The one error handler, and the 404 handler for paths outside every surface: every failure becomes a catalogue error
// in the request's format.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';
import { MissingReferences, StorageError, type StorageFailure } from '../storage/storage-error.js';
import type { DeprecationStage } from './deprecation.js';
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

export function registerErrorHandlers(app: FastifyInstance, portalUrl: string): void {
  const moreInfoBase = `${portalUrl}/errors`;

  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    // The connection is gone (a broken body already answered by the protocol-error handler, or a
    // client that hung up mid-body): no answer can leave, and nothing failed on the server's side.
    if (request.raw.destroyed && reply.raw.destroyed) {
      request.log.info({ err: error }, 'request abandoned: the connection closed before the body arrived');
      return reply.send();
    }
    return sendError(request, reply, toApiError(error, request), moreInfoBase);
  });

  // A path outside every surface; the API and the portal answer their own unknown paths.
  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    return sendError(request, reply, unmatchedPathError(pathname, portalUrl), moreInfoBase);
  });
}

/**
 * Fastify's frameworkErrors option: errors raised before routing (a URL that does not decode)
 * get the API's shape too. No hook runs for them, so the deprecation stage is run here.
 */
export function frameworkErrorHandler(portalUrl: string, deprecation?: DeprecationStage) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    reply.header('x-request-id', request.id);
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
