// Node's own protocol errors (a request that is not valid HTTP, an Expect it cannot meet) answered in the catalogue's
// shape.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { ApiError, type ErrorName } from '../errors.js';
import { MEDIA_TYPES, type Format } from '../representation/formats.js';
import { renderingOfRaw, type Rendering } from './context.js';
import { errorText } from './respond.js';
import { requestIdOf } from './request-id.js';

/** The parser's error codes (llhttp's HPE_*) that have an entry of their own; any other is 1008. */
const PARSER_ERRORS: Readonly<Record<string, { name: ErrorName; message: string }>> = {
  HPE_HEADER_OVERFLOW: {
    name: 'headersTooLarge',
    message:
      'The request line and headers are larger than 16 KiB. Shorten the URL (a long fields selection or filter ' +
      'list?) or the headers.',
  },
  HPE_INVALID_METHOD: {
    name: 'methodTokenInvalid',
    message:
      'The request line does not start with an HTTP method the service knows. Use GET, POST, PUT or DELETE, in capitals.',
  },
  HPE_INVALID_URL: {
    name: 'requestTargetInvalid',
    message:
      'The URL has characters that must be percent-encoded (non-ASCII letters, spaces, control characters): é is ' +
      '%C3%A9.',
  },
  HPE_INVALID_CHUNK_SIZE: {
    name: 'bodyFramingInvalid',
    message:
      'The chunked body has a chunk size that is not a hexadecimal number. Send correct chunked encoding, or a ' +
      'Content-Length.',
  },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: {
    name: 'bodyFramingInvalid',
    message: 'The chunked body has chunk extensions too large to read. Send the chunks without extensions.',
  },
  HPE_INVALID_TRANSFER_ENCODING: {
    name: 'bodyFramingInvalid',
    message:
      'The Transfer-Encoding is not chunked, the one encoding of a request body the service reads (or chunked is not ' +
      'its last coding). Send the body chunked, or with a Content-Length.',
  },
  // llhttp: "Duplicate Content-Length".
  HPE_UNEXPECTED_CONTENT_LENGTH: {
    name: 'bodyFramingInvalid',
    message: "The request has more than one Content-Length header. Send one, with the body's length in bytes.",
  },
  // llhttp: "Invalid character in Content-Length" (or a body framed both ways, below).
  HPE_INVALID_CONTENT_LENGTH: {
    name: 'bodyFramingInvalid',
    message: 'The Content-Length header is not one whole number of bytes.',
  },
};

/** A body framed both ways: llhttp reports it as an invalid Content-Length or Transfer-Encoding, by header order. */
const BESIDE_TRANSFER_ENCODING = 'The body has both a Content-Length and a Transfer-Encoding. Send one of them.';

/**
 * The answer to a protocol error: a 400 in the catalogue's shape that closes the connection; in JSON, or as the request
 * asks when there is one to read (`rendering`).
 */
function protocolAnswer(
  error: ApiError,
  requestId: string,
  moreInfoBase: string,
  rendering: Rendering = { format: 'json', suppress: false },
): { head: Record<string, string | number>; body: string } {
  const body = errorText(error, moreInfoBase, rendering);
  return {
    head: {
      'content-type': MEDIA_TYPES[rendering.format],
      'content-length': Buffer.byteLength(body),
      'x-request-id': requestId,
      // RFC 9110 §6.6.1: an origin server with a clock sends Date, as Node does on every other answer.
      date: new Date().toUTCString(),
      'cache-control': 'no-store',
      connection: 'close',
    },
    body,
  };
}

/**
 * The answer's bytes for a socket that has no response object. A HEAD request's answer has no body (RFC 9110 §9.3.2);
 * its Content-Length still says what a GET would have received.
 */
function rawAnswer({ head, body }: { head: Record<string, string | number>; body: string }, headOnly: boolean): string {
  const lines = Object.entries(head)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return `HTTP/1.1 400 Bad Request\r\n${lines}\r\n${headOnly ? '' : body}`;
}

/**
 * Whether the request the parser refused is a HEAD whose own head broke (too large, a bad header). Node keeps the bytes
 * it was parsing as the error's rawPacket and how far it got as bytesParsed; a packet that holds a complete head
 * before that point broke in a later request or a body, whose method is not known, so that answer keeps its body.
 */
function isHead(error: Error & { rawPacket?: unknown; bytesParsed?: unknown }): boolean {
  const raw = error.rawPacket;
  if (!Buffer.isBuffer(raw) || raw.subarray(0, 5).toString('latin1') !== 'HEAD ') return false;
  const parsed = typeof error.bytesParsed === 'number' ? error.bytesParsed : raw.length;
  return raw.subarray(0, parsed).indexOf('\r\n\r\n') === -1;
}

