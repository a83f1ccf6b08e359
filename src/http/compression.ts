// Compression (SPEC §13): text answers over 1 KiB leave brotli- or gzip-encoded as Accept-Encoding asks, with their
// own ETag and Vary: Accept-Encoding; COMPRESSION=off registers nothing and leaves it to a proxy in front.
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { codedTag } from './conditional.js';

/** SPEC §13: answers of 1 KiB or less leave as they are (a few hundred bytes saved cost more than they gain). */
const THRESHOLD = 1024;

/** A UTF-16 code unit is at most 3 bytes of UTF-8: a string this short is within the threshold without counting. */
const SURELY_SMALL = THRESHOLD / 3;

/** Text answers: JSON and XML (and their +json/+xml kinds, SVG), HTML and other text/*, JavaScript. */
const COMPRESSIBLE = /^(?:text\/|application\/(?:json|xml|javascript)\b|[^;]*\+(?:json|xml)\b)/i;

type Coding = 'br' | 'gzip';

/**
 * Levels for an API server, where every answer is compressed as it leaves, not once ahead like a static file
 * (measured in docs/decisions.md): brotli quality 3 and gzip level 3 cost about the same per answer (about 80 µs for
 * a page of 100 dogs), and brotli's answer is 5-10 % smaller, so brotli wins a tie of q-values.
 */
const BROTLI_QUALITY = 3;
const GZIP_LEVEL = 3;

/** Registers the onSend hook of every route when compression is on (SPEC §11 `COMPRESSION`). */
export function registerCompression(app: FastifyInstance, on: boolean): void {
  if (on) app.addHook('onSend', compressAnswer);
}

/**
 * Without Accept-Encoding (what wrk and most API clients send) an answer costs a size check here and, over 1 KiB, a
 * type check and the Vary header: Vary goes on every answer that would be compressed had the client asked.
 */
function compressAnswer(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (error: null, payload: unknown) => void,
): void {
  if (!isCompressible(reply, payload)) {
    if (reply.statusCode === 304) tagNotModified(request, reply);
    done(null, payload);
    return;
  }
  addVary(reply);
  const accepted = request.headers['accept-encoding'];
  const coding = accepted === undefined ? undefined : preferredCoding(accepted);
  if (coding === undefined) {
    done(null, payload);
    return;
  }
  const etag = reply.getHeader('etag');
  if (typeof etag === 'string') reply.header('etag', codedTag(etag, coding));
  reply.header('content-encoding', coding);
  done(null, encode(coding, payload));
}

/** Over the threshold, a text type, and not encoded already. */
function isCompressible(reply: FastifyReply, payload: unknown): payload is string | Buffer {
  if (typeof payload === 'string') {
    if (payload.length <= SURELY_SMALL || Buffer.byteLength(payload) <= THRESHOLD) return false;
  } else if (!Buffer.isBuffer(payload) || payload.length <= THRESHOLD) return false;
  const type = reply.getHeader('content-type');
  return typeof type === 'string' && COMPRESSIBLE.test(type) && !reply.hasHeader('content-encoding');
}

/**
 * A 304 has no body to measure: it names the compressed answer (its ETag and Vary, as RFC 9110 §15.4.5 asks) when
 * the tag that matched is the one of the coding this request would get, which only a compressed answer carried.
 */
function tagNotModified(request: FastifyRequest, reply: FastifyReply): void {
  const accepted = request.headers['accept-encoding'];
  const sent = request.headers['if-none-match'];
  const etag = reply.getHeader('etag');
  if (accepted === undefined || sent === undefined || typeof etag !== 'string') return;
  const coding = preferredCoding(accepted);
  if (coding === undefined) return;
  const coded = codedTag(etag, coding);
  if (!sent.includes(coded)) return;
  reply.header('etag', coded);
  addVary(reply);
}

function addVary(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  reply.header('vary', vary === undefined ? 'Accept-Encoding' : `${String(vary)}, Accept-Encoding`);
}

function encode(coding: Coding, payload: string | Buffer): Buffer {
  if (coding === 'gzip') return zlib.gzipSync(payload, { level: GZIP_LEVEL });
  return zlib.brotliCompressSync(payload, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(payload),
    },
  });
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
