// Housekeeping done on the way (dropping expired tokens, keys, rate-limit windows): at most once per interval.

export class NowAndThen {
  private last = -Infinity;

  constructor(
    private readonly intervalMs: number,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Whether the interval has passed since the last time this said yes; a yes starts a new interval. */
  due(time: number = this.clock()): boolean {
    if (time - this.last < this.intervalMs) return false;
    this.last = time;
    return true;
  }

  /** Makes the next call due, whenever the last one was (tests). */
  reset(): void {
    this.last = -Infinity;
  }
}
