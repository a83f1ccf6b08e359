// Compression (SPEC §13): text answers over 1 KiB leave brotli- or gzip-encoded as Accept-Encoding asks, with their
// own ETag and Vary: Accept-Encoding; COMPRESSION=off leaves it to a proxy in front.
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';
import { codedTag } from './conditional.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** COMPRESSION (SPEC §11): whether this node compresses its answers. */
    readonly compression: boolean;
  }
}

/** SPEC §13: answers of 1 KiB or less leave as they are. */
const THRESHOLD = 1024;

/** A UTF-16 code unit is at most 3 bytes of UTF-8: a string this short is within the threshold without counting. */
const SURELY_SMALL = THRESHOLD / 3;

/** Text answers: JSON and XML (and their +json/+xml kinds, SVG), HTML and other text/*, JavaScript. */
const COMPRESSIBLE = /^(?:text\/|application\/(?:json|xml|javascript)\b|[^;]*\+(?:json|xml)\b)/i;

type Coding = 'br' | 'gzip';

/**
 * Levels for an API server, which compresses each answer as it leaves, not once ahead like a static file (measured in
 * docs/decisions.md): gzip 3 costs what gzip 1 does and is smaller; brotli 2 costs 0.8-1.25 times gzip 3 and is 3-10 %
 * smaller, so brotli wins a tie of q-values.
 */
const BROTLI_QUALITY = 2;
const GZIP_LEVEL = 3;

/**
 * The API's answers compress inline, in sendOutcome and sendError (sendText), so that its routes have no onSend hook:
 * an answer to a client that asked for no compression costs a length check there. Every other route (the portal, the
 * OpenAPI documents, OAuth, the infrastructure) gets an onSend hook.
 */
export function registerCompression(app: FastifyInstance, on: boolean): void {
  app.decorate('compression', on);
  if (!on) return;
  app.addHook('onRoute', (route) => {
    // An API route's config names its endpoint (http/endpoint.ts).
    if ((route.config as { endpoint?: unknown } | undefined)?.endpoint !== undefined) return;
    const hooks = route.onSend;
    route.onSend =
      hooks === undefined ? [compressAnswer] : [...(Array.isArray(hooks) ? hooks : [hooks]), compressAnswer];
  });
}

/** Sends an API answer (JSON or XML): compressed when over 1 KiB and the client asks. */
export function sendText(request: FastifyRequest, reply: FastifyReply, body: string): FastifyReply {
  if (body.length <= SURELY_SMALL || !request.server.compression || Buffer.byteLength(body) <= THRESHOLD)
    return reply.send(body);
  return reply.send(encoded(request, reply, body));
}

/**
 * A 304 for the answer `body` would be (RFC 9110 §15.4.5): the ETag and Vary that answer would carry, compressed or
 * not for this request.
 */
export function sendNotModified(request: FastifyRequest, reply: FastifyReply, body: string): FastifyReply {
  reply.code(304);
  if (body.length > SURELY_SMALL && request.server.compression && Buffer.byteLength(body) > THRESHOLD) {
    addVary(reply);
    const coding = codingFor(request);
    const etag = reply.getHeader('etag');
    if (coding !== undefined && typeof etag === 'string') reply.header('etag', codedTag(etag, coding));
  }
  return reply.send();
}

const compressAnswer: onSendHookHandler = (request, reply, payload, done) => {
  done(null, isCompressible(reply, payload) ? encoded(request, reply, payload) : payload);
};

/** Over the threshold, a text type, and not encoded already. */
function isCompressible(reply: FastifyReply, payload: unknown): payload is string | Buffer {
  if (typeof payload === 'string') {
    if (payload.length <= SURELY_SMALL || Buffer.byteLength(payload) <= THRESHOLD) return false;
  } else if (!Buffer.isBuffer(payload) || payload.length <= THRESHOLD) return false;
  const type = reply.getHeader('content-type');
  return typeof type === 'string' && COMPRESSIBLE.test(type) && !reply.hasHeader('content-encoding');
}

/** A compressible answer: it varies on Accept-Encoding, and leaves in the coding the client prefers, if any. */
function encoded(request: FastifyRequest, reply: FastifyReply, payload: string | Buffer): string | Buffer {
  addVary(reply);
  const coding = codingFor(request);
  if (coding === undefined) return payload;
  const etag = reply.getHeader('etag');
  if (typeof etag === 'string') reply.header('etag', codedTag(etag, coding));
  reply.header('content-encoding', coding);
  if (coding === 'gzip') return zlib.gzipSync(payload, { level: GZIP_LEVEL });
  return zlib.brotliCompressSync(payload, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(payload),
    },
  });
}

function addVary(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  reply.header('vary', vary === undefined ? 'Accept-Encoding' : `${String(vary)}, Accept-Encoding`);
}

function codingFor(request: FastifyRequest): Coding | undefined {
  const accepted = request.headers['accept-encoding'];
  return accepted === undefined ? undefined : preferredCoding(accepted);
}

// Clients send the same header on every request: the last one's answer is kept.
let lastHeader: string | undefined;
let lastCoding: Coding | undefined;

/**
 * The coding Accept-Encoding prefers (RFC 9110 §12.5.3): the highest q-value above 0, brotli on a tie; `*` stands for
 * any coding not named; none (identity) when identity is named with a higher q-value or nothing else is acceptable.
 */
function preferredCoding(header: string): Coding | undefined {
  if (header === lastHeader) return lastCoding;
  const q = { br: -1, gzip: -1, identity: -1, '*': -1 };
  for (const entry of header.split(',')) {
    const [name = '', ...parameters] = entry.split(';');
    const coding = name.trim().toLowerCase();
    const key = coding === 'x-gzip' ? 'gzip' : coding;
    if (key === 'br' || key === 'gzip' || key === 'identity' || key === '*') q[key] = qualityOf(parameters);
  }
  const br = q.br < 0 ? q['*'] : q.br;
  const gzip = q.gzip < 0 ? q['*'] : q.gzip;
  const identity = q.identity < 0 ? q['*'] : q.identity;
  const best = Math.max(br, gzip);
  const coding: Coding | undefined = best <= 0 || identity > best ? undefined : br === best ? 'br' : 'gzip';
  lastHeader = header;
  lastCoding = coding;
  return coding;
}

/** The `q` parameter (1 when absent); a malformed one makes the entry unacceptable rather than an error. */
function qualityOf(parameters: string[]): number {
  for (const parameter of parameters) {
    const [name = '', value = ''] = parameter.split('=');
    if (name.trim().toLowerCase() !== 'q') continue;
    const text = value.trim();
    return /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.test(text) ? Number(text) : 0;
  }
  return 1;
}
