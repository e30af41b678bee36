/**
 * `pnpm bench [--smoke] [--only 4,5]`: runs the benchmark modules of benchmarks/index.mjs in order,
 * prints each table as it is measured, and (full run of every module, no error) writes
 * BENCHMARKS.md at the repository root with the machine it ran on.
 *
 * --smoke  every benchmark briefly (tiny data, one short repetition), printed only: it exists so
 *          the test command runs each benchmark's code and they cannot rot. Never writes the file.
 * --only   a comma-separated list of item ids; printed only.
 *
 * A missed goal never fails the command; an error in a benchmark (a wrong answer, a crashed
 * server, a missing build) does, after the other benchmarks have run.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, release, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { BENCHMARKS } from './benchmarks/index.mjs';
import { CHROMIUM_PATH } from './lib/browser.mjs';
import { postgresInstalled } from './lib/postgres.mjs';
import { ROOT, requireBuilt } from './lib/proc.mjs';
import { renderSection } from './lib/table.mjs';
import { wrkVersion } from './lib/wrk.mjs';

const argv = process.argv.slice(2);
if (argv.includes('--help') || argv.includes('-h')) {
  process.stdout.write('usage: pnpm bench [--smoke] [--only 4,5,...]\n');
  process.exit(0);
}
const smoke = argv.includes('--smoke');
const onlyIndex = argv.indexOf('--only');
const only = onlyIndex >= 0 ? (argv[onlyIndex + 1] ?? '').split(',').filter(Boolean) : undefined;
const unknown = argv.filter(
  (a, i) => a !== '--smoke' && a !== '--only' && !(onlyIndex >= 0 && i === onlyIndex + 1),
);
if (unknown.length > 0) {
  process.stderr.write(
    `unknown argument(s): ${unknown.join(' ')}\nusage: pnpm bench [--smoke] [--only 4,5,...]\n`,
  );
  process.exit(2);
}

const require = createRequire(import.meta.url);

/**
 * System tools a benchmark may need, and the Debian package that provides each: all of the item
 * (`needs`), or some of its rows (`ctx.lacks(tool, what)`, e.g. the PostgreSQL rows of 4 and 5).
 */
const TOOLS = {
  wrk: { apt: 'wrk', present: () => wrkVersion() !== undefined },
  chromium: { apt: 'chromium', present: () => existsSync(CHROMIUM_PATH) },
  postgres: { apt: 'postgresql', present: postgresInstalled },
};
const presence = new Map();
/** Whether `tool` is installed, asked once per run. */
const present = async (tool) => {
  if (!presence.has(tool)) presence.set(tool, await TOOLS[tool].present());
  return presence.get(tool);
};

function sqliteVersions() {
  const out = {};
  try {
    const Better = require('better-sqlite3');
    const db = new Better(':memory:');
    out.better = db.prepare('SELECT sqlite_version() AS v').get().v;
    db.close();
  } catch {}
  return out;
}

/** The SQLite that the sqlite3 driver bundles (asynchronous, like everything in that driver). */
function sqlite3SqliteVersion() {
  return new Promise((resolve) => {
    try {
      const sqlite3 = require('sqlite3');
      const db = new sqlite3.Database(':memory:');
      db.get('SELECT sqlite_version() AS v', (error, row) => {
        db.close();
        resolve(error ? '?' : row.v);
      });
    } catch {
      resolve('?');
    }
  });
}

async function machine() {
  const cpu = cpus();
  return {
    cpu: cpu[0]?.model.trim() ?? 'unknown',
    cores: cpu.length,
    memory: `${Math.round(totalmem() / 2 ** 30)} GiB`,
    os: `${process.platform} ${release()}`,
    node: process.version,
    date: new Date().toISOString(),
    wrk: wrkVersion()?.replace(/\s*Copyright.*$/, '') ?? 'not installed',
    betterSqlite3: `${require('better-sqlite3/package.json').version} (SQLite ${sqliteVersions().better ?? '?'})`,
    sqlite3: `${require('sqlite3/package.json').version} (SQLite ${await sqlite3SqliteVersion()})`,
    load: loadavg()
      .map((l) => l.toFixed(2))
      .join(' '),
  };
}

// Interrupted (Ctrl-C), exit rather than die: the 'exit' handler of testkit's PostgreSQL cluster
// then stops it, so no server is left running.
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(130));

const started = performance.now();
const info = await machine();
const runDir = mkdtempSync(join(tmpdir(), 'waitlistkit-bench-'));
const shared = {};
const output = [];
const failures = [];
const skipped = [];

const out = (text) => {
  process.stdout.write(`${text}\n`);
  output.push(text);
};

process.stdout.write(
  `waitlistkit benchmarks${smoke ? ' (smoke: tiny sizes, one short repetition, nothing written)' : ''}\n` +
    `${info.cpu}, ${info.cores} cores, Node ${info.node}, load ${info.load}\n\n`,
);

