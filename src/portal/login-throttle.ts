// Failed portal logins counted per email and per IP (SPEC §12): past 10 in a minute, logins for that key wait.
//
// The counts live in this node's memory, like the API's rate limits (SPEC §7: the counters are the one piece of state
// a node keeps): N nodes behind a balancer allow up to N times 10 failures a minute. Still scrypt-slow guesses at
// 10·N a minute per email; docs/decisions.md says why that was judged enough.
import { NowAndThen } from '../now-and-then.js';

/** Failures allowed per key in a window; the next attempt in the window is refused. */
const LOGIN_FAILURES_PER_MINUTE = 10;
const WINDOW_MS = 60_000;

interface Window {
  start: number;
  failures: number;
}

export class LoginThrottle {
  private readonly windows = new Map<string, Window>();
  private readonly sweeps = new NowAndThen(WINDOW_MS);

  constructor(private readonly clock: () => number = Date.now) {}

  /** Seconds to wait before any of `keys` may try again; 0 when none is over the limit. */
  waitSeconds(keys: readonly string[]): number {
    const time = this.clock();
    let wait = 0;
    for (const key of keys) {
      const window = this.windows.get(key);
      if (!window || time - window.start >= WINDOW_MS || window.failures < LOGIN_FAILURES_PER_MINUTE) continue;
      wait = Math.max(wait, Math.ceil((window.start + WINDOW_MS - time) / 1000));
    }
    return Math.max(wait, 0);
  }

  /** Counts one failed login against each of `keys`. */
  fail(keys: readonly string[]): void {
    const time = this.clock();
    this.sweep(time);
    for (const key of keys) {
      const window = this.windows.get(key);
      if (!window || time - window.start >= WINDOW_MS) this.windows.set(key, { start: time, failures: 1 });
      else window.failures += 1;
    }
  }

  /** Drops finished windows now and then, so the keys of one-off failures do not pile up. */
  private sweep(time: number): void {
    if (!this.sweeps.due(time)) return;
    for (const [key, window] of this.windows) if (time - window.start >= WINDOW_MS) this.windows.delete(key);
  }
}
