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

/** How long kept counts are used: a word that grew common is led by another word within this time. */
const KEPT_MS = 60_000;
/** How many searches' counts a node keeps (3.7 KB each for two words, 3.6 MiB in all): the least recently used go first. */
const MOST_SEARCHES = 1_000;

/** A search's kept counts, and which of its keys had none: the keys its reads must check. */
export interface KeptPostings {
  readonly postings: Postings;
  readonly none: readonly string[];
  readonly at: number;
}

/** Kept counts by space (a resource and tenant) and keys: one look-up and nothing made per search. */
export class PostingsCache {
  private readonly kept = new Map<string, KeptPostings>();
  /** Searches served from kept counts, and those that counted (tests). */
  hits = 0;
  misses = 0;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly most = MOST_SEARCHES,
  ) {}

  /** The counts of `keys` (joined by new lines) in `space`, when kept and fresh. */
  get(space: string, keys: string): KeptPostings | undefined {
    const name = `${space}\n${keys}`;
    const kept = this.kept.get(name);
    if (kept === undefined || this.now() - kept.at > KEPT_MS) {
      this.misses += 1;
      return undefined;
    }
    // Used again: it moves to the end of the map's order, which evicts from the front.
    this.kept.delete(name);
    this.kept.set(name, kept);
    this.hits += 1;
    return kept;
  }

  /** Keeps fresh counts of `keys` (joined by new lines), in place of any kept before. */
  set(space: string, keys: string, postings: Postings): void {
    const name = `${space}\n${keys}`;
    const none: string[] = [];
    for (const [key, count] of postings) if (count === 0) none.push(key);
    this.kept.delete(name);
    this.kept.set(name, { postings, none, at: this.now() });
    if (this.kept.size > this.most) this.kept.delete(this.kept.keys().next().value!);
  }
}
