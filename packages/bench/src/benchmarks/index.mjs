/**
 * The benchmarks, in the order `pnpm bench` runs them and BENCHMARKS.md lists them: one module
 * per item of the benchmark issue. A module is `{ id, title, needs?, run(ctx) }`; `run`
 * resolves to `{ sections }`, each section a table (see lib/table.mjs) whose rows carry
 * `name, value, baseline, ratio, goal, met` (plus any columns the section declares).
 */
import powSolver from './01-pow-solver.mjs';
import widgetSize from './02-widget-size.mjs';
import timeTo202 from './03-time-to-202.mjs';
import serverThroughput from './04-server-throughput.mjs';
import listLatency from './05-list-latency.mjs';
import sqliteDriver from './06-sqlite-driver.mjs';
import clientOverhead from './07-client-overhead.mjs';
import webhookOutbox from './08-webhook-outbox.mjs';
import timeTo202Person from './09-time-to-202-person.mjs';
import attackerYield from './10-attacker-yield.mjs';
import solverThrottled from './11-solver-throttled.mjs';
import signInFlood from './12-sign-in-flood.mjs';

export const BENCHMARKS = [
  powSolver,
  widgetSize,
  timeTo202,
  serverThroughput,
  listLatency,
  sqliteDriver,
  clientOverhead,
  webhookOutbox,
  timeTo202Person,
  attackerYield,
  solverThrottled,
  signInFlood,
];
