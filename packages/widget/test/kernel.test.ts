/**
 * The Proof of Work kernel in its two forms, SIMD (four candidates per pass) and its i32 twin
 * (engines without WebAssembly SIMD), against node:crypto and against each other.
 */
import { createHash, randomInt } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { POW_KERNEL_SCALAR_WAT, POW_KERNEL_WAT, powKernel } from '../build/pow-kernel.js';
import { connect, searcher } from '../src/solver/engine.js';
import { type Hasher, wasmHasher } from '../src/solver/hasher.js';
import type { Report } from '../src/solver/messages.js';
import { scalarKernel } from '../src/solver/scalar.js';

const utf8 = (text: string) => new TextEncoder().encode(text);
const refuse = () => false;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** A nonce of the server's shape: 63 characters, so `nonce:` fills one block. */
const serverNonce = () => `p1.${Array.from({ length: 60 }, () => BASE62[randomInt(62)]).join('')}`;

/** The first word of SHA-256(`nonce:n`), by node:crypto. */
const firstWord = (nonce: string, n: number) =>
  createHash('sha256').update(`${nonce}:${n}`).digest().readUInt32BE(0);
/** Index of the first of `count` candidates from `start` by `stride` whose first word >>> shift is 0. */
function reference(nonce: string, start: number, count: number, stride: number, shift: number): number {
  for (let i = 0; i < count; i++) if (firstWord(nonce, start + i * stride) >>> shift === 0) return i;
  return -1;
}
/** Candidates left from `start` before the digit count grows (a run never crosses it). */
const sameLength = (start: number, stride: number) =>
  Math.floor((10 ** String(start).length - 1 - start) / stride) + 1;

/** The first solution from `start` with `difficulty` bits, through the engine's searcher (runs of ≤ 1024). */
function search(hasher: Hasher, nonce: string, difficulty: number, start: number, limit: number) {
  const next = searcher(hasher, { nonce, difficulty, start, stride: 1, slice: 10_000 });
  for (;;) {
    const report = next(limit);
    if (report.found !== undefined || report.end) return report.found;
  }
}

describe('the kernel', () => {
  it('is one SIMD module whose i32 twin scalar.ts derives byte for byte', async () => {
    const simd = await powKernel();
    expect(POW_KERNEL_WAT).toContain('i32x4.add');
    expect(POW_KERNEL_SCALAR_WAT).not.toMatch(/v128|i32x4/);
    expect(WebAssembly.validate(simd)).toBe(true);
    expect(WebAssembly.validate(scalarKernel(simd))).toBe(true);
    // The twin has no SIMD instruction left, and the SIMD kernel is untouched.
    expect(scalarKernel(simd)).not.toContain(0xfd);
    expect(simd).toContain(0xfd);
  });

  it('runs four lanes where WebAssembly.validate accepts it, one where it refuses', async () => {
    const validate = vi.fn(() => true);
    const simd = await wasmHasher(utf8('abc:'), validate);
    // The kernel itself is what is validated: its exact instructions, no probe module.
    expect(validate).toHaveBeenCalledWith(await powKernel());
    expect(simd).toMatchObject({ wasm: true, simd: true });
    expect(await wasmHasher(utf8('abc:'), refuse)).toMatchObject({ wasm: true, simd: false });
    // Node 20 has WebAssembly SIMD: by default the kernel runs four lanes.
    expect((await wasmHasher(utf8('abc:'))).simd).toBe(true);
  });

  it('the engine falls back to the i32 twin when SIMD validation fails, and says so', async () => {
    const run = async () => {
      const reports: Report[] = [];
      await new Promise<void>((resolve) => {
        const receive = connect((report) => {
          reports.push(report);
          if (report.found !== undefined) resolve();
        });
        receive({ nonce: 'vector-search', difficulty: 14, start: 0, stride: 1, slice: 50 });
      });
      return reports.at(-1);
    };
    expect(await run()).toMatchObject({ found: 3769, wasm: true, simd: true });
    const validate = vi.spyOn(WebAssembly, 'validate').mockReturnValue(false);
    try {
      expect(await run()).toMatchObject({ found: 3769, wasm: true, simd: false });
    } finally {
      validate.mockRestore();
    }
  });
});

