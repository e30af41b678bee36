/**
 * The Proof of Work engine: searches `start, start + stride, …` for the first solution whose
 * SHA-256 digest of `nonce:solution` begins with `difficulty` zero bits.
 *
 * This file is bundled on its own into one function (see build/solver.ts) and must stay
 * self-contained: it runs inside a Blob worker, a Node worker, or on the main thread.
 */
import { utf8 } from '@waitlistkit/protocol';
import { type Hasher, jsHasher, wasmHasher } from './hasher.js';
import type { Job, Report, ToEngine } from './messages.js';

/** Tries between looks at the clock. */
const BATCH = 1024;

/**
 * The kernel when WebAssembly is allowed and it agrees with the JavaScript SHA-256 on a probe
 * (a broken engine must not make every proof fail), else JavaScript.
 */
export async function pickHasher(prefix: Uint8Array, js?: boolean): Promise<Hasher> {
  const slow = jsHasher(prefix);
  if (!js) {
    try {
      const fast = await wasmHasher(prefix);
      const probe = (h: Hasher) =>
        [1, 4, 8].map((bits) => h.run(9_007_199_254_740_000, 991, 1, 32 - bits)).join();
      if (probe(fast) === probe(slow)) return fast;
    } catch {
      // WebAssembly missing or forbidden by the page's CSP: the JavaScript SHA-256 takes over.
    }
  }
  return slow;
}

/**
 * One slice of the search: tries candidates until `slice` ms have passed, a solution is found, or
 * the candidates pass `limit`. Each run of the hasher stays within BATCH tries (so the clock is
 * read often enough); the hasher splits it where the digit count grows.
 */
export function searcher(hasher: Hasher, job: Job): (limit: number) => Omit<Report, 'wasm'> {
  const { stride, slice } = job;
  const shift = 32 - job.difficulty;
  let candidate = job.start;
  let done = 0;
  return (limit) => {
    const until = performance.now() + slice;
    do {
      // Candidates left before the limit.
      const count = Math.min(BATCH, Math.floor((limit - candidate) / stride) + 1);
      if (count <= 0) return { done, found: undefined, end: true };
      const index = hasher.run(candidate, count, stride, shift);
      if (index >= 0) {
        done += index + 1;
        return { done, found: candidate + index * stride };
      }
      done += count;
      candidate += count * stride;
    } while (performance.now() < until);
    return { done };
  };
}

/** Connects an engine to its coordinator: returns the function that receives its messages. */
export function connect(post: (report: Report) => void): (message: ToEngine) => void {
  let limit = Number.MAX_SAFE_INTEGER;
  let stopped = false;

  async function search(job: Job): Promise<void> {
    const hasher = await pickHasher(utf8(`${job.nonce}:`), job.js);
    const { wasm, simd } = hasher;
    const next = searcher(hasher, job);
    // Yield between slices so stop and limit messages get in (and, on the main thread, the
    // page stays live). Browsers: a MessageChannel task, free of setTimeout's 4 ms clamping.
    // Node: setImmediate, because a MessagePort there drains what is posted while it drains,
    // which starves timers and other ports.
    const channel = typeof setImmediate === 'function' ? undefined : new MessageChannel();
    try {
      while (!stopped) {
        const report = next(limit);
        post({ ...report, wasm, simd });
        if (report.found !== undefined || report.end) return;
        await new Promise((wake) => {
          if (!channel) return setImmediate(wake);
          channel.port1.onmessage = wake;
          channel.port2.postMessage(0);
        });
      }
    } finally {
      channel?.port1.close();
    }
  }

  return (message) => {
    if ('nonce' in message) {
      search(message).catch((error: unknown) => post({ done: 0, wasm: false, error: String(error) }));
    } else if ('limit' in message) {
      limit = Math.min(limit, message.limit);
    } else {
      stopped = true;
    }
  };
}
