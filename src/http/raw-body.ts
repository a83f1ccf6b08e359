// Reads a request body as the API accepts it: JSON (an object) or form fields, at most 16 KiB.
import { isUtf8 } from 'node:buffer';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parse as parseForm } from 'fast-querystring';
import { ApiError } from '../errors.js';

export const BODY_LIMIT = 16 * 1024;

/** What the catch-all content parser keeps: the bytes and their media type, parsed later in order. */
interface RawBody {
  readonly bytes: Buffer;
  readonly mediaType: string;
  /** The body's Content-Encoding, lower-cased; undefined without one (or `identity`). */
  readonly coding?: string;
  /** The Content-Type's charset, lower-cased and unquoted; undefined without one. */
  readonly charset?: string;
}

/** The charsets a body is read in: UTF-8, and ASCII, which is the same bytes. */
const READ_CHARSETS: ReadonlySet<string> = new Set(['utf-8', 'utf8', 'us-ascii']);

/** The charset parameter of a Content-Type, lower-cased and unquoted. */
function charsetOf(contentType: string): string | undefined {
  const match = /;\s*charset\s*=\s*("?)([^";\s]*)\1/i.exec(contentType);
  return match ? match[2]!.toLowerCase() : undefined;
}

const PARSED = Symbol('parsedBody');
type WithParsed = FastifyRequest & { [PARSED]?: Record<string, unknown> | undefined };

/**
 * Replaces Fastify's parsers with one that only buffers (up to BODY_LIMIT): parsing happens in
 * the request's own stages, after the method is known (SPEC §8, order of checks).
 */
export function registerRawBody(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (request, bytes, done) => {
    const contentType = request.headers['content-type'] ?? '';
    const mediaType = contentType.split(';')[0]!.trim().toLowerCase();
    const coding = request.headers['content-encoding']?.trim().toLowerCase();
    const coded = coding !== undefined && coding !== '' && coding !== 'identity';
    const charset = charsetOf(contentType);
    done(null, {
      bytes: bytes as Buffer,
      mediaType,
      ...(coded && { coding }),
      ...(charset !== undefined && { charset }),
    } satisfies RawBody);
  });
}

/** Whether the request's body is a form (its media type as the parser took it: any case, parameters dropped). */
export function isFormBody(request: FastifyRequest): boolean {
  return (request.body as RawBody | undefined)?.mediaType === 'application/x-www-form-urlencoded';
}

/** The body's fields, or undefined when there is no body. */
export function readBody(request: FastifyRequest): Record<string, unknown> | undefined {
  const holder = request as WithParsed;
  if (PARSED in holder) return holder[PARSED];
  const parsed = parse(request.body as RawBody | undefined);
  holder[PARSED] = parsed;
  return parsed;
}

function parse(raw: RawBody | undefined): Record<string, unknown> | undefined {
  if (!raw || raw.bytes.length === 0) return undefined;
  if (raw.coding !== undefined) {
    // Read as it is, a gzip body failed as "not UTF-8", and a plain one labelled gzip passed.
    throw new ApiError(
      'mediaTypeUnsupported',
      `The body has Content-Encoding ${raw.coding.slice(0, 40)}; the API reads bodies without a content coding. ` +
        'Send it uncompressed, without the header (a body is at most 16 KiB).',
    );
  }
  if (raw.mediaType === 'application/x-www-form-urlencoded') {
    const text = utf8Of(raw, 'form');
    if (!decodes(text)) {
      throw new ApiError(
        'bodyMalformed',
        'The form body has a broken %-escape, or escaped bytes that are not UTF-8. Percent-encode each value as ' +
          // ASCII only: the OAuth endpoints' error_description may carry no other character (RFC 6749 §5.2).
          'UTF-8 (a space as %20 or +, an e with an acute accent as %C3%A9).',
      );
    }
    return parseForm(text) as Record<string, unknown>;
  }
  // Only application/json (SPEC §4: another media type is a 400), not its +json kinds: a client that sends
  // merge-patch+json means a semantics the API does not offer.
  if (raw.mediaType === 'application/json') {
    const text = utf8Of(raw, 'JSON');
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new ApiError(
        'bodyMalformed',
        `The JSON body does not parse (${(error as Error).message}). Send one JSON object, such as {"name": "Rex"}.`,
      );
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new ApiError(
        'bodyMalformed',
        'The JSON body must be one object, such as {"name": "Rex"}, not a list or a single value.',
      );
    }
    return value as Record<string, unknown>;
  }
  const named = raw.mediaType === '' ? 'no Content-Type' : `Content-Type ${raw.mediaType}`;
  throw new ApiError(
    'mediaTypeUnsupported',
    `The body has ${named}. Send application/json or application/x-www-form-urlencoded.`,
  );
}

/**
 * The body as text. JSON and forms are UTF-8 (RFC 8259 §8.1, the URL standard); bytes that are not were replaced by
 * U+FFFD without a word, and a client learnt nothing of its broken encoding. A body labelled with another charset is
 * refused as such, whatever its bytes.
 */
function utf8Of({ bytes, charset }: RawBody, kind: 'JSON' | 'form'): string {
  if (charset !== undefined && !READ_CHARSETS.has(charset)) {
    // Read as UTF-8 anyway, a body the client encoded otherwise would have been taken for other text.
    throw new ApiError(
      'mediaTypeUnsupported',
      `The body is labelled charset=${charset.slice(0, 40)}; the API reads bodies as UTF-8. Send it encoded as ` +
        'UTF-8, with charset=utf-8 or no charset.',
    );
  }
  if (!isUtf8(bytes)) {
    throw new ApiError(
      'bodyMalformed',
      `The ${kind} body is not valid UTF-8. Encode the text as UTF-8 (a Latin-1 or Windows-1252 body is not read).`,
    );
  }
  return bytes.toString('utf8');
}

/** Whether %-escaped text decodes: every % starts two hex digits, and the escaped bytes are UTF-8. */
export function decodes(text: string): boolean {
  if (!text.includes('%')) return true;
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}
