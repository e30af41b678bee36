/**
 * What every adapter of the throttle port (`Store.limiter`, see `src/store/store.ts`) must do,
 * as a suite any adapter's tests can run: `limiterContract('PostgreSQL', open)` with an `open`
 * that gives a store (or anything with its `limiter`). Each test takes throttle names of its own,
 * so a database shared between tests or runs needs no cleaning. Times are the `now` passed in:
 * an adapter must count by it, not by its own clock.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type Limit, type Rule, slidingWindow, type Take, tokenBucket } from '../src/domain/throttle.js';
import type { Store } from '../src/store/store.js';

export interface LimiterSource {
  limiter: Store['limiter'];
  close?: () => Promise<void>;
}

/** What the rule alone answers to these takes of one key, in order: what the adapter must answer. */
function folded<S>(rule: Rule<S>, times: readonly number[], limit: Limit): Take<S>[] {
  let state: S | undefined;
  return times.map((now) => {
    const taken = rule.take(state, now, limit);
    state = taken.state;
    return structuredClone(taken);
  });
}

export function limiterContract(label: string, open: () => Promise<LimiterSource>): void {
  /** Runs `fn` on a freshly opened source, closing it whatever happens. */
  async function using(fn: (source: LimiterSource, name: (base: string) => string) => Promise<void>) {
    const source = await open();
    try {
      await fn(source, (base) => `${base}-${randomUUID()}`);
    } finally {
      await source.close?.();
    }
  }

  describe(`throttle port contract: ${label}`, () => {
    it('token bucket: takes up to the capacity, then refuses with the seconds until a token', () =>
      using(async (source, name) => {
        const limiter = source.limiter(name('key'), tokenBucket);
        const limit = { capacity: 3, windowMs: 60_000 };
        const answers: Take<unknown>[] = [];
        for (let i = 0; i < 4; i++) answers.push(await limiter.take('k', 1000, limit));
        expect(answers.map((a) => [a.allowed, a.remaining, a.retryAfter])).toEqual([
          [true, 2, 0],
          [true, 1, 0],
          [true, 0, 0],
          [false, 0, 20],
        ]);
        expect(answers[3]?.reset).toBe(60);
        expect((await limiter.take('k', 1000 + 20_000, limit)).allowed).toBe(true);
        expect((await limiter.take('k', 1000 + 20_000, limit)).allowed).toBe(false);
      }));

    it('sliding window: at most the capacity in a window, refusals carry the retry of the rule', () =>
      using(async (source, name) => {
        const limiter = source.limiter(name('ip'), slidingWindow);
        const limit = { capacity: 2, windowMs: 60_000 };
        const times = [0, 1000, 2000, 30_000, 60_500, 61_000, 62_000, 62_500];
        const answers: Take<unknown>[] = [];
        for (const now of times) answers.push(await limiter.take('k', now, limit));
        expect(answers).toEqual(folded(slidingWindow, times, limit));
        // The third, at 2 s, waits for the first slot (0 to 1 s) to leave the window: 59 s.
        expect(answers[2]).toMatchObject({ allowed: false, remaining: 0, retryAfter: 59 });
        expect(answers.map((a) => a.allowed)).toEqual([true, true, false, false, false, true, true, false]);
      }));

    it('answers exactly as the rule does, step by step, for both rules', () =>
      using(async (source, name) => {
        const times = [0, 10, 10, 500, 999, 1000, 1500, 20_000, 20_001, 45_000, 59_999, 61_000, 200_000];
        const limit = { capacity: 3, windowMs: 60_000 };
        for (const rule of [tokenBucket, slidingWindow] as Rule<unknown>[]) {
          const limiter = source.limiter(name('rule'), rule);
          const answers: Take<unknown>[] = [];
          for (const now of times) answers.push(await limiter.take('k', now, limit));
          expect(answers).toEqual(folded(rule, times, limit));
        }
      }));

    it('keeps keys, and throttles, independent', () =>
      using(async (source, name) => {
        const limit = { capacity: 1, windowMs: 60_000 };
        const ip = source.limiter(name('ip'), slidingWindow);
        const email = source.limiter(name('email'), slidingWindow);
        expect((await ip.take('a', 0, limit)).allowed).toBe(true);
        expect((await ip.take('a', 0, limit)).allowed).toBe(false);
        expect((await ip.take('b', 0, limit)).allowed).toBe(true);
        expect((await email.take('a', 0, limit)).allowed).toBe(true);
      }));

    it('keeps one state per name: a second limiter of the name counts in it', () =>
      using(async (source, name) => {
        const limit = { capacity: 2, windowMs: 60_000 };
        const shared = name('shared');
        const first = source.limiter(shared, slidingWindow);
        const second = source.limiter(shared, slidingWindow);
        expect((await first.take('k', 0, limit)).remaining).toBe(1);
        expect((await second.take('k', 0, limit)).remaining).toBe(0);
        expect((await first.take('k', 0, limit)).allowed).toBe(false);
      }));

    it('peeks without counting: the state of the last take, undefined for an unknown key', () =>
      using(async (source, name) => {
        const limit = { capacity: 2, windowMs: 60_000 };
        const limiter = source.limiter(name('pow'), slidingWindow);
        expect(await limiter.peek('k')).toBeUndefined();
        const taken = await limiter.take('k', 5000, limit);
        for (let i = 0; i < 3; i++) expect(await limiter.peek('k')).toEqual(taken.state);
        expect(await limiter.peek('other')).toBeUndefined();
        expect((await limiter.take('k', 5000, limit)).allowed).toBe(true);
      }));

    it('keeps states as plain JSON', () =>
      using(async (source, name) => {
        const limit = { capacity: 5, windowMs: 60_000 };
        for (const rule of [tokenBucket, slidingWindow] as Rule<unknown>[]) {
          const limiter = source.limiter(name('json'), rule);
          await limiter.take('k', 1234, limit);
          await limiter.take('k', 7777, limit);
          const state = await limiter.peek('k');
          expect(JSON.parse(JSON.stringify(state))).toEqual(state);
        }
      }));

    it('sweeps idle states and keeps the others; a swept key starts afresh', () =>
      using(async (source, name) => {
        const limit = { capacity: 2, windowMs: 60_000 };
        const window = source.limiter(name('ip'), slidingWindow);
        const bucket = source.limiter(name('key'), tokenBucket);
        await window.take('old', 0, limit);
        await window.take('old', 0, limit);
        await window.take('recent', 50_000, limit);
        await bucket.take('old', 0, limit);
        await bucket.take('recent', 50_000, limit);
        await window.sweep(61_500);
        await bucket.sweep(61_500);
        expect(await window.peek('old')).toBeUndefined();
        expect(await window.peek('recent')).toBeDefined();
        expect(await bucket.peek('old')).toBeUndefined();
        expect(await bucket.peek('recent')).toBeDefined();
        expect((await window.take('old', 61_500, limit)).remaining).toBe(1);
        expect((await window.take('recent', 61_500, limit)).remaining).toBe(0);
      }));

    it('takes atomically per key: of many concurrent takes, exactly the capacity pass', () =>
      using(async (source, name) => {
        const limit = { capacity: 5, windowMs: 60_000 };
        for (const rule of [tokenBucket, slidingWindow] as Rule<unknown>[]) {
          const limiter = source.limiter(name('race'), rule);
          const answers = await Promise.all(Array.from({ length: 20 }, () => limiter.take('k', 1000, limit)));
          const passed = answers.filter((a) => a.allowed);
          expect(passed.length).toBe(5);
          expect(passed.map((a) => a.remaining).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4]);
        }
      }));
  });
}
