/**
 * Waitlists as this process last read them, for the public sign-up's hot path (issue 16, item
 * 4a): deciding on a remembered waitlist saves the read that cost a third of a sign-up's CPU.
 *
 * A remembered waitlist may be stale: another process, or the command line, may have changed it
 * since. So it is never trusted alone (signup.ts): an accepted sign-up decided on it is written
 * only while the waitlist still has the version it was decided on (the store checks that in the
 * sign-up's own statement), and any other answer is given only once a fresh read shows that
 * version. Only live waitlists are remembered: a missing one is read every time, so a flood of
 * made-up ids holds no memory.
 */
import type { Waitlist } from '../domain/records.js';
import type { Store } from '../store/store.js';

/** Enough for every live waitlist of a busy server; past it, the oldest is forgotten. */
const MAX_REMEMBERED = 1_000;

export class RememberedWaitlists {
  readonly #known = new Map<string, Waitlist>();
  /** When each remembered waitlist was read (ms). */
  readonly #readAt = new Map<string, number>();

  constructor(
    private readonly store: Store,
    private readonly now: () => number = Date.now,
  ) {}

  remembered(id: string): Waitlist | undefined {
    return this.#known.get(id);
  }

  /**
   * The waitlist as remembered when it was read at most `maxAgeMs` ago, else read now: for an
   * answer that may be that stale and must not cost a read per request (the public form).
   */
  recent(id: string, maxAgeMs: number): Waitlist | undefined | Promise<Waitlist | undefined> {
    const known = this.#known.get(id);
    if (known && this.now() - (this.#readAt.get(id) ?? 0) <= maxAgeMs) return known;
    return this.read(id);
  }

  /** Reads the waitlist now, and remembers it while it is live. */
  async read(id: string): Promise<Waitlist | undefined> {
    const at = this.now();
    const waitlist = await this.store.reads.waitlists.get(id);
    const known = this.#known.get(id);
    // Of two reads that raced, the newer version stays.
    if (known && waitlist && known.version > waitlist.version) return waitlist;
    this.#known.delete(id);
    if (waitlist && !waitlist.archived) {
      if (this.#known.size >= MAX_REMEMBERED) this.forgetOldest();
      this.#known.set(id, waitlist);
      this.#readAt.set(id, at);
    } else this.#readAt.delete(id);
    return waitlist;
  }

  /** A map keeps its insertion order: the first key is the one remembered longest ago. */
  private forgetOldest(): void {
    for (const id of this.#known.keys()) {
      this.#known.delete(id);
      this.#readAt.delete(id);
      return;
    }
  }
}
