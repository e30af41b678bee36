/**
 * The reference server compiled from source with probes added: the group committer's
 * `commit(batch)` is timed, so a benchmark can ask how busy the single writer was under load, and
 * so are the statements the writer's connection runs meanwhile (from the call to its answer: the
 * thread pool's hand-off, SQLite's work, the fsync of a commit), so the rest of a commit is the
 * writer waiting for the server's own code on the main thread (SIGUSR2 makes the server print, on
 * stderr, one `COMMITTER_STATS {…}` line and reset). Nothing else changes: the probes wrap the
 * methods from outside the classes at start-up (see server-source.ts for how the source is bundled).
 */
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Scenario } from './scenarios.js';
import { bundleServerSource } from './server-source.js';
import type { BenchServer } from './servers.js';
import { statementTable, timeRow } from './statement-table.js';
import { fmtUs } from './stats.js';
import type { Section } from './table.js';
import { checkWrkRun, load, type WrkRun } from './wrk.js';

const ENTRY = `
import { Committer } from './store/sqlite/committer.ts';
import { Connection } from './store/sqlite/connection.ts';

type Method = (this: unknown, ...args: unknown[]) => Promise<unknown>;
const proto = Committer.prototype as unknown as { commit?: Method };
const original = proto.commit;
const statements = Connection.prototype as unknown as Record<'run' | 'all' | 'exec', Method | undefined>;
if (typeof original !== 'function' || ['run', 'all', 'exec'].some((m) => typeof statements[m] !== 'function')) {
  throw new Error('Committer#commit or Connection#run/all/exec is gone: update packages/bench/src/lib/instrumented-server.ts');
}
const fresh = () => ({ batches: 0, busyMs: 0, statementMs: 0, bySql: {} as Record<string, { ms: number; calls: number }> });
let stats = fresh();
// A statement's text on one line, its repeated placeholders folded (a group's VALUES list grows
// with the group), so one statement of any group size is one entry.
const sqlKey = (sql: unknown) =>
  String(sql).replace(/\\s+/g, ' ').replace(/(\\([?, ]*\\)(, )?)+/g, '(…)').trim().slice(0, 160);
const writers = new WeakSet<object>();
proto.commit = async function (this: { db: object }, ...args: unknown[]) {
  writers.add(this.db);
  const started = performance.now();
  try {
    return await original.apply(this, args);
  } finally {
    stats.batches++;
    stats.busyMs += performance.now() - started;
  }
};
for (const name of ['run', 'all', 'exec'] as const) {
  const method = statements[name] as Method;
  statements[name] = async function (this: object, ...args: unknown[]) {
    if (!writers.has(this)) return method.apply(this, args);
    const started = performance.now();
    try {
      return await method.apply(this, args);
    } finally {
      const ms = performance.now() - started;
      stats.statementMs += ms;
      const key = sqlKey(args[0]);
      const entry = (stats.bySql[key] ??= { ms: 0, calls: 0 });
      entry.ms += ms;
      entry.calls++;
    }
  };
}
process.on('SIGUSR2', () => {
  process.stderr.write('COMMITTER_STATS ' + JSON.stringify(stats) + '\\n');
  stats = fresh();
});

await import('./cli.ts');
`;

/**
 * Commits (batches) since the last ask, the milliseconds the committer spent in them, and the
 * milliseconds of those the writer's statements were in flight, in all and by statement (its text
 * on one line, placeholder lists folded, cut at 160 characters).
 */
export interface CommitterStats {
  batches: number;
  busyMs: number;
  statementMs: number;
  bySql: Record<string, { ms: number; calls: number }>;
}

/** Builds the probed server; resolves to the path of its entry script. */
export function buildInstrumentedServer(tmpDir: string): Promise<string> {
  return bundleServerSource(ENTRY, join(tmpDir, 'server-probed.mjs'));
}

