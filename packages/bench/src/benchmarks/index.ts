/**
 * The benchmarks, in the order `pnpm bench` runs them and BENCHMARKS.md lists them: one module
 * per item of the benchmark issue (lib/bench.ts says what a module is, lib/table.ts what it returns).
 */

import type { Benchmark } from '../lib/bench.js';
import powSolver from './01-pow-solver.js';
import widgetSize from './02-widget-size.js';
import timeTo202 from './03-time-to-202.js';
import serverThroughput from './04-server-throughput.js';
import listLatency from './05-list-latency.js';
import sqliteDriver from './06-sqlite-driver.js';
import clientOverhead from './07-client-overhead.js';
import webhookOutbox from './08-webhook-outbox.js';
import timeTo202Person from './09-time-to-202-person.js';
import attackerYield from './10-attacker-yield.js';
import solverThrottled from './11-solver-throttled.js';
import signInFlood from './12-sign-in-flood.js';
import importList from './13-import.js';
import stats from './14-stats.js';

export const BENCHMARKS: readonly Benchmark[] = [
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
  importList,
  stats,
];