/**
 * The format a refused request asked for, as far as the bytes Node kept of it (rawPacket) tell: its request target and
 * Accept header, read as any request's are (renderingOfRaw: the target's format suffix, else Accept); JSON when they
 * tell nothing (a broken chunk of a body comes without its head).
 */
function formatOfPacket(error: Error & { rawPacket?: unknown }): Format {
  const raw = error.rawPacket;
  if (!Buffer.isBuffer(raw)) return 'json';
  const packet = raw.toString('latin1');
  const end = packet.indexOf('\r\n\r\n');
  const head = end === -1 ? packet : packet.slice(0, end);
  const url = /^[!-~]+ (\S+)/.exec(head)?.[1];
  if (url === undefined) return 'json';
  const accept = /\r\naccept:[ \t]*([^\r\n]*)/i.exec(head)?.[1];
  const request = { url, headers: accept === undefined ? {} : { accept } } as IncomingMessage;
  return renderingOfRaw(request).format;
}

function parserError(error: Error & { code?: string; reason?: unknown }): ApiError {
  const known = error.code ? PARSER_ERRORS[error.code] : undefined;
  if (known) {
    // llhttp names the two headers of a body framed both ways as "X can't be present with Y", under either code.
    const beside = String(error.reason).includes("can't be present with");
    return new ApiError(known.name, beside ? BESIDE_TRANSFER_ENCODING : known.message);
  }
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return new ApiError(
      'requestMalformed',
      'The request did not arrive completely in the time the service waits for one. Send it again, all at once.',
    );
  const reason = error.message.replace(/^Parse Error: /, '');
  return new ApiError(
    'requestMalformed',
    `The request could not be read as HTTP (${reason}). Check the request line and the headers.`,
  );
}

/**
 * Fastify's clientErrorHandler (Node's 'clientError' event): there is no request, so the answer is
 * written to the socket itself — only while no answer to a request of this connection has begun
 * (a broken chunk can arrive while Fastify still waits for the body; then nothing is sent yet).
 */
export function clientErrorHandler(portalUrl: string) {
  const moreInfoBase = `${portalUrl}/errors`;
  return function answerClientError(this: FastifyInstance, error: Error & { code?: string }, socket: Socket): void {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const pending = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
    if (socket.writable && !pending?.headersSent) {
      const requestId = randomUUID();
      const apiError = parserError(error);
      // The error's rawPacket (up to the whole oversized head) stays out of the log.
      this.log.info(
        { requestId, parserError: error.code, reason: error.message, code: apiError.code },
        'request rejected by the HTTP parser',
      );
      const rendering = { format: formatOfPacket(error), suppress: false };
      socket.write(rawAnswer(protocolAnswer(apiError, requestId, moreInfoBase, rendering), isHead(error)));
    }
    socket.destroy();
  };
}

/** Node's 'checkExpectation' event: an Expect other than 100-continue, which Node would answer 417. */
export function expectationHandler(app: FastifyInstance, portalUrl: string) {
  const moreInfoBase = `${portalUrl}/errors`;
  return (request: IncomingMessage, response: ServerResponse): void => {
    const requestId = requestIdOf(request);
    const apiError = new ApiError(
      'expectationUnsupported',
      `The Expect header "${String(request.headers.expect).slice(0, 100)}" is not one the service meets: only ` +
        `100-continue is. Remove the header.`,
    );
    app.log.info({ requestId, expect: request.headers.expect }, 'request with an unsupported Expect refused');
    // The request was read whole: its format and suppress_response_codes are honoured, as on any API answer.
    const rendering = renderingOfRaw(request);
    const { head, body } = protocolAnswer(apiError, requestId, moreInfoBase, rendering);
    response.writeHead(rendering.suppress ? 200 : 400, head).end(body);
  };
}

/**
 * Node's 'connect' event: a CONNECT asks for a proxy's tunnel, and Node closes the connection without an answer when
 * nobody listens for it; the service answers it like any method it does not offer.
 */
export function connectHandler(app: FastifyInstance, portalUrl: string) {
  const moreInfoBase = `${portalUrl}/errors`;
  return (request: IncomingMessage, socket: Socket): void => {
    const requestId = requestIdOf(request);
    const apiError = new ApiError(
      'methodTokenInvalid',
      'CONNECT asks for a tunnel through a proxy, and this service is not one. Use GET, POST, PUT or DELETE.',
    );
    app.log.info({ requestId }, 'CONNECT refused');
    socket.end(rawAnswer(protocolAnswer(apiError, requestId, moreInfoBase), false));
  };
}
