import { createHash, randomInt } from 'node:crypto';
import { createContext, runInContext } from 'node:vm';
import vectors from '@waitlistkit/protocol/vectors/pow.json';
import { createSHA256 } from 'hash-wasm';
import { describe, expect, it, vi } from 'vitest';
import { AbortedError } from '../src/core/renamed.js';
import { connect, pickHasher, searcher } from '../src/solver/engine.js';
import { jsHasher, wasmHasher } from '../src/solver/hasher.js';
import type { Report } from '../src/solver/messages.js';
import { type PowProgress, solvePow } from '../src/solver/solve.js';
import { blobWorkerSource, type NodeWorker, nodeWorkers, type Spawn } from '../src/solver/spawn.js';

const utf8 = (text: string) => new TextEncoder().encode(text);
const nodeDigest = (input: string) => createHash('sha256').update(input, 'utf8').digest();
/** Independent check of a solution: node:crypto, not our SHA-256. */
const leadingZeros = (digest: Buffer) => {
  let bits = 0;
  for (const byte of digest) {
    if (byte) return bits + Math.clz32(byte) - 24;
    bits += 8;
  }
  return bits;
};
const clears = (nonce: string, solution: number, difficulty: number) =>
  leadingZeros(nodeDigest(`${nonce}:${solution}`)) >= difficulty;

/** The first candidate from `start` (within `count`, stepping by `stride`) that clears `bits`, by node:crypto. */
function reference(nonce: string, start: number, count: number, stride: number, bits: number): number {
  for (let i = 0; i < count; i++) if (clears(nonce, start + i * stride, bits)) return i;
  return -1;
}

/** The kernel's i32 twin: what engines without WebAssembly SIMD run. */
const twinHasher = (prefix: Uint8Array) => wasmHasher(prefix, () => false);

describe('hashers: the WebAssembly kernel (SIMD and its i32 twin) and the JavaScript SHA-256', () => {
  it('hash the protocol vectors as node:crypto and hash-wasm do', async () => {
    const independent = await createSHA256();
    for (const { nonce, solution, digest, leading_zero_bits } of vectors.digests) {
      expect(nodeDigest(`${nonce}:${solution}`).toString('hex')).toBe(digest);
      expect(independent.init().update(`${nonce}:${solution}`).digest('hex')).toBe(digest);
      const prefix = utf8(`${nonce}:`);
      // A single try reaching the vector's own bit count succeeds, one bit more fails.
      for (const hasher of [jsHasher(prefix), await wasmHasher(prefix), await twinHasher(prefix)]) {
        if (leading_zero_bits > 0 && leading_zero_bits <= 32) {
          expect(hasher.run(solution, 1, 1, 32 - leading_zero_bits)).toBe(0);
        }
        if (leading_zero_bits < 31) expect(hasher.run(solution, 1, 1, 31 - leading_zero_bits)).toBe(-1);
      }
    }
  });

  it('find the same first candidate as node:crypto for every prefix length up to 256 and any stride', async () => {
    const pool = [...'abcXYZ019-_.~é中😀'];
    for (let length = 0; length <= 256; length += length < 70 ? 1 : 7) {
      let nonce = '';
      while (nonce.length < length) nonce += pool[randomInt(pool.length)];
      nonce = nonce.slice(0, length);
      const prefix = utf8(`${nonce}:`);
      const js = jsHasher(prefix);
      const wasm = await wasmHasher(prefix);
      const twin = await twinHasher(prefix);
      for (const [start, stride] of [
        [0, 1],
        [randomInt(1000, 9000), 3],
        [randomInt(2 ** 40), 8],
        [Number.MAX_SAFE_INTEGER - 10, 1],
      ] as const) {
        // Within one digit count, and never past 2^53 − 1 (as the engine's limit guarantees).
        const sameLength = Math.min(
          300,
          Math.floor((10 ** String(start).length - 1 - start) / stride) + 1,
          Math.floor((Number.MAX_SAFE_INTEGER - start) / stride) + 1,
        );
        const expected = reference(nonce, start, sameLength, stride, 6);
        expect({ length, start, js: js.run(start, sameLength, stride, 26) }).toEqual({
          length,
          start,
          js: expected,
        });
        expect({ length, start, wasm: wasm.run(start, sameLength, stride, 26) }).toEqual({
          length,
          start,
          wasm: expected,
        });
        expect({ length, start, twin: twin.run(start, sameLength, stride, 26) }).toEqual({
          length,
          start,
          twin: expected,
        });
      }
    }
  });

  it('step the digits across carries (…999 → …000) within one run', async () => {
    const nonce = 'p1.carries'.padEnd(63, 'c');
    const wasm = await wasmHasher(utf8(`${nonce}:`));
    const twin = await twinHasher(utf8(`${nonce}:`));
    const js = jsHasher(utf8(`${nonce}:`));
    // 1999..9999 by 7: many carries over several places, never a new place.
    const expected = reference(nonce, 1999, 1143, 7, 10);
    expect(wasm.run(1999, 1143, 7, 22)).toBe(expected);
    expect(twin.run(1999, 1143, 7, 22)).toBe(expected);
    expect(js.run(1999, 1143, 7, 22)).toBe(expected);
  });

  it('use the kernel unless told to use JavaScript', async () => {
    expect((await pickHasher(utf8('abc:'))).wasm).toBe(true);
    expect((await pickHasher(utf8('abc:'), true)).wasm).toBe(false);
  });
});

