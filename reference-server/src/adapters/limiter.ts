/**
 * In-memory throttle state keyed by a string (key id, waitlist and IP, waitlist and email), for
 * one rule of `domain/throttle.ts`. Idle entries are forgotten on a sweep, and the map is capped,
 * so a flood of distinct addresses cannot grow memory without bound: past the cap the oldest
 * entries go, which can only make the throttle more lenient for them, never lock anyone out.
 */
import type { Limit, Rule, Take } from '../domain/throttle.js';

export class Limiter<S = unknown> {
  private readonly entries = new Map<string, { state: S; limit: Limit }>();

  constructor(
    private readonly rule: Rule<S>,
    private readonly maxEntries = 200_000,
  ) {}

  take(key: string, now: number, limit: Limit): Take<S> {
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
  peek(key: string): S | undefined {
    return this.entries.get(key)?.state;
  }

  sweep(now: number): void {
    for (const [key, { state, limit }] of this.entries) {
      if (this.rule.isIdle(state, now, limit)) this.entries.delete(key);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
