/** Modules made by build/solver.ts (tsup and vitest alike). */

declare module 'virtual:waitlist-solver' {
  /** Self-contained: its source (`toString()`) runs as a worker's whole script. */
  const waitlistSolver: () => { connect: typeof import('./solver/engine.js').connect };
  export default waitlistSolver;
}

declare module 'virtual:pow-kernel' {
  /** The Proof of Work kernel's WebAssembly SIMD bytes (build/pow-kernel.ts), one character per byte (see kernelByte). */
  const bytes: string;
  export default bytes;
}

/**
 * Build constant: false in the script-tag file, which only runs in browsers, so its bundle
 * drops the Node code paths (worker_threads); true in the npm builds and in tests.
 */
declare const WAITLIST_NODE: boolean;
