// What the request log learns of a request on its way (who made it, which catalogue error it got), noted on the
// request where the access stage and sendError know it already, so the onResponse hook looks nothing up again.
import type { FastifyRequest } from 'fastify';
import type { ApiError } from '../errors.js';
import type { Caller } from '../storage/request-log-records.js';

const CALLER = Symbol('caller');
const ERROR = Symbol('apiError');

type Noted = FastifyRequest & { [CALLER]?: Caller; [ERROR]?: ApiError };

/** The access stage found a valid token: its principal (a cached object, no copy) is the request's caller. */
export function noteCaller(request: FastifyRequest, caller: Caller): void {
  (request as Noted)[CALLER] = caller;
}

export function callerOf(request: FastifyRequest): Caller | undefined {
  return (request as Noted)[CALLER];
}

/** The catalogue error the request was answered with. */
export function noteError(request: FastifyRequest, error: ApiError): void {
  (request as Noted)[ERROR] = error;
}

export function errorOf(request: FastifyRequest): ApiError | undefined {
  return (request as Noted)[ERROR];
}

/**
 * The most of a path (with its query) the request log keeps: a URL may be 16 KiB, and apps are free, so that a client
 * of long URLs grew the log by 15 MB a thousand requests. The page shows 120 characters of it, the details all kept.
 */
export const LOGGED_PATH_MOST = 2000;

/** `text` cut to `most` characters with an ellipsis where it was cut, never between the halves of a surrogate pair. */
export function cutText(text: string, most: number): string {
  // A text of at most `most` UTF-16 units has at most `most` characters.
  if (text.length <= most) return text;
  const chars = [...text];
  return chars.length <= most ? text : `${chars.slice(0, most).join('')}…`;
}

/**
 * The URL with the value of every access_token parameter masked (`access_token=***`). The key is read as the query
 * parser reads it (`access%5Ftoken` is access_token too), so no spelling slips a token into the log.
 */
export function maskedUrl(url: string): string {
  const queryAt = url.indexOf('?');
  if (queryAt === -1) return url;
  const parts = url.slice(queryAt + 1).split('&');
  let changed = false;
  for (let index = 0; index < parts.length; index += 1) {
    const part = parts[index]!;
    const equals = part.indexOf('=');
    const key = equals === -1 ? part : part.slice(0, equals);
    if (decodedKey(key) !== 'access_token') continue;
    parts[index] = `${key}=***`;
    changed = true;
  }
  return changed ? `${url.slice(0, queryAt + 1)}${parts.join('&')}` : url;
}

function decodedKey(key: string): string {
  try {
    return decodeURIComponent(key.replace(/\+/g, ' ')).toLowerCase();
  } catch {
    return key.toLowerCase();
  }
}
