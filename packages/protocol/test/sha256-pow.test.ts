import { createHash, randomBytes, randomInt } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isPowSolution,
  leadingZeroBits,
  POW_MAX_SOLUTION,
  powInput,
  sha256,
  sha256Finish,
  sha256Midstate,
  solvePow,
  toHex,
  utf8,
  verifyPow,
} from '../src/index.js';

const nodeDigest = (data: string | Uint8Array) => createHash('sha256').update(data).digest();

function randomNonce(): string {
  const length = randomInt(1, 257);
  const pool = 'abcXYZ019-_.:~é中😀';
  let s = '';
  for (let i = 0; i < length; i++) s += [...pool][randomInt(0, [...pool].length)];
  return s.slice(0, 256);
}

describe('sha256', () => {
  it('matches node:crypto at every length around the block boundaries', () => {
    for (let length = 0; length <= 300; length++) {
      const data = randomBytes(length);
      expect(toHex(sha256(data))).toBe(nodeDigest(data).toString('hex'));
    }
  });

  it('finishes from a midstate exactly as hashing the whole input', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.uint8Array({ maxLength: 100 }), (a, b) => {
        const whole = new Uint8Array([...a, ...b]);
        expect(toHex(sha256Finish(sha256Midstate(a), b))).toBe(nodeDigest(whole).toString('hex'));
      }),
      { numRuns: 500 },
    );
  });

  it('leaves the midstate reusable', () => {
    const mid = sha256Midstate(utf8('x'.repeat(70)));
    const first = toHex(sha256Finish(mid, utf8('1')));
    sha256Finish(mid, utf8('2'));
    expect(toHex(sha256Finish(mid, utf8('1')))).toBe(first);
  });
});

describe('verifyPow', () => {
  it('agrees with an independent SHA-256 (node:crypto) on 10,000 random inputs', () => {
    let accepted = 0;
    for (let i = 0; i < 10_000; i++) {
      const nonce = randomNonce();
      const solution = i % 3 === 0 ? randomInt(0, 2 ** 48 - 1) : randomInt(0, 1000);
      const difficulty = randomInt(1, 9);
      const expected = leadingZeroBits(nodeDigest(powInput(nonce, solution))) >= difficulty;
      expect(verifyPow(nonce, solution, difficulty)).toBe(expected);
      if (expected) accepted++;
    }
    // Difficulties 1..8 accept about a fifth of random inputs; both outcomes are exercised.
    expect(accepted).toBeGreaterThan(500);
    expect(accepted).toBeLessThan(9_500);
  });

  it('rejects what is not a solution', () => {
    for (const bad of [-1, 0.5, POW_MAX_SOLUTION + 1, Number.NaN, Number.POSITIVE_INFINITY, '1', null]) {
      expect(isPowSolution(bad)).toBe(false);
      expect(verifyPow('n', bad as number, 1)).toBe(false);
    }
    expect(isPowSolution(POW_MAX_SOLUTION)).toBe(true);
  });
});

describe('solvePow', () => {
  it('returns the first solution that clears the difficulty', () => {
    for (const difficulty of [1, 4, 8, 12]) {
      const nonce = `solve-${difficulty}-${randomInt(0, 1e9)}`;
      const solution = solvePow(nonce, difficulty) as number;
      expect(leadingZeroBits(nodeDigest(powInput(nonce, solution)))).toBeGreaterThanOrEqual(difficulty);
      for (let earlier = 0; earlier < solution; earlier++) {
        expect(leadingZeroBits(nodeDigest(powInput(nonce, earlier)))).toBeLessThan(difficulty);
      }
    }
  });

  it('gives up after its attempts and refuses impossible difficulties', () => {
    expect(solvePow('n', 32, { attempts: 10 })).toBeUndefined();
    expect(() => solvePow('n', 0)).toThrow(RangeError);
    expect(() => solvePow('n', 33)).toThrow(RangeError);
  });
});