describe('search (one engine, synchronous slices)', () => {
  const first = (nonce: string, difficulty: number, js: boolean) =>
    pickHasher(utf8(`${nonce}:`), js).then((hasher) => {
      const next = searcher(hasher, { nonce, difficulty, start: 0, stride: 1, slice: 1000 });
      for (;;) {
        // Bounded: well past every vector's solution.
        const report = next(2 ** 22);
        if (report.found !== undefined || report.end) return report;
      }
    });

  it('finds the first solution of every threshold vector, with either SHA-256', async () => {
    for (const { nonce, difficulty, solution } of vectors.thresholds
      .filter((t) => t.first_for >= 1 && t.first_for <= 18)
      .map((t) => ({ nonce: t.nonce, difficulty: t.first_for, solution: t.solution }))) {
      for (const js of [false, true]) {
        const report = await first(nonce, difficulty, js);
        expect(report.found).toBe(solution);
        expect(report.done).toBe(solution + 1);
      }
    }
  });

  it('stops without a solution once its candidates pass the limit', async () => {
    const hasher = await pickHasher(utf8('vector-search:'));
    const next = searcher(hasher, {
      nonce: 'vector-search',
      difficulty: 18,
      start: 0,
      stride: 1,
      slice: 1000,
    });
    expect(next(1000)).toEqual({ done: 1001, found: undefined, end: true });
  });

  it('agrees with the protocol verify vectors (checked with node:crypto)', () => {
    for (const { nonce, solution, difficulty, valid } of vectors.verify) {
      if (typeof solution !== 'number' || !Number.isSafeInteger(solution) || solution < 0) continue;
      if (!Number.isInteger(difficulty) || difficulty < 1 || difficulty > 32) continue;
      expect(clears(nonce, solution, difficulty)).toBe(valid);
    }
  });
});

describe('engine messages', () => {
  it('reports progress and its solution, and obeys a limit sent while it runs', async () => {
    const reports: Report[] = [];
    const finished = new Promise<void>((resolve) => {
      const receive = connect((report) => {
        reports.push(report);
        if (report.found !== undefined || report.end) resolve();
      });
      receive({ nonce: 'vector-search', difficulty: 32, start: 0, stride: 1, slice: 5 });
      receive({ limit: 5000 });
    });
    await finished;
    const last = reports.at(-1) as Report;
    expect(last).toMatchObject({ end: true, wasm: true, simd: true });
    expect(last.done).toBe(5001);
  });
});

