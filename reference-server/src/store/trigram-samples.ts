/**
 * Samples of search texts (./trigram-choice.ts), kept per database: each store draws its own
 * way, a few thousand rows, again every few minutes. A sample only chooses how to search:
 * minutes old, it changes no answer.
 */
import type { TrigramSample } from './trigram-choice.js';

/** How many search texts a sample draws, and how long it is used. */
export const SAMPLE_ROWS = 2000;
const SAMPLE_MS = 10 * 60 * 1000;

const samples = new WeakMap<object, { sample: Promise<TrigramSample>; at: number }>();

/** The sample kept for `database`, drawn with `draw` when missing, old, or failed. */
export function keptSample(database: object, draw: () => Promise<TrigramSample>): Promise<TrigramSample> {
  const now = performance.now();
  const current = samples.get(database);
  if (current && now - current.at < SAMPLE_MS) return current.sample;
  const sample = draw();
  samples.set(database, { sample, at: now });
  sample.catch(() => samples.delete(database));
  return sample;
}
