import type { Limit, Take } from '../domain/throttle.js';

/**
 * The state of one throttle (docs/protocol.md#throttles-and-budgets): a state `S` per key (a key id, a waitlist and IP, ...),
 * advanced by its `Rule` of `domain/throttle.ts`, which alone does the arithmetic. An adapter only
 * keeps the states: it loads the key's state, applies `rule.take` and stores the result. Every
 * state of the rules is plain JSON (numbers and arrays of numbers), so a database may keep it as
 * JSON; a state read back from JSON gives the rule the same answers.
 *
 * What an adapter must guarantee:
 * - `take` is a read-modify-write of one key, and it is ATOMIC PER KEY: however many requests
 *   (and, with a shared database, however many processes) take the same key at once, each take
 *   sees the state the previous one stored, so a throttle of capacity n admits at most n. The
 *   adapter holds the key (a row lock, `SELECT ... FOR UPDATE`, or an equivalent) from the read
 *   until the write; it need not be atomic across keys.
 * - Takes of different keys, or of different limiters, are independent.
 * - `peek` reads without counting anything and without changing what a later `take` answers.
 * - `sweep` forgets states the rule calls idle (`rule.isIdle` under the limit they were last
 *   taken with); forgetting them changes no answer. A database adapter may instead store, with
 *   each state, when it goes idle, and delete the states past it: `now + take.reset * 1000 + 1`
 *   is never early (the millisecond covers the token bucket's float rounding; domain.test.ts).
 * - An adapter may also forget states sooner (a memory cap) as long as that only ever makes the
 *   throttle more lenient.
 */
export interface Limiter<S> {
  /** Counts one request of `key` at `now` (ms), answering whether it passes. */
  take(key: string, now: number, limit: Limit): Promise<Take<S>>;
  /** The state kept for `key`, read without counting a request. */
  peek(key: string): Promise<S | undefined>;
  /** Forgets the states that are idle at `now`. */
  sweep(now: number): Promise<void>;
}
