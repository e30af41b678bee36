/**
 * Messages between the solver's coordinator (main thread) and an engine (a worker, or the main
 * thread itself when workers are unavailable). Plain objects: they cross `postMessage`.
 */

/** Starts a search over `start, start + stride, start + 2 × stride, …`. */
export interface Job {
  nonce: string;
  difficulty: number;
  start: number;
  stride: number;
  /** Milliseconds of hashing between progress reports (and, on the main thread, between yields). */
  slice: number;
  /** Skip WebAssembly and hash with the JavaScript SHA-256 (tests, and forced fallbacks). */
  js?: boolean;
}

/** Stop once every remaining candidate is above `limit`: another engine found `limit`. */
export interface Limit {
  limit: number;
}

export interface Stop {
  stop: true;
}

export type ToEngine = Job | Limit | Stop;

export interface Report {
  /** Candidates tried so far in this job. */
  done: number;
  /** Which SHA-256 the engine runs. */
  wasm: boolean;
  /** Its SIMD kernel, four candidates per pass. */
  simd?: boolean;
  /** The smallest solution of this engine's candidates, when found. */
  found?: number;
  /** The engine finished without a solution below its limit. */
  end?: true;
  /** The engine failed; the coordinator falls back to the main thread. */
  error?: string;
}
