/** Where the benchmarks find the workspace and their own files, wherever the bundle runs from. */
import { join } from 'node:path';
import { WORKSPACE_ROOT } from '@waitlistkit/testkit';

export { WORKSPACE_ROOT };

export const BENCH_ROOT = join(WORKSPACE_ROOT, 'packages/bench');

/** A script of the build (tsup.config.ts): a thread's or a process's entry point. */
export const distFile = (name: 'attacker-solver' | 'webhook-receiver' | 'smtp-sink' | 'hello') =>
  join(BENCH_ROOT, 'dist', `${name}.js`);