/** Asks a probed server for its committer figures since the last ask. */
export async function committerStats(server: BenchServer): Promise<CommitterStats> {
  const before = server.output().length;
  process.kill(server.pid, 'SIGUSR2');
  for (let waited = 0; waited < 5_000; waited += 20) {
    const line = server
      .output()
      .slice(before)
      .split('\n')
      .find((l) => l.startsWith('COMMITTER_STATS '));
    if (line) return JSON.parse(line.slice('COMMITTER_STATS '.length)) as CommitterStats;
    await sleep(20);
  }
  throw new Error('the probed server printed no committer figures');
}

/** What the single writer did during one wrk run of a probed server. */
export interface WriterRun {
  run: WrkRun;
  stats: CommitterStats;
  /** The share of the run the committer was in a commit. */
  busy: number;
  /** The committer's milliseconds per answered request, in microseconds (a group is one commit). */
  perRequestUs: number;
}

/**
 * Warms a probed server up, then runs wrk for `seconds` and asks for the committer's figures of
 * that run alone: each ask waits out the commits in flight when wrk stopped, so no commit is
 * counted in a window without all of its statements.
 */
export async function writerRun(
  scenario: Scenario,
  { id, warmup, seconds }: { id: string; warmup: number; seconds: number },
): Promise<WriterRun> {
  if (warmup > 0) await load(scenario, { prefix: `${id}-warm`, seconds: warmup });
  await sleep(250);
  await committerStats(scenario.server);
  const run = await load(scenario, { prefix: `${id}-probe`, seconds });
  await sleep(250);
  const stats = await committerStats(scenario.server);
  checkWrkRun(`probed ${id}`, run, scenario.expected);
  return {
    run,
    stats,
    busy: Math.min(1, stats.busyMs / run.durationMs),
    perRequestUs: (stats.busyMs * 1000) / run.ok,
  };
}

/** Statements that only open, mark and end transactions. */
const CONTROL = /^(BEGIN|SAVEPOINT|RELEASE|COMMIT|ROLLBACK)\b/;

/**
 * A run's writer time per request in microseconds: in transaction control (BEGIN, SAVEPOINT,
 * RELEASE, COMMIT: a batch with more than one job, or with a job of several statements, is a
 * transaction of its own; a lone group of sign-ups is one statement that commits itself), and
 * in every other statement.
 */
export function writerSplit(writer: WriterRun): { controlUs: number; rowsUs: number } {
  let control = 0;
  for (const [query, t] of Object.entries(writer.stats.bySql)) if (CONTROL.test(query)) control += t.ms;
  const us = (ms: number) => (ms * 1000) / writer.run.ok;
  return { controlUs: us(control), rowsUs: us(writer.stats.statementMs - control) };
}

/**
 * The writer's statements per request in each run, side by side (statement-table.ts): from the
 * call to the answer, the thread pool's hand-off and the fsync of a commit included. Statements
 * that took less than 1 % of the writer's statement time in every run are left out.
 */
export function writerStatementsSection(
  title: string,
  intro: string,
  runs: readonly { label: string; writer: WriterRun }[],
): Section {
  const { columns, rows } = statementTable(
    runs.map(({ label, writer }) => ({
      label,
      requests: writer.run.ok,
      statements: Object.entries(writer.stats.bySql).map(([query, t]) => ({ query, ...t })),
    })),
    {
      time: (ms) => fmtUs(ms * 1000),
      sumLabel: 'the statements shown, per request',
      keep: (t, i) => {
        const writer = runs[i]?.writer;
        return writer !== undefined && t.ms * writer.run.ok >= writer.stats.statementMs / 100;
      },
    },
  );
  const perRequest = (ms: (w: WriterRun) => number) =>
    runs.map(({ writer }) => (ms(writer) * 1000) / writer.run.ok);
  return {
    title,
    intro,
    columns,
    rows: [
      ...rows,
      timeRow(
        "every statement of the writer's, per request",
        perRequest((w) => w.stats.statementMs),
        fmtUs,
      ),
      timeRow(
        "the committer's time in commits, per request",
        perRequest((w) => w.stats.busyMs),
        fmtUs,
      ),
    ],
  };
}