try {
  requireBuilt();
  for (const bench of BENCHMARKS) {
    if (only && !only.includes(bench.id)) continue;
    let lacking;
    for (const tool of bench.needs ?? []) if (!lacking && !(await present(tool))) lacking = tool;
    if (lacking) {
      const reason = `item ${bench.id} (${bench.title}) needs ${lacking} (apt-get install -y ${TOOLS[lacking].apt})`;
      if (process.env.CI === 'true') {
        failures.push({ bench, error: new Error(`${reason}; CI must install it`) });
      } else {
        process.stderr.write(`skipped: ${reason}\n`);
        skipped.push(reason);
      }
      continue;
    }
    const t0 = performance.now();
    const ctx = {
      smoke,
      shared,
      root: ROOT,
      log: (message) => process.stderr.write(`[item ${bench.id}] ${message}\n`),
      tempDir(name) {
        const dir = join(runDir, `${bench.id}-${name}`);
        mkdirSync(dir, { recursive: true });
        return dir;
      },
      /**
       * Whether `tool` is missing for `what` (some rows of the item): undefined when it is
       * installed; otherwise a note for the item's table, and the run is told as for `needs`
       * (skipped, or in CI a failure once the item has run the rest).
       */
      async lacks(tool, what) {
        if (await present(tool)) return undefined;
        const reason = `item ${bench.id} (${bench.title}): ${what} need ${tool} (apt-get install -y ${TOOLS[tool].apt})`;
        if (process.env.CI === 'true') {
          failures.push({ bench, error: new Error(`${reason}; CI must install it`) });
        } else {
          process.stderr.write(`skipped: ${reason}\n`);
          skipped.push(reason);
        }
        return `${what}: skipped, ${tool} is not installed here (apt-get install -y ${TOOLS[tool].apt}).`;
      },
    };
    ctx.log(`${bench.title}…`);
    try {
      const result = await bench.run(ctx);
      for (const section of result.sections) out(renderSection(section));
      bench.seconds = (performance.now() - t0) / 1000;
      bench.result = result;
      ctx.log(`done in ${bench.seconds.toFixed(1)} s`);
    } catch (error) {
      failures.push({ bench, error });
      process.stderr.write(`[item ${bench.id}] FAILED: ${error?.stack ?? error}\n`);
    }
  }
} catch (error) {
  failures.push({ bench: { id: '-', title: 'runner' }, error });
  process.stderr.write(`FAILED: ${error?.stack ?? error}\n`);
} finally {
  rmSync(runDir, { recursive: true, force: true });
}

const goals = [];
for (const bench of BENCHMARKS) {
  for (const section of bench.result?.sections ?? []) {
    for (const row of section.rows) {
      // `goalRatio`: the figure the goal is judged on, when it is not the row's own ratio.
      if (row.goal)
        goals.push({ ...row, name: `${bench.id}: ${row.name}`, ratio: row.goalRatio ?? row.ratio });
    }
  }
}
const goalsTable = goals.length
  ? renderSection({
      title: 'Goals',
      columns: [
        { key: 'name', header: 'measurement' },
        { key: 'value', header: 'value' },
        { key: 'ratio', header: 'ratio to its baseline' },
        { key: 'goal', header: 'goal' },
        { key: 'met', header: 'met' },
      ],
      rows: goals,
    })
  : '';
if (goalsTable) out(goalsTable);

const seconds = (performance.now() - started) / 1000;
process.stdout.write(`\nbenchmarks ${failures.length ? 'FAILED' : 'done'} in ${seconds.toFixed(0)} s\n`);

const complete = !smoke && !only && failures.length === 0 && skipped.length === 0;
if (complete) {
  const file = join(ROOT, 'BENCHMARKS.md');
  writeFileSync(file, document());
  process.stdout.write(`wrote ${file}\n`);
} else if (!smoke && !only) {
  process.stdout.write('BENCHMARKS.md left as it was (the run was not complete).\n');
}
for (const { bench, error } of failures) {
  process.stderr.write(`item ${bench.id} (${bench.title}) failed: ${error?.message ?? error}\n`);
}
process.exitCode = failures.length > 0 ? 1 : 0;

function document() {
  const sections = [];
  for (const bench of BENCHMARKS) {
    for (const section of bench.result.sections) sections.push(renderSection(section));
  }
  return [
    '# Benchmarks',
    '',
    `Written by \`pnpm bench\` on ${info.date.slice(0, 10)} in ${Math.round(seconds)} s; do not edit by hand, run it again.`,
    'Every figure stands beside a baseline measured in the same run on the same machine; figures are',
    'medians of several runs and ratios the median of the per-run ratios, never a single absolute time.',
    'A shared, noisy 2-core machine moves absolute numbers by tens of percent from run to run; the',
    'ratios move much less. `pnpm bench --smoke` runs everything briefly and writes nothing.',
    '',
    '## Machine',
    '',
    '| | |',
    '|---|---|',
    `| CPU | ${info.cpu} |`,
    `| cores | ${info.cores} |`,
    `| memory | ${info.memory} |`,
    `| OS | ${info.os} |`,
    `| Node | ${info.node} |`,
    `| sqlite3 (the server's driver) | ${info.sqlite3} |`,
    `| better-sqlite3 (comparison only) | ${info.betterSqlite3} |`,
    `| wrk | ${info.wrk} |`,
    `| load average at start | ${info.load} |`,
    `| date | ${info.date} |`,
    '',
    goalsTable ? goalsTable.replace(/^### Goals/, '## Goals') : '',
    '## Results',
    '',
    ...sections,
  ].join('\n');
}
