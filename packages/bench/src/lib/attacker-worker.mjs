/**
 * One solving thread of the attacker (attacker.mjs): the widget's own `solvePow` from the built
 * package, run with `workers: 0` so the engine hashes on this thread (a worker_thread of the
 * attacker), one nonce at a time. The thread lives for the whole attack: the kernel is
 * instantiated per solve, as in the widget, but no thread is started per solve, as a careful
 * attacker would arrange.
 */
import { parentPort } from 'node:worker_threads';
import { solvePow } from '@waitlistkit/widget';

parentPort.on('message', async ({ id, nonce, difficulty }) => {
  const t0 = performance.now();
  let wasm = false;
  try {
    const solution = await solvePow(nonce, difficulty, {
      workers: 0,
      onProgress: (p) => {
        wasm = p.wasm;
      },
    });
    parentPort.postMessage({ id, solution, ms: performance.now() - t0, wasm });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error?.stack ?? error) });
  }
});