describe('SIMD and its i32 twin against node:crypto', () => {
  it('agree with node:crypto on server-shaped nonces, random starts and strides, every lane count', async () => {
    for (let trial = 0; trial < 12; trial++) {
      const nonce = serverNonce();
      const prefix = utf8(`${nonce}:`);
      const hashers = [await wasmHasher(prefix), await wasmHasher(prefix, refuse)];
      for (const stride of [1, 2, 3, 8]) {
        const start = randomInt(10 ** randomInt(1, 12));
        for (const difficulty of [1, 2, 4, 7]) {
          // 1–3 leftover lanes too: the last lanes repeat the last candidate.
          const count = Math.min(sameLength(start, stride), randomInt(1, 400));
          const expected = reference(nonce, start, count, stride, 32 - difficulty);
          for (const hasher of hashers) {
            const found = hasher.run(start, count, stride, 32 - difficulty);
            const context = { nonce, start, stride, difficulty, count, simd: hasher.simd };
            expect({ ...context, found }).toEqual({ ...context, found: expected });
          }
        }
      }
    }
  });

  it('find a solution in whichever lane it falls, and only the first of a pass', async () => {
    const nonce = serverNonce();
    const prefix = utf8(`${nonce}:`);
    const simd = await wasmHasher(prefix);
    // Starts 0–3 put each candidate in each lane position; 1 bit solves about every other try,
    // so passes often hold several solutions and the lowest must win.
    for (let start = 0; start < 4; start++) {
      for (let count = 1; count <= 9; count++) {
        expect(simd.run(start, count, 1, 31)).toBe(reference(nonce, start, count, 1, 31));
      }
    }
  });

  it('search across digit-count boundaries (9 → 10, 99 → 100, …) like node:crypto', async () => {
    for (const boundary of [10, 100, 1000, 10_000, 100_000, 10 ** 9, 10 ** 15]) {
      const nonce = serverNonce();
      const prefix = utf8(`${nonce}:`);
      const simd = await wasmHasher(prefix);
      const twin = await wasmHasher(prefix, refuse);
      const start = Math.max(0, boundary - 7);
      for (const difficulty of [3, 6]) {
        const limit = start + 2000;
        const expected = reference(nonce, start, limit - start + 1, 1, 32 - difficulty);
        const found = expected < 0 ? undefined : start + expected;
        expect({ boundary, difficulty, found: search(simd, nonce, difficulty, start, limit) }).toEqual({
          boundary,
          difficulty,
          found,
        });
        expect(search(twin, nonce, difficulty, start, limit)).toBe(found);
      }
    }
  });

  it('hash tails of two blocks (long nonces) as well as of one', async () => {
    for (const length of [40, 47, 50, 54, 55, 60, 62, 100, 127, 200]) {
      const nonce = 'n'.repeat(length);
      const prefix = utf8(`${nonce}:`);
      for (const hasher of [await wasmHasher(prefix), await wasmHasher(prefix, refuse)]) {
        for (const start of [0, 123_456, 2 ** 52]) {
          const count = Math.min(sameLength(start, 3), 200);
          expect({ length, start, found: hasher.run(start, count, 3, 28) }).toEqual({
            length,
            start,
            found: reference(nonce, start, count, 3, 28),
          });
        }
      }
    }
  });
});

describe('SIMD and scalar return the same solution', () => {
  it('for the same nonce, difficulty and start (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: fc.constantFrom(...BASE62), minLength: 60, maxLength: 60 }),
        fc.integer({ min: 0, max: 2 ** 40 }),
        fc.integer({ min: 1, max: 12 }),
        async (body, start, difficulty) => {
          const nonce = `p1.${body}`;
          const prefix = utf8(`${nonce}:`);
          const limit = start + 4 * 2 ** difficulty;
          const simd = search(await wasmHasher(prefix), nonce, difficulty, start, limit);
          const scalar = search(await wasmHasher(prefix, refuse), nonce, difficulty, start, limit);
          expect(simd).toBe(scalar);
        },
      ),
      { numRuns: 40 },
    );
  });
});
