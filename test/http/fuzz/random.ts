// The fuzz test's seeded randomness: one small PRNG (mulberry32) and the picks built on it, so a seed replays a run.

/** A deterministic source of choices: the same seed gives the same sequence on every machine. */
export class Random {
  private state: number;

  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** Some of the items, in random order (possibly none, possibly repeats). */
  some<T>(items: readonly T[], max = 4): T[] {
    return Array.from({ length: this.int(0, max) }, () => this.pick(items));
  }

  /** A string of `length` characters drawn from `alphabet`. */
  string(alphabet: string, length: number): string {
    const chars = Array.from(alphabet);
    let out = '';
    for (let i = 0; i < length; i++) out += this.pick(chars);
    return out;
  }
}

/** The seed of this run: FUZZ_SEED when given (to replay a failure), else a fixed one so the suite is repeatable. */
export function fuzzSeed(): number {
  const given = process.env.FUZZ_SEED;
  if (given === undefined || given === '') return 1515;
  const seed = Number(given);
  if (!Number.isSafeInteger(seed)) throw new Error(`FUZZ_SEED must be an integer, not ${given}`);
  return seed;
}
