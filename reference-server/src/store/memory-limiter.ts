/**
 * Throttle state in process memory: the `Limiter` of the SQLite store (`store.ts` has the port).
 *
 * Memory is the right place with SQLite: one process owns the SQLite file's writes, so one
 * process serves every request and sees every take; and throttles need no durability across
 * restarts (a restart forgets counts, which only makes a throttle more lenient for a moment).
 * Keeping them out of the file spares every request a write. With PostgreSQL, where several
 * processes act as one server (docs/self-hosting.md#several-servers), the counters live in the database instead.
 *
 * States are keyed by a string (key id, waitlist and IP, waitlist and email), for one rule of
 * `domain/throttle.ts`. Idle entries are forgotten on a sweep, and the map is capped, so a flood
 * of distinct addresses cannot grow memory without bound: past the cap the oldest entries go,
 * which can only make the throttle more lenient for them, never lock anyone out.
 *
 * Atomic per key, as the port asks, because each method runs to its end without awaiting: the
 * read, the rule and the write of a take happen in one turn of the event loop.
 */
import type { Limit, Rule, Take } from '../domain/throttle.js';
import type { Limiter } from './limiter.js';

export class MemoryLimiter<S = unknown> implements Limiter<S> {
  private readonly entries = new Map<string, { state: S; limit: Limit }>();

  constructor(
    private readonly rule: Rule<S>,
    private readonly maxEntries = 200_000,
  ) {}

  /** Synchronous inside: nothing is awaited between reading the state and storing the next. */
  async take(key: string, now: number, limit: Limit): Promise<Take<S>> {
    const entry = this.entries.get(key);
    const result = this.rule.take(entry?.state, now, limit);
    // Re-inserting keeps the map in least-recently-used order for the cap below.
    this.entries.delete(key);
    this.entries.set(key, { state: result.state, limit });
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    return result;
  }

  /** The state kept for `key`, read without counting a request or refreshing its place. */
  async peek(key: string): Promise<S | undefined> {
    return this.entries.get(key)?.state;
  }

  async sweep(now: number): Promise<void> {
    for (const [key, { state, limit }] of this.entries) {
      if (this.rule.isIdle(state, now, limit)) this.entries.delete(key);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}

/**
 * `Store.limiter` over memory: one `MemoryLimiter` per name, handed out again for the same name
 * (one name is one state, as on a shared database).
 */
export function memoryLimiters(maxEntries?: number): <S>(name: string, rule: Rule<S>) => Limiter<S> {
  const limiters = new Map<string, { rule: Rule<never>; limiter: MemoryLimiter<never> }>();
  return <S>(name: string, rule: Rule<S>): Limiter<S> => {
    const known = limiters.get(name);
    if (known) {
      if (known.rule !== rule) throw new Error(`the throttle ${name} already has another rule`);
      return known.limiter as unknown as Limiter<S>;
    }
    const limiter = new MemoryLimiter(rule, maxEntries);
    limiters.set(name, { rule: rule as Rule<never>, limiter: limiter as unknown as MemoryLimiter<never> });
    return limiter;
  };
}