describe('engine hosts', () => {
  it('the Blob worker script runs as a whole worker script, in a global scope of its own', async () => {
    const reports: Report[] = [];
    const done = new Promise<void>((resolve) => {
      const scope: Record<string, unknown> = {
        postMessage: (report: Report) => {
          reports.push(report);
          if (report.found !== undefined) resolve();
        },
        // What a worker's global scope offers the engine (a fresh vm context has only the JS builtins).
        TextEncoder,
        performance,
        MessageChannel,
        atob,
        WebAssembly,
      };
      const context = createContext(scope);
      runInContext(blobWorkerSource(), context);
      (scope.onmessage as (event: { data: unknown }) => void)({
        data: { nonce: 'vector-search', difficulty: 14, start: 0, stride: 1, slice: 2 },
      });
    });
    await done;
    expect(reports.at(-1)).toMatchObject({ found: 3769, wasm: true });
  });

  it('yields through a MessageChannel where there is no setImmediate (browsers)', async () => {
    vi.stubGlobal('setImmediate', undefined);
    try {
      const reports: Report[] = [];
      await new Promise<void>((resolve) => {
        const receive = connect((report) => {
          reports.push(report);
          if (report.found !== undefined) resolve();
        });
        receive({ nonce: 'vector-search', difficulty: 18, start: 0, stride: 1, slice: 1, js: true });
      });
      expect(reports.at(-1)).toMatchObject({ found: 66069, done: 66070, wasm: false });
      expect(reports.length).toBeGreaterThan(1);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('solvePow', () => {
  it('returns the smallest solution, whatever the number of workers (the split covers the space)', async () => {
    const cases = [
      { difficulty: 18, solution: 66069, workers: 1 },
      { difficulty: 18, solution: 66069, workers: 3 },
      { difficulty: 19, solution: 418426, workers: 2 },
      { difficulty: 21, solution: 1198816, workers: 4 },
    ];
    for (const { difficulty, solution, workers } of cases) {
      const found = await solvePow('vector-search', difficulty, { workers });
      expect(found).toBe(solution);
      expect(clears('vector-search', found, difficulty)).toBe(true);
    }
  });

  it('solves real 63-character nonces, checked independently with node:crypto', async () => {
    for (let i = 0; i < 4; i++) {
      const nonce = `p1.${randomInt(2 ** 40).toString(36)}.`.padEnd(63, 'x');
      const difficulty = 14 + i;
      const found = await solvePow(nonce, difficulty, { workers: 2, js: i % 2 === 1 });
      expect(clears(nonce, found, difficulty)).toBe(true);
      // The smallest: no smaller candidate clears the target.
      for (let smaller = Math.max(0, found - 200); smaller < found; smaller++) {
        expect(clears(nonce, smaller, difficulty)).toBe(false);
      }
    }
  });

  it('gives the same answer with the kernel, with JavaScript and on the calling thread', async () => {
    const nonce = 'p1.agreement'.padEnd(63, '-');
    const answers = await Promise.all([
      solvePow(nonce, 17, { workers: 2 }),
      solvePow(nonce, 17, { workers: 2, js: true }),
      solvePow(nonce, 17, { workers: 0 }),
      solvePow(nonce, 17, { workers: 0, js: true }),
    ]);
    expect(new Set(answers).size).toBe(1);
  });

  it('reports progress: hashes, expected work, rate, workers, engine', async () => {
    const reports: PowProgress[] = [];
    await solvePow('vector-search', 21, { workers: 2, onProgress: (p) => reports.push(p) });
    const last = reports.at(-1) as PowProgress;
    expect(last).toMatchObject({ difficulty: 21, expected: 2 ** 21, workers: 2, wasm: true, simd: true });
    expect(last.hashes).toBeGreaterThanOrEqual(1198816);
    expect(last.rate).toBeGreaterThan(0);
    for (let i = 1; i < reports.length; i++) {
      expect((reports[i] as PowProgress).hashes).toBeGreaterThanOrEqual(
        (reports[i - 1] as PowProgress).hashes,
      );
    }
  });

  it('terminates its workers when cancelled', async () => {
    const workers: NodeWorker[] = [];
    const spawn = nodeWorkers((worker) => workers.push(worker)) as Spawn;
    const controller = new AbortController();
    const exits: Promise<void>[] = [];
    const solving = solvePow('vector-search', 32, {
      workers: 3,
      spawn,
      signal: controller.signal,
      onProgress: () => controller.abort(),
    });
    await expect(solving).rejects.toBeInstanceOf(AbortedError);
    expect(workers).toHaveLength(3);
    for (const worker of workers) exits.push(new Promise((resolve) => worker.once('exit', () => resolve())));
    await Promise.all(exits);
  });

  it('terminates its workers when it finishes', async () => {
    const workers: NodeWorker[] = [];
    const spawn = nodeWorkers((worker) => workers.push(worker)) as Spawn;
    const exits: Promise<void>[] = [];
    const spawnAndWatch: Spawn = (onReport, onError) => {
      const port = spawn(onReport, onError);
      const worker = workers.at(-1) as NodeWorker;
      exits.push(new Promise((resolve) => worker.once('exit', () => resolve())));
      return port;
    };
    expect(await solvePow('vector-search', 15, { workers: 2, spawn: spawnAndWatch })).toBe(66069);
    await Promise.all(exits);
  });

  it('leaves timers and events running while it solves on the calling thread', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    const controller = new AbortController();
    // A solver that starved the event loop would never see this timer fire.
    setTimeout(() => controller.abort(), 300);
    await expect(
      solvePow('vector-search', 32, { workers: 0, signal: controller.signal }),
    ).rejects.toBeInstanceOf(AbortedError);
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(5);
  });

  it('rejects at once when the signal has already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(solvePow('x', 20, { signal: controller.signal })).rejects.toBeInstanceOf(AbortedError);
  });

  it('solves on the calling thread when workers cannot be created (CSP forbidding blob: workers)', async () => {
    const refused: Spawn = () => {
      throw new DOMException('Refused by the Content Security Policy', 'SecurityError');
    };
    const reports: PowProgress[] = [];
    expect(
      await solvePow('vector-search', 18, { workers: 4, spawn: refused, onProgress: (p) => reports.push(p) }),
    ).toBe(66069);
    expect(reports.at(-1)?.workers).toBe(0);
  });

  it('solves on the calling thread when workers fail as they start', async () => {
    const failing: Spawn = (_onReport, onError) => {
      setTimeout(() => onError(new Error('blocked')), 1);
      return { send: () => {}, close: () => {} };
    };
    expect(await solvePow('vector-search', 14, { workers: 2, spawn: failing })).toBe(3769);
  });

  it('refuses difficulties outside 1..32 and nonces over 256 characters', async () => {
    for (const difficulty of [0, 33, 1.5, Number.NaN]) {
      await expect(solvePow('abc', difficulty)).rejects.toBeInstanceOf(RangeError);
    }
    await expect(solvePow('x'.repeat(257), 8)).rejects.toBeInstanceOf(RangeError);
  });
});
