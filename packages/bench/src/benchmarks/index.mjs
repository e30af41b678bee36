/**
 * The benchmarks, in the order `pnpm bench` runs them and BENCHMARKS.md lists them: one module
 * per item of the benchmark issue. A module is `{ id, title, needs?, run(ctx) }`; `run`
 * resolves to `{ sections }`, each section a table (see lib/table.mjs) whose rows carry
 * `name, value, baseline, ratio, goal, met` (plus any columns the section declares).
 *
 * Items 1–3 belong to the widget work: add their modules here (replace the `pending` entry by the
 * module's import) and the runner includes them in the tables, the goals summary and smoke mode.
 */
import serverThroughput from './04-server-throughput.mjs';
import listLatency from './05-list-latency.mjs';
import sqliteDriver from './06-sqlite-driver.mjs';
import clientOverhead from './07-client-overhead.mjs';

export const BENCHMARKS = [
  { id: '1', title: 'Proof of Work solver', pending: 'widget work' },
  { id: '2', title: 'Widget size', pending: 'widget work' },
  { id: '3', title: 'Time to 202 in Chromium', pending: 'widget work' },
  serverThroughput,
  listLatency,
  sqliteDriver,
  clientOverhead,
];
