import { createHash, randomBytes, randomInt } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isPowSolution,
  leadingZeroBits,
  POW_MAX_SOLUTION,
  powInput,
  SHA256_IV,
  SHA256_K,
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

describe('the computed constants', () => {
  it('are the tables of FIPS 180-4 (§4.2.2 and §5.3.3)', () => {
    // biome-ignore format: the standard's table, eight to a line
    const K = [
      0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
      0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
      0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
      0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
      0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
      0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
      0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
      0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ];
    expect([...SHA256_K]).toEqual(K);
    expect([...SHA256_IV]).toEqual([
      0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
    ]);
  });
});
