// Per-node request limits (SPEC §7): a fixed one-minute window per key — a client, or an IP on the open operation.
//
// The counters are the one piece of state a node keeps: each node enforces its limit on its own,
// so N nodes behind a balancer allow up to N times the limit (docs/deployment.md says how to set it).

import { ApiError } from '../errors.js';
import { NowAndThen } from '../now-and-then.js';

export interface RateDecision {
  readonly allowed: boolean;
  readonly limit: number;
  readonly remaining: number;
  /** Seconds until the window starts again. */
  readonly resetSeconds: number;
}

interface Window {
  start: number;
  count: number;
}

const WINDOW_MS = 60_000;

export class RateLimiter {
  private readonly windows = new Map<string, Window>();
  private readonly sweeps = new NowAndThen(WINDOW_MS);

  /** `perMinute` 0 turns the limit off. */
  constructor(
    readonly perMinute: number,
    private readonly clock: () => number = Date.now,
  ) {}

  get enabled(): boolean {
    return this.perMinute > 0;
  }

  /** Counts one request for `key` and says whether it may go ahead. */
  take(key: string): RateDecision {
    const time = this.clock();
    this.sweep(time);
    let window = this.windows.get(key);
    if (!window || time - window.start >= WINDOW_MS) {
      window = { start: time, count: 0 };
      this.windows.set(key, window);
    }
    window.count += 1;
    const allowed = window.count <= this.perMinute;
    return {
      allowed,
      limit: this.perMinute,
      remaining: Math.max(0, this.perMinute - window.count),
      resetSeconds: Math.max(1, Math.ceil((window.start + WINDOW_MS - time) / 1000)),
    };
  }

  /** Drops finished windows now and then, so idle keys do not pile up. */
  private sweep(time: number): void {
    if (!this.sweeps.due(time)) return;
    for (const [key, window] of this.windows) if (time - window.start >= WINDOW_MS) this.windows.delete(key);
  }
}

/**
 * Counts one request for `key`: the RateLimit-* headers to send, or the 403 (with Retry-After)
 * when the limit is reached. `what` says what was limited, for the message.
 */
export function enforceRateLimit(limiter: RateLimiter, key: string, what: string): Record<string, string> {
  const decision = limiter.take(key);
  const headers = rateLimitHeaders(decision);
  if (!decision.allowed) {
    throw new ApiError(
      'rateLimited',
      `Too many ${what}: the limit is ${decision.limit} a minute. Retry in ${decision.resetSeconds} s.`,
      headers,
    );
  }
  return headers;
}

/** The RateLimit-* headers of an answer (draft-ietf-httpapi-ratelimit-headers, as SPEC §7 names them). */
function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  const headers: Record<string, string> = {
    'ratelimit-limit': String(decision.limit),
    'ratelimit-remaining': String(decision.remaining),
    'ratelimit-reset': String(decision.resetSeconds),
  };
  if (!decision.allowed) headers['retry-after'] = String(decision.resetSeconds);
  return headers;
}
