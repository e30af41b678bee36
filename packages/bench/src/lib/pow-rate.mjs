/**
 * The widget's Proof of Work solver measured as a visitor's browser runs it: `solvePow` from the
 * built package, with its own workers (Node worker_threads, the engine the browser runs in Blob
 * workers), on an unsolvable target for a fixed time. Items 1 and 10 share it.
 */

// The server's nonce shape: `nonce:` fills one SHA-256 block.
export const NONCE = 'p1.benchmark-nonce.of.sixty-three.characters.exactly.123456789x';

/** The widget's solver on an unsolvable target for `ms`: tries per second after the first report. */
export async function widgetRate(solvePow, options, ms) {
  const samples = [];
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ms);
  const solved = await solvePow(NONCE, 32, {
    ...options,
    signal: controller.signal,
    onProgress: (p) => samples.push([performance.now(), p.hashes, p.wasm]),
  }).catch((error) => {
    if (error.code !== 'aborted') throw error;
  });
  clearTimeout(timer);
  if (solved !== undefined) throw new Error('the fixed nonce has a 32-bit solution this early: pick another');
  const [t0, h0] = samples[0];
  const [t1, h1, wasm] = samples.at(-1);
  if (t1 - t0 < ms / 4) throw new Error('too few progress reports to measure a rate');
  return { rate: ((h1 - h0) * 1000) / (t1 - t0), wasm };
}
