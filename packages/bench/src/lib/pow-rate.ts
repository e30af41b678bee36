/**
 * The widget's Proof of Work solver measured as a visitor's browser runs it: `solvePow` from the
 * built package, with its own workers (Node worker_threads, the engine the browser runs in Blob
 * workers), on an unsolvable target for a fixed time. Items 1 and 10 share it; item 11 measures
 * the same way in Chromium, on the same nonce.
 */
import { type SolveOptions, solvePow } from '@waitlistkit/widget';

// The server's nonce shape: `nonce:` fills one SHA-256 block.
export const NONCE = 'p1.benchmark-nonce.of.sixty-three.characters.exactly.123456789x';

/** How long the workers may take to start (a busy machine) before the measurement fails. */
const STARTUP_MS = 10_000;

type Sample = [at: number, hashes: number, wasm: boolean, simd: boolean];

/**
 * The widget's solver on an unsolvable target: tries per second over `ms` counted from its
 * first progress report, so a slow start on a busy machine neither shortens nor skews the window.
 * `scalar`: the engine's `WebAssembly.validate` refuses the SIMD kernel, so it runs the scalar
 * twin (only engines on this thread see that: use it with `workers: 0`).
 */
export async function widgetRate(
  options: SolveOptions,
  ms: number,
  { scalar = false } = {},
): Promise<{ rate: number; wasm: boolean; simd: boolean }> {
  const samples: Sample[] = [];
  const controller = new AbortController();
  let timer = setTimeout(() => controller.abort(), STARTUP_MS + ms);
  const validate = WebAssembly.validate;
  if (scalar) WebAssembly.validate = () => false;
  const solved = await solvePow(NONCE, 32, {
    ...options,
    signal: controller.signal,
    onProgress: (p) => {
      if (samples.length === 0) {
        clearTimeout(timer);
        timer = setTimeout(() => controller.abort(), ms);
      }
      samples.push([performance.now(), p.hashes, p.wasm, p.simd]);
    },
  })
    .catch((error: unknown) => {
      if ((error as { code?: unknown }).code !== 'aborted') throw error;
    })
    .finally(() => {
      WebAssembly.validate = validate;
    });
  clearTimeout(timer);
  if (solved !== undefined) throw new Error('the fixed nonce has a 32-bit solution this early: pick another');
  const first = samples[0];
  const last = samples.at(-1);
  if (!first || !last || samples.length < 2)
    throw new Error(`the solver reported no progress within ${STARTUP_MS + ms} ms`);
  const [t0, h0] = first;
  const [t1, h1, wasm, simd] = last;
  if (t1 - t0 < ms / 4) throw new Error('too few progress reports to measure a rate');
  return { rate: ((h1 - h0) * 1000) / (t1 - t0), wasm, simd };
}
