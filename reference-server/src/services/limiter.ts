/**
 * In-memory throttle buckets keyed by a string (key id, waitlist and IP, waitlist and email).
 * Idle buckets (refilled completely) are forgotten on a sweep, and the map is capped, so a flood
 * of distinct addresses cannot grow memory without bound: past the cap the oldest entries go,
 * which can only make the throttle more lenient for them, never lock anyone out.
 */
import { type Bucket, isIdle, type Limit, type Take, take } from '../domain/throttle.js';

export class Limiter {
  private readonly buckets = new Map<string, { bucket: Bucket; limit: Limit }>();

  constructor(private readonly maxEntries = 200_000) {}

  take(key: string, now: number, limit: Limit): Take {
    const entry = this.buckets.get(key);
    const result = take(entry?.bucket, now, limit);
    // Re-inserting keeps the map in least-recently-used order for the cap below.
    this.buckets.delete(key);
    this.buckets.set(key, { bucket: result.bucket, limit });
    if (this.buckets.size > this.maxEntries) {
      const oldest = this.buckets.keys().next().value;
      if (oldest !== undefined) this.buckets.delete(oldest);
    }
    return result;
  }

  sweep(now: number): void {
    for (const [key, { bucket, limit }] of this.buckets) {
      if (isIdle(bucket, now, limit)) this.buckets.delete(key);
    }
  }

  get size(): number {
    return this.buckets.size;
  }
}
