/**
 * What a benchmark module is: `{ id, title, needs?, run(ctx) }`, `run` resolving to the sections
 * (tables) it measured; what the runner gives it; what earlier modules leave for later ones.
 */
import type { Section } from './table.js';

/** System tools a benchmark may need (see tools.ts). */
export type Tool = 'wrk' | 'chromium' | 'postgres';

/** Figures an earlier item leaves for a later one's notes. */
export interface Shared {
  /** Item 4's median req/s by scenario id, for item 6's verdict. */
  throughputRps?: Record<string, number>;
}

export interface Context {
  smoke: boolean;
  shared: Shared;
  log(message: string): void;
  /** A folder of the run's temporary folder, removed after the run. */
  tempDir(name: string): string;
  /**
   * Whether `tool` is missing for `what` (some rows of the item): undefined when it is installed,
   * else a note to print in place of those rows (the run counts them as skipped, in CI as failed).
   */
  lacks(tool: Tool, what: string): string | undefined;
}

export interface Benchmark {
  id: string;
  title: string;
  /** Tools without which the whole item is skipped. */
  needs?: Tool[];
  run(ctx: Context): Promise<{ sections: Section[] }>;
}
