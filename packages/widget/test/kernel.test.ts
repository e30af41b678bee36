/**
 * The Proof of Work kernel in its two forms, SIMD (four candidates per pass) and its i32 twin
 * (engines without WebAssembly SIMD), against node:crypto and against each other.
 */
import { createHash, randomInt } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { POW_KERNEL_SCALAR_WAT, POW_KERNEL_WAT, powKernel } from '../build/pow-kernel.js';
import { connect, searcher } from '../src/solver/engine.js';
import { type Hasher, jsHasher, wasmHasher } from '../src/solver/hasher.js';
import { LANES, ROUND_CONSTANTS, STATE, TAIL } from '../src/solver/kernel-layout.js';
import type { Report } from '../src/solver/messages.js';
import { scalarKernel } from '../src/solver/scalar.js';

const utf8 = (text: string) => new TextEncoder().encode(text);
const refuse = () => false;
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
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
  it('agree with node:crypto on server-shaped nonces, random starts and strides, every lane count, across digit counts', async () => {
    for (let trial = 0; trial < 12; trial++) {
      const nonce = serverNonce();
      const prefix = utf8(`${nonce}:`);
      const hashers = [await wasmHasher(prefix), await wasmHasher(prefix, refuse)];
      for (const stride of [1, 2, 3, 8]) {
        // Every other trial starts just below a power of ten, so the run gains a digit.
        const power = 10 ** randomInt(1, 12);
        const start = trial % 2 ? randomInt(power) : Math.max(0, power - randomInt(1, 400));
        for (const difficulty of [1, 2, 4, 7]) {
          // 1–3 leftover lanes too: the last lanes repeat the last candidate.
          const count = randomInt(1, 400);
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

describe('every tail layout and every digit carry, lane by lane (deterministic)', () => {
  /**
   * The steps to X = 10^(L−1) + 10^k for each digit count L and k < L places (…9 → …0 carried over
   * k places, within L digits), and to X = 10^L (a new digit), up to 2^53.
   */
  const carries: number[] = [];
  for (let length = 1; length <= 16; length++) {
    for (let places = 1; places <= length; places++) {
      const step = places < length ? 10 ** (length - 1) + 10 ** places : 10 ** length;
      if (step < Number.MAX_SAFE_INTEGER) carries.push(step);
    }
  }

  it('the steps cover every carry of 1 to 15 places and every digit count from 1 to 16', () => {
    expect(carries).toHaveLength(135);
    expect(new Set(carries.map((x) => String(x - 1).length))).toEqual(new Set(range(1, 16)));
  });

  it("writes each lane's message words where its rounds read them, and no byte of the tail but the digits", {
    timeout: 60_000,
  }, async () => {
    // The kernel itself, within one digit count per call (what runs() in hasher.ts gives it): after
    // a call, the schedules hold the last pass's message words, lane by lane.
    const { instance } = await WebAssembly.instantiate(await powKernel());
    const kernel = instance.exports as unknown as {
      m: WebAssembly.Memory;
      search(...args: number[]): number;
    };
    const memory = new Uint8Array(kernel.m.buffer);
    const view = new DataView(kernel.m.buffer);
    // State and K: any bytes will do here (the digests are not checked), but they must stay.
    for (let i = STATE; i < LANES; i++) memory[i] = (i * 7) & 255;
    const before = {
      state: memory.slice(STATE, STATE + 128),
      constants: memory.slice(ROUND_CONSTANTS, LANES),
    };
    for (let rest = 0; rest < 64; rest++) {
      // The prefix's bytes after its whole blocks, as the tail starts with them.
      const partial = utf8(`${'w'.repeat(63 + rest)}:`).subarray(64);
      /** The padded tail of candidate n, as hasher.ts writes it. */
      const tail = (n: number) => {
        const digits = String(n);
        const bytes = new Uint8Array(128);
        const used = rest + digits.length;
        const blocks = used + 9 > 64 ? 2 : 1;
        bytes.set(partial);
        for (let i = 0; i < digits.length; i++) bytes[rest + i] = digits.charCodeAt(i);
        bytes[used] = 0x80;
        new DataView(bytes.buffer).setUint16(blocks * 64 - 2, (64 + used) * 8);
        return { bytes, blocks, digits };
      };
      // The strides, carries and lanes of the test below.
      const stride = rest & 4 ? 7 : 1;
      for (const carry of carries) {
        for (let ahead = 1; ahead <= 4; ahead++) {
          const start = carry - ahead * stride;
          if (start < 0) continue;
          // Past the carry and one more, or, where the carry adds a digit, up to the last before it
          // (the kernel takes one digit count per call).
          let count = ahead + 2;
          while (String(start + (count - 1) * stride).length > String(start).length) count--;
          const first = tail(start);
          memory.fill(0xaa, LANES, LANES + 2048);
          memory.set(first.bytes, TAIL);
          // Shift 0: no digest passes (only a first word of 0 would), so every pass runs.
          const found = kernel.search(rest, first.digits.length, first.blocks, count, stride, 0, 4);
          if (found !== -1) expect({ rest, start, count, found }).toEqual({ rest, start, count, found: -1 });
          // The last pass: lane j holds candidate base + j, the lanes past the last repeating it.
          const base = Math.ceil(count / 4) * 4 - 4;
          for (let lane = 0; lane < 4; lane++) {
            const expected = tail(start + Math.min(base + lane, count - 1) * stride);
            const want = new DataView(expected.bytes.buffer);
            for (let word = 0; word < 16 * first.blocks; word++) {
              const at = LANES + 1024 * (word >> 4) + 16 * (word & 15) + 4 * lane;
              if (view.getUint32(at, true) !== want.getUint32(4 * word)) {
                const context = { rest, start, count, stride, lane, word };
                expect({ ...context, found: view.getUint32(at, true) }).toEqual({
                  ...context,
                  found: want.getUint32(4 * word),
                });
              }
            }
          }
          // The tail holds the last candidate: the digits stepped in place, nothing else changed.
          const last = tail(start + (count - 1) * stride).bytes;
          if (Buffer.compare(memory.subarray(TAIL, TAIL + 128), last) !== 0) {
            expect({ rest, start, count, tail: [...memory.slice(TAIL, TAIL + 128)] }).toEqual({
              rest,
              start,
              count,
              tail: [...last],
            });
          }
        }
      }
    }
    // The first block's state and K: read, never written.
    expect(memory.slice(STATE, STATE + 128)).toEqual(before.state);
    expect(memory.slice(ROUND_CONSTANTS, LANES)).toEqual(before.constants);
  });

  it('find what node:crypto finds in each lane, for every offset of the digits in the tail', {
    timeout: 60_000,
  }, async () => {
    // `nonce:` of 64 to 127 bytes: the digits start at each of the 64 offsets of the tail's first
    // block, so their words straddle every alignment and, with the padding, the tail takes one
    // block or two. (63 characters, the server's nonces, put the digits at address 0.)
    for (let rest = 0; rest < 64; rest++) {
      const nonce = `p1.${'lane-by-lane.'.repeat(10)}`.slice(0, 63 + rest);
      const prefix = utf8(`${nonce}:`);
      const simd = await wasmHasher(prefix);
      const others = [await wasmHasher(prefix, refuse), jsHasher(prefix)];
      // Leading zero bits of each candidate's first word, by node:crypto from the prefix's state.
      const state = createHash('sha256').update(prefix);
      const zeros = new Map<number, number>();
      const clz = (n: number) => {
        let bits = zeros.get(n);
        if (bits === undefined) {
          bits = Math.clz32(state.copy().update(String(n)).digest().readUInt32BE(0));
          zeros.set(n, bits);
        }
        return bits;
      };
      const check = (hasher: Hasher, start: number, count: number, stride: number, difficulty: number) => {
        let expected = -1;
        for (let i = count - 1; i >= 0; i--) if (clz(start + i * stride) >= difficulty) expected = i;
        const found = hasher.run(start, count, stride, 32 - difficulty);
        if (found !== expected) {
          const context = { nonce, start, count, stride, difficulty, simd: hasher.simd, wasm: hasher.wasm };
          expect({ ...context, found }).toEqual({ ...context, found: expected });
        }
      };
      // Steps of 1, and of 7 (more than one carried in at the last digit) for half the offsets,
      // four in a row so that each alignment in a word has both.
      const stride = rest & 4 ? 7 : 1;
      for (const carry of carries) {
        // The first candidate past the carry in lane 1, 2 or 3 of the first pass, or lane 0 of the
        // second.
        for (let before = 1; before <= 4; before++) {
          const start = carry - before * stride;
          if (start < 0) continue;
          // The run ends at candidate `lane` (the pass's later lanes repeat it), and the difficulty
          // is one bit more than any candidate before it has: that lane's digest decides. Where it
          // has more, its exact count of leading zero bits is checked too.
          let most = 0;
          for (let lane = 0; lane <= before + 1; lane++) {
            const bits = clz(start + lane * stride);
            for (const difficulty of new Set(bits > most ? [most + 1, bits, bits + 1] : [most + 1])) {
              if (difficulty <= 32) check(simd, start, lane + 1, stride, difficulty);
            }
            most = Math.max(most, bits);
          }
          // The twin and JavaScript hash one candidate per pass: one run across the carry.
          if (before === 4) for (const hasher of others) check(hasher, start, 8, stride, most + 1);
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
