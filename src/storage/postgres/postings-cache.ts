// The postings counts of search keys, kept by a node for a while: the term statistics of a multi-word search.
//
// A search of several words first counts each word's keys' postings (search-tiers.ts), to leave out the keys and tiers
// that hold nothing and to let the rarest word lead; on PostgreSQL that count was a statement and a round trip of its
// own, and about 40% of the database's time for `rex oslo`. Counts change slowly, so a node keeps them, the way a search
// engine keeps its terms' document frequencies. What a kept count decides is checked where it matters:
// - a key kept as having no postings is left out, which would lose items if another node had since given it some, so
//   every read built on kept counts also asks whether any such key has postings now (streamsQuery's guard), and the
//   search runs again on fresh counts if one has;
// - a kept count above zero only picks the lead word and at worst costs speed, so it is trusted for KEPT_MS.
import type { Postings } from '../search-keys.js';

/** How long a kept count is used: a word that grew common is led by another word within this time. */
const KEPT_MS = 60_000;
/** How many keys a node keeps (about 100 bytes each): the oldest used go first. */
const MOST_KEYS = 20_000;

interface Kept {
  readonly count: number;
  readonly at: number;
}

/** Kept counts, and which of the keys had none: the keys the read must check. */
export interface KeptPostings {
  readonly postings: Postings;
  readonly none: readonly string[];
}

export class PostingsCache {
  private readonly kept = new Map<string, Kept>();
  /** Searches served from kept counts, and those that counted (tests). */
  hits = 0;
  misses = 0;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly most = MOST_KEYS,
  ) {}

  /** The counts of `keys` in `space` (a resource and tenant), when every one is kept and fresh. */
  get(space: string, keys: readonly string[]): KeptPostings | undefined {
    const time = this.now();
    const postings = new Map<string, number>();
    const none: string[] = [];
    for (const key of keys) {
      const name = `${space}\n${key}`;
      const kept = this.kept.get(name);
      if (kept === undefined || time - kept.at > KEPT_MS) {
        this.misses += 1;
        return undefined;
      }
      // Used again: it moves to the end of the map's order, which evicts from the front.
      this.kept.delete(name);
      this.kept.set(name, kept);
      postings.set(key, kept.count);
      if (kept.count === 0) none.push(key);
    }
    this.hits += 1;
    return { postings, none };
  }

  /** Keeps fresh counts, in place of any kept before. */
  set(space: string, postings: Postings): void {
    const at = this.now();
    for (const [key, count] of postings) {
      const name = `${space}\n${key}`;
      this.kept.delete(name);
      this.kept.set(name, { count, at });
    }
    for (const name of this.kept.keys()) {
      if (this.kept.size <= this.most) break;
      this.kept.delete(name);
    }
  }
}
