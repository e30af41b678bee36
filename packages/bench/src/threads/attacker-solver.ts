/**
 * One solving thread of item 10's attacker (lib/attacker.ts): the widget's own `solvePow` from the
 * built package, run with `workers: 0` so the engine hashes on this thread, one nonce at a time.
 * The thread lives for the whole attack: the kernel is instantiated per solve, as in the widget,
 * but no thread is started per solve, as a careful attacker would arrange.
 */
import { parentPort } from 'node:worker_threads';
import { solvePow } from '@waitlistkit/widget';
import type { SolveReply, SolveRequest } from '../lib/attacker.js';

const port = parentPort;
if (!port) throw new Error('the attacker solver runs in a worker thread');

port.on('message', async ({ id, nonce, difficulty }: SolveRequest) => {
  const t0 = performance.now();
  let wasm = false;
  const reply = (message: SolveReply) => port.postMessage(message);
  try {
    const solution = await solvePow(nonce, difficulty, {
      workers: 0,
      onProgress: (p) => {
        wasm = p.wasm;
      },
    });
    reply({ id, solution, ms: performance.now() - t0, wasm });
  } catch (error) {
    reply({ id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
});
