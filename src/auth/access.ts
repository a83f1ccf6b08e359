// The access stage of every API request, in SPEC §8's order: token (401) → scope (403) → rate limit (403).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';
import type { Verb } from '../http/context.js';
import { enforceRateLimit, type RateLimiter } from '../http/rate-limit.js';
import { single, type QueryParams } from '../query/collection.js';
import { PUBLIC_SCOPE, type PublicScope, type Scope, type TenantScope } from '../storage/storage.js';
import { isFormBody, readBody } from '../http/raw-body.js';
import { noteCaller } from '../http/request-log-notes.js';
import type { Principal, TokenVerifier } from './token-verifier.js';

/** Who sends a request (the OAuth client, or the IP of an open one) and whose data it sees. */
export interface Access<S extends Scope = TenantScope> {
  readonly scope: S;
  readonly clientId: string;
}

const REALM = 'realm="Dog Registry"';

/** `read` for GET, `write` for POST, PUT and DELETE — the method carried out, overrides included. */
export function scopeFor(method: Verb): 'read' | 'write' {
  return method === 'GET' ? 'read' : 'write';
}

export class AccessControl {
  constructor(
    private readonly verifier: TokenVerifier,
    private readonly clientLimiter: RateLimiter,
    private readonly openLimiter: RateLimiter,
  ) {}

  /** An open operation: no token, the public view of every tenant's rows, the per-IP rate limit. */
  checkOpen(request: FastifyRequest, reply: FastifyReply): Access<PublicScope> {
    const clientId = `ip:${request.ip}`;
    this.limit(this.openLimiter, clientId, reply);
    return { scope: PUBLIC_SCOPE, clientId };
  }

  /**
   * Checks the request's token, scope and rate; sets the RateLimit headers; throws the 401/403
   * errors. A token the verifier has cached is checked without a promise.
   */
  check(request: FastifyRequest, reply: FastifyReply, method: Verb): Access | Promise<Access> {
    const token = presentedToken(request);
    if (token === undefined) {
      throw new ApiError(
        'tokenMissing',
        (jsonBodyHasToken(request)
          ? 'The access_token field of a JSON body is not read: RFC 6750 takes a token from a form body only. '
          : '') +
          'This operation needs an access token: send Authorization: Bearer <token>. Get one from POST ' +
          '/oauth2/token with your client id and secret (sign up in the developer portal for a client).',
        { 'www-authenticate': `Bearer ${REALM}` },
      );
    }
    const principal = this.verifier.verify(token);
    return principal instanceof Promise
      ? principal.then((verified) => this.admit(verified, reply, method))
      : this.admit(principal, reply, method);
  }

  /** Stages 4–6 once the token is known: valid (401), scope (403), rate (403). */
  private admit(principal: Principal | undefined, reply: FastifyReply, method: Verb): Access {
    if (!principal) {
      throw new ApiError(
        'tokenInvalid',
        'The access token is not valid: it is unknown, expired or revoked. Get a new one from POST /oauth2/token.',
        {
          'www-authenticate': `Bearer ${REALM}, error="invalid_token", error_description="The access token is unknown, expired or revoked"`,
        },
      );
    }
    // The request log's account and app from here on, a refused scope or rate included (the cached principal, no copy).
    noteCaller(reply.request, principal);
    const needed = scopeFor(method);
    if (!principal.scopes.includes(needed)) {
      throw new ApiError(
        'scopeInsufficient',
        `The access token lacks the "${needed}" scope that ${method} needs (it has: ` +
          `${principal.scopes.join(', ') || 'none'}). Ask for it when you get the token: scope=${needed}.`,
        {
          'www-authenticate': `Bearer ${REALM}, error="insufficient_scope", error_description="The token lacks the ${needed} scope", scope="${needed}"`,
        },
      );
    }
    this.limit(this.clientLimiter, `client:${principal.clientId}`, reply);
    return { scope: { kind: 'tenant', tenantId: principal.tenantId }, clientId: principal.clientId };
  }

  private limit(limiter: RateLimiter, key: string, reply: FastifyReply): void {
    if (limiter.enabled) reply.headers(enforceRateLimit(limiter, key, 'requests'));
  }
}

/**
 * Whether a request without a token sent one as a JSON body's access_token, which RFC 6750 §2.2 does not read (a
 * control parameter of SPEC §1, so no 400 either): its 401 says so. A body that does not parse says nothing here.
 */
function jsonBodyHasToken(request: FastifyRequest): boolean {
  if (isFormBody(request)) return false;
  try {
    return readBody(request)?.access_token !== undefined;
  } catch {
    return false;
  }
}

/** RFC 6750 §3.1: a request that repeats the token, or sends it more than one way, is an `invalid_request`. */
const INVALID_REQUEST = {
  'www-authenticate': `Bearer ${REALM}, error="invalid_request", error_description="Send the access token once, one way"`,
};

/** The token of an `Authorization: Bearer <token>` header (the scheme in any case, RFC 9110 §11.1), if it is one. */
export function bearerToken(header: string | undefined): string | undefined {
  return header !== undefined && /^bearer /i.test(header) ? header.slice(7).trim() : undefined;
}

/**
 * RFC 6750 §2: the Authorization header, the access_token query parameter, or a form body field — one of them, once. A
 * repeated query parameter is 2009 like any other; a form body that gives the field twice sent the token twice.
 */
function presentedToken(request: FastifyRequest): string | undefined {
  const found: string[] = [];
  const header = bearerToken(request.headers.authorization);
  if (header !== undefined) found.push(header);
  const query = single(request.query as QueryParams, 'access_token', false, INVALID_REQUEST);
  if (query !== undefined) found.push(query);
  if (isFormBody(request)) {
    const body = readBody(request)?.access_token;
    if (Array.isArray(body)) found.push(...body.map(String));
    else if (body !== undefined) found.push(String(body));
  }
  if (found.length > 1) {
    throw new ApiError(
      'tokenMultiple',
      'The access token was sent more than once. Send it once: in the Authorization header, or as access_token ' +
        'in the query string or the form body.',
      INVALID_REQUEST,
    );
  }
  return found[0] === '' ? undefined : found[0];
}
