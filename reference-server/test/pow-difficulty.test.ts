import { POW_MAX_DIFFICULTY } from '@waitlistkit/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  POW_SURGE_WINDOW_MS,
  powDifficulty,
  redemptionDifficulty,
  repeatBits,
  SURGE_COUNTED_PER_CLIENT,
  SURGE_NONCES_PER_CLIENT,
  surgeBits,
} from '../src/domain/pow-difficulty.js';
import { slidingWindow, type WindowLog, windowCount } from '../src/domain/throttle.js';

const quiet = { issuedLastMinute: 0, threshold: 120, acceptedFromIpLastHour: 0 };

describe('adaptive Proof of Work difficulty (docs/gates.md#adaptive-difficulty)', () => {
  it('repeat: the first three sign-ups from an address cost the base, then two bits per doubling', () => {
    const table: [number, number][] = [
      [0, 0],
      [1, 0],
      [2, 0],
      [3, 2],
      [4, 2],
      [5, 3], // ⌈2·log2 2.5⌉ = ⌈2.64⌉
      [6, 4], // ⌈2·log2 3⌉ = ⌈3.17⌉
      [8, 4],
      [9, 5],
      [16, 6],
      [32, 8],
      [1024, 18],
    ];
    for (const [a, bits] of table) {
      expect(repeatBits(a), `a = ${a}`).toBe(bits);
      expect(powDifficulty(10, true, { ...quiet, acceptedFromIpLastHour: a }), `a = ${a}`).toBe(10 + bits);
    }
  });

  it('surge: nothing up to the threshold, a bit per doubling above it, at most four', () => {
    const table: [number, number][] = [
      [0, 0],
      [1, 0],
      [120, 0],
      [121, 1],
      [240, 1],
      [241, 2],
      [480, 2],
      [481, 3],
      [960, 3],
      [961, 4],
      [1920, 4],
      [1_000_000, 4],
    ];
    for (const [n, bits] of table) {
      expect(surgeBits(n, 120), `n = ${n}`).toBe(bits);
      expect(powDifficulty(10, true, { ...quiet, issuedLastMinute: n }), `n = ${n}`).toBe(10 + bits);
    }
    expect(surgeBits(10, 5)).toBe(1);
    expect(surgeBits(11, 5)).toBe(2);
  });

  it('surge and repeat add up, and the sum stops at 32', () => {
    expect(
      powDifficulty(18, true, { issuedLastMinute: 240, threshold: 120, acceptedFromIpLastHour: 8 }),
    ).toBe(18 + 1 + 4);
    expect(powDifficulty(30, true, { ...quiet, acceptedFromIpLastHour: 16 })).toBe(POW_MAX_DIFFICULTY);
    expect(powDifficulty(32, true, { ...quiet, issuedLastMinute: 10_000 })).toBe(POW_MAX_DIFFICULTY);
  });

  it('off: the base, whatever the load', () => {
    expect(
      powDifficulty(18, false, { issuedLastMinute: 1_000_000, threshold: 1, acceptedFromIpLastHour: 1_000 }),
    ).toBe(18);
  });

  it('is monotone in both counts, never below the base, never above 32', () => {
    const count = fc.integer({ min: 0, max: 10_000_000 });
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: POW_MAX_DIFFICULTY }),
        fc.integer({ min: 1, max: 1_000_000 }),
        count,
        count,
        count,
        count,
        (base, threshold, n1, n2, a1, a2) => {
          const at = (n: number, a: number) =>
            powDifficulty(base, true, { issuedLastMinute: n, threshold, acceptedFromIpLastHour: a });
          const [nLow, nHigh] = n1 <= n2 ? [n1, n2] : [n2, n1];
          const [aLow, aHigh] = a1 <= a2 ? [a1, a2] : [a2, a1];
          const low = at(nLow, aLow);
          expect(low).toBeLessThanOrEqual(at(nHigh, aLow));
          expect(low).toBeLessThanOrEqual(at(nLow, aHigh));
          expect(at(nHigh, aLow)).toBeLessThanOrEqual(at(nHigh, aHigh));
          for (const d of [low, at(nHigh, aHigh)]) {
            expect(d).toBeGreaterThanOrEqual(base);
            expect(d).toBeLessThanOrEqual(POW_MAX_DIFFICULTY);
          }
        },
      ),
    );
  });

  it('redemption: the nonce difficulty, or the base plus the repeat price now, whichever is more', () => {
    // Issued at a = 0 (base 18), redeemed after three more sign-ups from the address: 18 + 2.
    expect(redemptionDifficulty(18, 18, true, 3)).toBe(20);
    // A surge priced in at issue is kept even when the repeat price is lower.
    expect(redemptionDifficulty(21, 18, true, 3)).toBe(21);
    expect(redemptionDifficulty(18, 18, true, 2)).toBe(18);
    // Adaptive off: the nonce's own difficulty, whatever the count.
    expect(redemptionDifficulty(18, 18, false, 1000)).toBe(18);
    expect(redemptionDifficulty(30, 30, true, 1024)).toBe(POW_MAX_DIFFICULTY);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 32 }), fc.integer({ min: 0, max: 10_000 }), (base, a) => {
        const issued = powDifficulty(base, true, { ...quiet, acceptedFromIpLastHour: a });
        // Redeemed with no sign-up in between, the price is the one it was issued at.
        expect(redemptionDifficulty(issued, base, true, a)).toBe(issued);
        // Never below the nonce's difficulty, never above the cap.
        const later = redemptionDifficulty(issued, base, true, a + 5);
        expect(later).toBeGreaterThanOrEqual(issued);
        expect(later).toBeLessThanOrEqual(POW_MAX_DIFFICULTY);
      }),
    );
  });
});

