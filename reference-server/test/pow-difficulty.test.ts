import { POW_MAX_DIFFICULTY } from '@waitlistkit/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { powDifficulty, redemptionDifficulty, repeatBits, surgeBits } from '../src/domain/pow-difficulty.js';

const quiet = { issuedLastMinute: 0, threshold: 120, acceptedFromIpLastHour: 0 };

describe('adaptive Proof of Work difficulty (contract §16)', () => {
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
