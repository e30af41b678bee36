/**
 * Proof of Work, coordinated: the candidates are interleaved across engines (engine i of n
 * tries i, i + n, i + 2n, …). When one finds a solution, the others are told to stop above it
 * and finish their smaller candidates, so the answer is always the smallest solution, exactly
 * what one engine counting up from 0 would find, whatever the number of workers.
 */
import { AbortError } from '../core/errors.js';
import type { Job, Report } from './messages.js';
import { defaultThreads, type EnginePort, mainThreadSpawn, type Spawn, workerSpawn } from './spawn.js';

export interface PowProgress {
  difficulty: number;
  /** Candidates tried so far, over all engines. */
  hashes: number;
  /** Expected tries: 2^difficulty. */
  expected: number;
  /** Hashes per second since the start. */
  rate: number;
  /** Engines at work (0: the calling thread). */
  workers: number;
  /** Whether the engines run the WebAssembly kernel (else the JavaScript SHA-256). */
  wasm: boolean;
  /** Whether they run its SIMD version, four candidates per pass (engines with WebAssembly SIMD). */
  simd: boolean;
}

export interface SolveOptions {
  signal?: AbortSignal;
  onProgress?: (progress: PowProgress) => void;
  /**
   * Workers to use; 0 solves on the calling thread in slices of ~10 ms. Default: one per core
   * (at most 8), or the calling thread for difficulties up to 12, which take a few milliseconds.
   */
  workers?: number;
  /** Hash with the JavaScript SHA-256 even where WebAssembly is allowed. */
  js?: boolean;
  /** Where worker engines come from (tests); default Blob workers or Node's worker_threads. */
  spawn?: Spawn;
}

const MAIN_THREAD_SLICE_MS = 10;
const WORKER_SLICE_MS = 50;
const PROGRESS_INTERVAL_MS = 100;
/** Workers that have not said a word by then are presumed blocked; the main thread takes over. */
const STARTUP_TIMEOUT_MS = 8000;
const SMALL_DIFFICULTY = 12;

/** A worker failed or could not start; the main thread should solve instead. */
class WorkersFailed extends Error {}

function run(
  spawn: Spawn,
  engines: number,
  job: Omit<Job, 'start' | 'stride'>,
  options: SolveOptions,
  onThread: boolean,
): Promise<number> {
  const { signal, onProgress } = options;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new AbortError());
    const ports: EnginePort[] = [];
    const done: number[] = new Array(engines).fill(0);
    const finished: boolean[] = new Array(engines).fill(false);
    const started = Date.now();
    let open = engines;
    let best = Number.POSITIVE_INFINITY;
    let heard = false;
    let settled = false;
    let wasm = false;
    let simd = false;
    let reported = 0;

    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(watchdog);
      signal?.removeEventListener('abort', abort);
      for (const port of ports) port.close();
      outcome();
    };
    const fail = (error: unknown) => settle(() => reject(onThread ? error : new WorkersFailed()));
    const abort = () => settle(() => reject(new AbortError()));
    const watchdog = setTimeout(
      () => heard || fail(new Error('The solver did not start.')),
      STARTUP_TIMEOUT_MS,
    );
    signal?.addEventListener('abort', abort, { once: true });

    const progress = (force: boolean) => {
      const now = Date.now();
      if (!onProgress || (!force && now - reported < PROGRESS_INTERVAL_MS)) return;
      reported = now;
      const hashes = done.reduce((a, b) => a + b, 0);
      onProgress({
        difficulty: job.difficulty,
        hashes,
        expected: 2 ** job.difficulty,
        rate: Math.round((hashes * 1000) / Math.max(1, now - started)),
        workers: onThread ? 0 : engines,
        wasm,
        simd,
      });
    };

    const listen = (index: number) => (report: Report) => {
      if (settled) return;
      if (report.error !== undefined) return fail(new Error(report.error));
      heard = true;
      wasm = report.wasm;
      simd = !!report.simd;
      done[index] = report.done;
      if (report.found !== undefined && report.found < best) {
        best = report.found;
        for (const [other, port] of ports.entries())
          if (other !== index && !finished[other]) port.send({ limit: best });
      }
      const last = report.found !== undefined || report.end === true;
      if (last && !finished[index]) {
        finished[index] = true;
        open--;
      }
      progress(open === 0);
      if (open === 0) {
        settle(() =>
          Number.isFinite(best) ? resolve(best) : reject(new RangeError('No solution below 2^53.')),
        );
      }
    };

    for (let i = 0; i < engines && !settled; i++) {
      try {
        const port = spawn(listen(i), fail);
        ports.push(port);
        port.send({ ...job, start: i, stride: engines });
      } catch (error) {
        fail(error);
      }
    }
  });
}

/**
 * The smallest `solution` ≥ 0 such that SHA-256(`nonce:solution`) begins with `difficulty`
 * zero bits. Runs in workers when the runtime has them, else (or when they fail, e.g. a CSP
 * forbidding blob: workers) on the calling thread in slices. Rejects with `AbortError` when
 * `signal` aborts; the workers are terminated either way.
 */
export async function solvePow(
  nonce: string,
  difficulty: number,
  options: SolveOptions = {},
): Promise<number> {
  if (!Number.isInteger(difficulty) || difficulty < 1 || difficulty > 32) {
    throw new RangeError(`difficulty must be an integer from 1 to 32, got ${difficulty}`);
  }
  if (typeof nonce !== 'string' || nonce.length > 256)
    throw new RangeError('nonce must be a string of ≤ 256 characters');
  const job = { nonce, difficulty, js: options.js, slice: WORKER_SLICE_MS };
  const threads = options.workers ?? (difficulty <= SMALL_DIFFICULTY ? 0 : defaultThreads());
  const spawn = threads > 0 ? (options.spawn ?? workerSpawn()) : undefined;
  if (spawn) {
    try {
      return await run(spawn, threads, job, options, false);
    } catch (error) {
      if (!(error instanceof WorkersFailed)) throw error;
    }
  }
  return run(mainThreadSpawn, 1, { ...job, slice: MAIN_THREAD_SLICE_MS }, options, true);
}
