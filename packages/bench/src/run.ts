/**
 * `pnpm bench [--smoke] [--only 4,5]`: runs the benchmark modules of benchmarks/index.ts in order,
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
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI_PATH } from '@waitlistkit/testkit';
import { BENCHMARKS } from './benchmarks/index.js';
import type { Benchmark, Context, Shared, Tool } from './lib/bench.js';
import { machine } from './lib/machine.js';
import { WORKSPACE_ROOT } from './lib/paths.js';
import { benchmarksDocument, goalsTable, type ItemResult } from './lib/report.js';
import { renderSection } from './lib/table.js';
import { APT_PACKAGE, present } from './lib/tools.js';

const USAGE = 'usage: pnpm bench [--smoke] [--only 4,5,...]\n';
const argv = process.argv.slice(2);
if (argv.includes('--help') || argv.includes('-h')) {
  process.stdout.write(USAGE);
  process.exit(0);
}
const smoke = argv.includes('--smoke');
const onlyIndex = argv.indexOf('--only');
const only = onlyIndex >= 0 ? (argv[onlyIndex + 1] ?? '').split(',').filter(Boolean) : undefined;
const unknown = argv.filter(
  (a, i) => a !== '--smoke' && a !== '--only' && !(onlyIndex >= 0 && i === onlyIndex + 1),
);
if (unknown.length > 0) {
  process.stderr.write(`unknown argument(s): ${unknown.join(' ')}\n${USAGE}`);
  process.exit(2);
}

// Interrupted (Ctrl-C), exit rather than die: the 'exit' handlers of testkit's servers and
// PostgreSQL cluster then stop them, so no process is left running.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

const started = performance.now();
const info = await machine();
const runDir = mkdtempSync(join(tmpdir(), 'waitlistkit-bench-'));
const shared: Shared = {};
const results: ItemResult[] = [];
const failures: { bench: Pick<Benchmark, 'id' | 'title'>; error: unknown }[] = [];
const skipped: string[] = [];

const out = (text: string) => process.stdout.write(`${text}\n`);
const describe = (error: unknown) =>
  error instanceof Error ? (error.stack ?? error.message) : String(error);

/** A missing tool: skipped with the reason outside CI, a failure in CI (which must install it). */
function missing(bench: Benchmark, reason: string): void {
  if (process.env.CI === 'true') {
    failures.push({ bench, error: new Error(`${reason}; CI must install it`) });
  } else {
    process.stderr.write(`skipped: ${reason}\n`);
    skipped.push(reason);
  }
}

function context(bench: Benchmark): Context {
  return {
    smoke,
    shared,
    log: (message) => process.stderr.write(`[item ${bench.id}] ${message}\n`),
    tempDir(name) {
      const dir = join(runDir, `${bench.id}-${name}`);
      mkdirSync(dir, { recursive: true });
      return dir;
    },
    lacks(tool, what) {
      if (present(tool)) return undefined;
      missing(
        bench,
        `item ${bench.id} (${bench.title}): ${what} need ${tool} (apt-get install -y ${APT_PACKAGE[tool]})`,
      );
      return `${what}: skipped, ${tool} is not installed here (apt-get install -y ${APT_PACKAGE[tool]}).`;
    },
  };
}

process.stdout.write(
  `waitlistkit benchmarks${smoke ? ' (smoke: tiny sizes, one short repetition, nothing written)' : ''}\n` +
    `${info.cpu}, ${info.cores} cores, Node ${info.node}, load ${info.load}\n\n`,
);

try {
  if (!existsSync(CLI_PATH)) {
    throw new Error(`${CLI_PATH} is missing: build the server first (pnpm build).`);
  }
  for (const bench of BENCHMARKS) {
    if (only && !only.includes(bench.id)) continue;
    const lacking = bench.needs?.find((tool: Tool) => !present(tool));
    if (lacking) {
      missing(
        bench,
        `item ${bench.id} (${bench.title}) needs ${lacking} (apt-get install -y ${APT_PACKAGE[lacking]})`,
      );
      continue;
    }
    const ctx = context(bench);
    const t0 = performance.now();
    ctx.log(`${bench.title}…`);
    try {
      const { sections } = await bench.run(ctx);
      for (const section of sections) out(renderSection(section));
      results.push({ id: bench.id, sections });
      ctx.log(`done in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    } catch (error) {
      failures.push({ bench, error });
      process.stderr.write(`[item ${bench.id}] FAILED: ${describe(error)}\n`);
    }
  }
} catch (error) {
  failures.push({ bench: { id: '-', title: 'runner' }, error });
  process.stderr.write(`FAILED: ${describe(error)}\n`);
} finally {
  rmSync(runDir, { recursive: true, force: true });
}

const goals = goalsTable(results);
if (goals) out(goals);

const seconds = (performance.now() - started) / 1000;
process.stdout.write(`\nbenchmarks ${failures.length ? 'FAILED' : 'done'} in ${seconds.toFixed(0)} s\n`);

const complete = !smoke && !only && failures.length === 0 && skipped.length === 0;
if (complete) {
  const file = join(WORKSPACE_ROOT, 'BENCHMARKS.md');
  writeFileSync(file, benchmarksDocument(info, seconds, results));
  process.stdout.write(`wrote ${file}\n`);
} else if (!smoke && !only) {
  process.stdout.write('BENCHMARKS.md left as it was (the run was not complete).\n');
}
for (const { bench, error } of failures) {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`item ${bench.id} (${bench.title}) failed: ${message}\n`);
}
process.exitCode = failures.length > 0 ? 1 : 0;
