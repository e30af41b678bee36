/**
 * Throttle arithmetic for docs/protocol.md#throttles-and-budgets. Pure: the caller owns the state and the clock.
 *
 * Two rules, one shape (`Rule`), so the state keeper (`adapters/limiter.ts`) serves both:
 *
 * - `tokenBucket`, the per-key budget: up to `capacity` at once, refilled at `capacity` per
 *   `windowMs`. A bucket lets through a full burst and then the steady refill, so up to about
 *   twice the capacity in one rolling window; the contract allows that for keys ("sliding or
 *   token bucket") and the RateLimit headers describe it.
 * - `slidingWindow`, the per-IP and per-email throttles: at most `capacity` requests in ANY
 *   window of `windowMs`, which is what "60 per 60 s" and "5 per hour" promise. It is a log of
 *   admitted requests bucketed into `SLOTS` slots per window, each counted until its last
 *   possible moment has left the window: never more than the capacity in a rolling window, at the
 *   price of refusing up to one slot (a sixtieth of the window) early. Memory is bounded by the
 *   slot count, not by the capacity.
 */
export interface Limit {
  capacity: number;
  windowMs: number;
}

export interface Take<S> {
  state: S;
  allowed: boolean;
  /** Requests left after this one. */
  remaining: number;
  /** Seconds until a request would pass (≥ 1 when refused, 0 when allowed). */
  retryAfter: number;
  /** Seconds until the state is back to empty (nothing counted). */
  reset: number;
}

export interface Rule<S> {
  take(previous: S | undefined, now: number, limit: Limit): Take<S>;
  /** True when the state counts nothing any more and can be forgotten without changing any answer. */
  isIdle(state: S, now: number, limit: Limit): boolean;
}

const seconds = (ms: number) => Math.ceil(ms / 1000);

// ------------------------------------------------------------------ token bucket

export interface Bucket {
  tokens: number;
  at: number;
}

function refill(bucket: Bucket | undefined, now: number, limit: Limit): Bucket {
  if (!bucket) return { tokens: limit.capacity, at: now };
  const elapsed = Math.max(0, now - bucket.at);
  const tokens = Math.min(limit.capacity, bucket.tokens + (elapsed * limit.capacity) / limit.windowMs);
  return { tokens, at: now };
}

export const tokenBucket: Rule<Bucket> = {
  take(previous, now, limit) {
    const current = refill(previous, now, limit);
    const msPerToken = limit.windowMs / limit.capacity;
    const allowed = current.tokens >= 1;
    const state = allowed ? { tokens: current.tokens - 1, at: now } : current;
    return {
      state,
      allowed,
      remaining: Math.floor(state.tokens),
      retryAfter: allowed ? 0 : Math.max(1, seconds((1 - state.tokens) * msPerToken)),
      reset: seconds((limit.capacity - state.tokens) * msPerToken),
    };
  },
  isIdle: (bucket, now, limit) => refill(bucket, now, limit).tokens >= limit.capacity,
};

// ------------------------------------------------------------------ sliding window

export const SLOTS = 60;

/** Admitted requests per slot, oldest first; a slot is `floor(time / slotMs)`. */
export interface WindowLog {
  slots: number[];
  counts: number[];
}

const slotMs = (limit: Limit) => Math.max(1, Math.ceil(limit.windowMs / SLOTS));

/** When the requests counted in `slot` have all left the window. */
const slotExpiry = (slot: number, limit: Limit) => (slot + 1) * slotMs(limit) + limit.windowMs;

/** The log without the slots that have left the window at `now`. */
function live(log: WindowLog | undefined, now: number, limit: Limit): WindowLog {
  if (!log) return { slots: [], counts: [] };
  let first = 0;
  while (first < log.slots.length && slotExpiry(log.slots[first] as number, limit) <= now) first++;
  return { slots: log.slots.slice(first), counts: log.counts.slice(first) };
}

const total = (log: WindowLog) => log.counts.reduce((a, b) => a + b, 0);

/**
 * What a window has counted at `now`, for counters rather than throttles (adaptive Proof of Work):
 * the same log, recorded with `take` under an unbounded capacity, read without recording.
 */
export const windowCount = (log: WindowLog | undefined, now: number, limit: Limit): number =>
  total(live(log, now, limit));

export const slidingWindow: Rule<WindowLog> = {
  take(previous, now, limit) {
    const log = live(previous, now, limit);
    const counted = total(log);
    if (counted >= limit.capacity) {
      // Wait until enough of the oldest slots have left that one more request fits.
      let left = counted;
      let until = now;
      for (const [i, slot] of log.slots.entries()) {
        left -= log.counts[i] as number;
        until = slotExpiry(slot, limit);
        if (left < limit.capacity) break;
      }
      const last = log.slots.at(-1) as number;
      return {
        state: log,
        allowed: false,
        remaining: 0,
        retryAfter: Math.max(1, seconds(until - now)),
        reset: seconds(slotExpiry(last, limit) - now),
      };
    }
    const slot = Math.floor(now / slotMs(limit));
    if (log.slots.at(-1) === slot) log.counts[log.counts.length - 1] = (log.counts.at(-1) as number) + 1;
    else {
      log.slots.push(slot);
      log.counts.push(1);
    }
    return {
      state: log,
      allowed: true,
      remaining: limit.capacity - counted - 1,
      retryAfter: 0,
      reset: seconds(slotExpiry(slot, limit) - now),
    };
  },
  isIdle: (log, now, limit) => live(log, now, limit).slots.length === 0,
};