/**
 * The surge as app/gates.ts counts it, without I/O: a nonce counts towards the waitlist's window
 * when its client's share lets it through; every nonce is priced by the count before it.
 */
function surgeModel(threshold = 120) {
  const clients = new Map<string, WindowLog>();
  let waitlist: WindowLog | undefined;
  const waitlistLimit = { capacity: Number.POSITIVE_INFINITY, windowMs: POW_SURGE_WINDOW_MS };
  return {
    counted: (now: number) => windowCount(waitlist, now, waitlistLimit),
    ask(client: string, now: number): number {
      const share = slidingWindow.take(clients.get(client), now, SURGE_COUNTED_PER_CLIENT);
      clients.set(client, share.state);
      const before = windowCount(waitlist, now, waitlistLimit);
      if (share.allowed) waitlist = slidingWindow.take(waitlist, now, waitlistLimit).state;
      return powDifficulty(18, true, { issuedLastMinute: before, threshold, acceptedFromIpLastHour: 0 });
    },
  };
}

describe('the surge counts what costs the asker: at most two nonces of a client a minute', () => {
  const start = Date.parse('2026-03-01T12:00:00Z');

  it('32 clients asking once a second for a minute leave everyone at the base difficulty', () => {
    const surge = surgeModel();
    const offered: number[] = [];
    for (let second = 0; second < 60; second++)
      for (let c = 0; c < 32; c++) offered.push(surge.ask(`client-${c}`, start + second * 1000 + c));
    expect(offered).toHaveLength(1920);
    expect(new Set(offered)).toEqual(new Set([18]));
    expect(surge.counted(start + 59_999)).toBe(32 * SURGE_NONCES_PER_CLIENT);
  });

  it('a real crowd still raises it: 200 clients asking once, then 200 asking twice', () => {
    const once = surgeModel();
    const offered = Array.from({ length: 200 }, (_, c) => once.ask(`person-${c}`, start + c * 100));
    // The k-th nonce sees the k - 1 counted before it: one bit above 120.
    expect(offered.slice(0, 121)).toEqual(Array(121).fill(18));
    expect(offered.slice(121)).toEqual(Array(79).fill(19));
    const twice = surgeModel();
    let last = 0;
    for (let c = 0; c < 200; c++)
      for (let i = 0; i < 2; i++) last = twice.ask(`person-${c}`, start + c * 100 + i);
    expect(twice.counted(start + 20_000)).toBe(400);
    expect(last).toBe(18 + surgeBits(399, 120));
    expect(last).toBe(20);
  });

  it('counts a client again once its counted nonces have left the window', () => {
    const surge = surgeModel();
    for (let i = 0; i < 10; i++) surge.ask('one', start + i);
    expect(surge.counted(start + 10)).toBe(2);
    // A minute and a slot later, the first two have left the window: two more count.
    const later = start + POW_SURGE_WINDOW_MS + 2 * 1000;
    for (let i = 0; i < 10; i++) surge.ask('one', later + i);
    expect(surge.counted(later + 10)).toBe(2);
  });

  it('never counts more than two nonces per client in any minute, however they ask', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ client: fc.integer({ min: 0, max: 20 }), gap: fc.integer({ min: 0, max: 5000 }) }),
          {
            maxLength: 400,
          },
        ),
        (asks) => {
          const surge = surgeModel();
          let now = start;
          const seen = new Set<number>();
          for (const { client, gap } of asks) {
            now += gap;
            seen.add(client);
            surge.ask(String(client), now);
            expect(surge.counted(now)).toBeLessThanOrEqual(SURGE_NONCES_PER_CLIENT * seen.size);
          }
        },
      ),
    );
  });
});
