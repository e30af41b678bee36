/**
 * Item 10: attacker yield. One client IP (this machine, over loopback) signs up distinct addresses
 * as fast as it can for 5 minutes against a waitlist with the default gates (Challenge on, min age
 * 1,500 ms; Proof of Work on, difficulty 18; per-IP budget 60 requests a minute), solving with
 * the widget's own WebAssembly kernel on a worker thread per core (lib/attacker.ts), once with
 * `--pow-adaptive off` (the baseline) and then with it on. Its best strategy is to hoard gate sets
 * (`POST …/gates`) before it signs up; a second run with adaptive on shows the attacker that
 * only fetches the next gates while it solves. Each run has its own database and server.
 *
 * The other side: what a person behind an address that others already signed up from (an office
 * or a carrier's NAT) would wait, from the difficulty the server's own rule
 * (reference-server/src/domain/pow-difficulty.ts, bundled from source) assigns the 4th, 8th and
 * 16th sign-up, at the widget's hash rate measured in this run with one worker and with two.
 *
 * `BENCH_ATTACKER_SECONDS` shortens the full run's attacks (a trial); `--smoke` attacks for 3 s
 * each at a base difficulty of 12 and a min age of 100 ms, and checks the same things: sign-ups
 * accepted, every nonce priced as the rule says, the first three at the base, growth with
 * adaptive on, and the database holding exactly the accepted sign-ups.
 */
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { seedTenant } from '@waitlistkit/testkit';
import { type AttackResult, attack } from '../lib/attacker.js';
import type { Benchmark } from '../lib/bench.js';
import { cpuSeconds } from '../lib/cpu.js';
import { widgetRate } from '../lib/pow-rate.js';
import { ORIGIN } from '../lib/scenarios.js';
import { countSubscribers } from '../lib/seed.js';
import { importServerSource } from '../lib/server-source.js';
import { startBenchServer } from '../lib/servers.js';
import { fmtMhs, fmtPct, fmtRatio, median, metCell } from '../lib/stats.js';
import type { Row } from '../lib/table.js';

const GOAL_RATIO = 1 / 5;
const IP_LIMIT = 60; // the waitlist default, docs/protocol.md#throttles-and-budgets
const NAT_PEOPLE = [1, 4, 8, 16];

const RUNS = [
  { key: 'off', adaptive: false, strategy: 'hoard', label: 'adaptive off' },
  { key: 'hoard', adaptive: true, strategy: 'hoard', label: 'adaptive on, hoarding attacker' },
  { key: 'pipeline', adaptive: true, strategy: 'pipeline', label: 'adaptive on, pipelining attacker' },
] as const;
type Spec = (typeof RUNS)[number];
type RunKey = Spec['key'];

/** An attack with what the server saw of it: its CPU, and the rows its database holds afterwards. */
type Run = AttackResult & { serverCpuSeconds: number; rows: number };

/** The server's own rule (domain/pow-difficulty.ts), bundled from its source. */
interface PowRule {
  powDifficulty(
    base: number,
    adaptive: boolean,
    facts: { issuedLastMinute: number; threshold: number; acceptedFromIpLastHour: number },
  ): number;
  POW_SURGE_THRESHOLD_DEFAULT: number;
}
const ENTRY = `export { powDifficulty, POW_SURGE_THRESHOLD_DEFAULT } from './domain/pow-difficulty.ts';`;

const fmtSeconds = (s: number) => {
  if (!Number.isFinite(s)) return '–';
  if (s >= 100) return `${s.toFixed(0)} s`;
  if (s >= 10) return `${s.toFixed(1)} s`;
  if (s >= 0.1) return `${s.toFixed(2)} s`;
  return `${(s * 1000).toFixed(0)} ms`;
};
const fmtCpu = (s: number) => (Number.isFinite(s) ? `${s.toFixed(s >= 10 ? 1 : 3)} CPU s` : '–');

function refusalText(refusals: Record<string, number>): string {
  const entries = Object.entries(refusals);
  return entries.length === 0 ? 'none' : entries.map(([k, n]) => `${k} ×${n}`).join(', ');
}

/** What bounded a run: the hashing threads, the per-IP budget, or neither. */
function limitedBy(r: AttackResult): string {
  const busy = r.busyMs / (r.threads * r.seconds * 1000);
  const used = r.requestsCounted / r.requestBudget;
  if (busy >= 0.75) return `hashing (threads busy ${fmtPct(busy)})`;
  if (used >= 0.9) return `per-IP throttle (${r.requestsCounted} of ${r.requestBudget} requests)`;
  return `neither (threads busy ${fmtPct(busy)}, ${r.requestsCounted} of ${r.requestBudget} requests)`;
}

export default {
  id: '10',
  title: 'Attacker yield',
  async run(ctx) {
    const seconds = ctx.smoke ? 3 : Number(process.env.BENCH_ATTACKER_SECONDS) || 300;
    const base = ctx.smoke ? 12 : 18; // 18: the default; the smoke run needs many quick solves
    const threads = availableParallelism();
    const dir = ctx.tempDir('attacker');
    const { powDifficulty, POW_SURGE_THRESHOLD_DEFAULT } = await importServerSource<PowRule>(
      ENTRY,
      join(dir, 'pow-difficulty.mjs'),
    );
    const priced = (adaptive: boolean, a: number, issued = 0) =>
      powDifficulty(base, adaptive, {
        issuedLastMinute: issued,
        threshold: POW_SURGE_THRESHOLD_DEFAULT,
        acceptedFromIpLastHour: a,
      });

    // The widget's hash rate as a visitor's browser gets it: solvePow with its own workers.
    const rounds = ctx.smoke ? 1 : 3;
    const rateMs = ctx.smoke ? 400 : 2000;
    const rates = { one: [] as number[], all: [] as number[] };
    for (let i = 0; i < rounds; i++) {
      const one = await widgetRate({ workers: 1 }, rateMs);
      if (!one.wasm) throw new Error('the widget solver did not run its WebAssembly kernel in Node');
      rates.one.push(one.rate);
      rates.all.push((await widgetRate({ workers: threads }, rateMs)).rate);
    }
    const rate1 = median(rates.one);
    const rateAll = median(rates.all);

    const results = {} as Record<RunKey, Run>;
    for (const spec of RUNS) {
      const db = join(dir, `${spec.key}.db`);
      const settings = [
        '--origins',
        ORIGIN,
        '--challenge',
        'on',
        '--pow',
        'on',
        '--pow-adaptive',
        spec.adaptive ? 'on' : 'off',
        ...(ctx.smoke ? ['--pow-difficulty', String(base), '--challenge-min-age-ms', '100'] : []),
      ];
      const tenant = await seedTenant(db, { waitlist: settings });
      const server = await startBenchServer({ db });
      let run: Run;
      try {
        ctx.log(`${spec.label}: attacking for ${seconds} s`);
        const serverCpu0 = cpuSeconds(server.pid);
        const attacked = await attack({
          baseUrl: server.url,
          waitlistId: tenant.waitlistId,
          origin: ORIGIN,
          seconds,
          strategy: spec.strategy,
          held: spec.strategy === 'pipeline' ? threads + 1 : undefined,
          threads,
          ipLimit: IP_LIMIT,
          tag: spec.key,
          expectDifficulty: (a, issued) => priced(spec.adaptive, a, issued),
        });
        const serverCpuSeconds = cpuSeconds(server.pid) - serverCpu0;
        // Sign-ups answered 202 while the run stopped are in the database; give them a moment.
        await sleep(200);
        run = { ...attacked, serverCpuSeconds, rows: countSubscribers(db, tenant.waitlistId) };
      } finally {
        await server.stop();
      }
      check(spec, run, base);
      results[spec.key] = run;
      ctx.log(
        `${spec.label}: ${run.accepted.length} accepted, highest difficulty ${Math.max(...run.issued.map((i) => i.difficulty))}, ` +
          `${limitedBy(run)}`,
      );
    }

    const n = (key: RunKey) => results[key].accepted.length;
    const cpuPer = (key: RunKey) => results[key].cpuSeconds / n(key);
    const maxDifficulty = (key: RunKey) => Math.max(...results[key].issued.map((i) => i.difficulty));
    const labelOf = (key: RunKey) => RUNS.find((r) => r.key === key)?.label ?? key;
    const firstThree = (key: RunKey) =>
      results[key].accepted
        .slice(0, 3)
        .map((s) => s.difficulty)
        .join(', ');
    const firstThreeAtBase = (['hoard', 'pipeline'] as const).every((key) =>
      results[key].accepted.slice(0, 3).every((s) => s.difficulty === base),
    );
    const duration = seconds >= 60 ? `${seconds / 60} min` : `${seconds} s`;
    const yieldRow = (key: RunKey): Row => {
      const ratio = n(key) / n('off');
      return {
        name: `accepted sign-ups in ${duration}, ${labelOf(key)}`,
        value: String(n(key)),
        baseline: String(n('off')),
        ratio: fmtRatio(ratio),
        goal: `≤ ${GOAL_RATIO}× adaptive off`,
        met: metCell(ratio <= GOAL_RATIO),
      };
    };
    const cpuRow = (key: RunKey): Row => ({
      name: `attacker CPU per accepted sign-up, ${labelOf(key)}`,
      value: fmtCpu(cpuPer(key)),
      baseline: fmtCpu(cpuPer('off')),
      ratio: fmtRatio(cpuPer(key) / cpuPer('off')),
    });
    const hoarded = results.hoard.issued.filter((i) => i.a === 0).length;

    const natRows = NAT_PEOPLE.map((person) => {
      const difficulty = priced(true, person - 1);
      const tries = 2 ** difficulty;
      return {
        person: `${person}${['th', 'st', 'nd', 'rd'][person] ?? 'th'} sign-up from one address`,
        a: String(person - 1),
        difficulty: String(difficulty),
        one: fmtSeconds(tries / rate1),
        all: fmtSeconds(tries / rateAll),
      };
    });

    // The yield that the rule of docs/gates.md#adaptive-difficulty allows a hashing-bound attacker, against steeper variants of its repeat
    // price: a calculation from the pipelining attacker's measured hash rate, which its run checks.
    const pipe = results.pipeline;
    const attackRate = (pipe.tries * 1000 * pipe.threads) / Math.max(1, pipe.solveMs);
    const ruleRows = [2, 3, 4].map((bits) => {
      const price = (a: number) => base + (a <= 2 ? 0 : Math.ceil(bits * Math.log2(a / 2)));
      const predicted = hashingBound(price, attackRate * seconds, n('off'));
      const ratio = predicted / n('off');
      return {
        rule:
          bits === 2
            ? 'ours: ⌈2·log2(a/2)⌉ (each doubling of a costs 4×)'
            : `⌈${bits}·log2(a/2)⌉ (each doubling costs ${2 ** bits}×)`,
        predicted: String(predicted),
        ratio: fmtRatio(ratio),
        measured: bits === 2 ? `${n('pipeline')} (${fmtRatio(n('pipeline') / n('off'))})` : '',
        meets: metCell(ratio <= GOAL_RATIO),
        eighth: fmtSeconds(2 ** price(7) / rate1),
        sixteenth: fmtSeconds(2 ** price(15) / rate1),
      };
    });

    const steep = ruleRows.find((row) => row.meets === metCell(true));
    const steepText = steep
      ? `needs at least ${steep.rule}, under which the 16th person behind a shared address expects ${steep.sixteenth} of solving (${ruleRows[0]?.sixteenth} under ours)`
      : 'needs a steeper price than any in the table';

    return {
      sections: [
        {
          title: 'Item 10: Attacker yield (one IP, distinct addresses, default gates)',
          intro:
            `One attacker on this machine signs up distinct addresses from one IP (loopback) for ${duration} per run, ` +
            `through the real protocol (\`POST …/gates\`, wait out the Challenge's min age, solve, \`POST …/subscribers\`), ` +
            `solving with the widget's WebAssembly kernel on ${threads} persistent worker threads (one nonce each). ` +
            `Waitlist: Challenge on (min age ${ctx.smoke ? '100 ms, smoke' : '1,500 ms'}), Proof of Work on (difficulty ${base}${ctx.smoke ? ', smoke' : ''}), ` +
            `per-IP budget ${IP_LIMIT} requests a minute; the attacker paces itself to that budget and obeys Retry-After. ` +
            `Baseline: the same attacker with \`--pow-adaptive off\`. The hoarding attacker fetches gate sets before it signs up ` +
            `(as many as it can still submit before its deadline); the pipelining one holds ${threads + 1} (one per thread, one ahead). ` +
            `CPU: process.cpuUsage of the attacker, threads included.`,
          rows: [
            {
              name: `accepted sign-ups in ${duration}, adaptive off (baseline)`,
              value: String(n('off')),
              baseline: String(n('off')),
              ratio: fmtRatio(1),
            },
            yieldRow('hoard'),
            yieldRow('pipeline'),
            cpuRow('off'),
            cpuRow('hoard'),
            cpuRow('pipeline'),
            {
              name: 'difficulty of sign-ups 1..3 from the address, adaptive on (hoarding; pipelining)',
              value: `${firstThree('hoard')}; ${firstThree('pipeline')}`,
              baseline: `${base} (base)`,
              ratio: '',
              goal: '= base',
              met: metCell(firstThreeAtBase),
            },
          ],
          notes: [
            `Highest difficulty issued: ${maxDifficulty('off')} (adaptive off), ${maxDifficulty('hoard')} (hoarding), ` +
              `${maxDifficulty('pipeline')} (pipelining). Every nonce's difficulty matched the server's rule for the sign-ups ` +
              'accepted from the address before it was issued (checked per nonce).',
            `The hoarding attacker fetched ${hoarded} of its ${results.hoard.gateFetches} gate sets before its first sign-up was accepted: ` +
              "docs/gates.md#adaptive-difficulty fixes a nonce's difficulty when it is issued, but the server checks the repeat price again when a " +
              'solution is redeemed (a solution short of it gets a fresh 428 pow), so a nonce fetched ahead costs what ' +
              'signing up one at a time does (the 428 pow refusals of the hoarding run).',
          ],
        },
        {
          title: 'Item 10: the attacker runs in detail',
          columns: [
            { key: 'run', header: 'run' },
            { key: 'accepted', header: 'accepted' },
            { key: 'cpu', header: 'attacker CPU per accepted' },
            { key: 'server', header: 'server CPU per accepted' },
            { key: 'max', header: 'highest difficulty' },
            { key: 'first', header: 'difficulty of sign-ups 1..3' },
            { key: 'last', header: 'difficulty of the last sign-up' },
            { key: 'refusals', header: 'refusals by code' },
            { key: 'requests', header: 'gates / submits' },
            { key: 'rate', header: 'attacker hash rate' },
            { key: 'share', header: 'CPU it got of its cores' },
            { key: 'limit', header: 'limited by' },
          ],
          rows: RUNS.map(({ key, label }) => {
            const r = results[key];
            return {
              run: label,
              accepted: String(n(key)),
              cpu: fmtCpu(cpuPer(key)),
              server: fmtCpu(r.serverCpuSeconds / n(key)),
              max: String(maxDifficulty(key)),
              first: firstThree(key),
              last: String(r.accepted.at(-1)?.difficulty ?? '–'),
              refusals: refusalText(r.refusals),
              requests: `${r.gateFetches} / ${r.submits}${r.unsubmitted ? ` (${r.unsubmitted} unsent)` : ''}`,
              rate: fmtMhs((r.tries * 1000 * r.threads) / Math.max(1, r.solveMs)),
              share: fmtPct(r.cpuSeconds / (r.threads * r.seconds)),
              limit: limitedBy(r),
            };
          }),
          notes: [
            `Attacker hash rate: tries proved by its finished solutions (one engine per nonce counts up from 0) per second of their solving, times ${threads} threads; ` +
              "solves cut off by the deadline count in the CPU and the threads' busy time, not here. " +
              `Throttle budget: ${IP_LIMIT} requests in any 60 s window, the server counting each in its one-second slot (so up to 61 s).`,
            'CPU it got: its CPU seconds over threads × duration. On a shared machine a hashing-bound attacker gets less than its ' +
              'cores, and its yield against adaptive difficulty falls with it: compare its hash rate with item 1 on a quiet machine.',
          ],
        },
        {
          title: 'Item 10: the cost to people behind one shared address (adaptive on)',
          intro:
            `Difficulty the server's rule (domain/pow-difficulty.ts) gives the n-th sign-up from one address within an hour ` +
            `(a = n − 1 accepted before it, no surge), and its expected solve time (2^difficulty tries) at the widget's hash rate ` +
            `measured in this run: ${fmtMhs(rate1)} with one worker, ${fmtMhs(rateAll)} with ${threads} (median of ${rounds} × ${rateMs / 1000} s, solvePow with its own workers).`,
          columns: [
            { key: 'person', header: 'who' },
            { key: 'a', header: 'sign-ups before (a)' },
            { key: 'difficulty', header: 'difficulty' },
            { key: 'one', header: 'expected solve, 1 worker' },
            { key: 'all', header: `expected solve, ${threads} workers` },
          ],
          rows: natRows,
        },
        {
          title: 'Item 10: what a repeat price can do against a hashing-bound attacker (calculated)',
          intro:
            `Sign-ups an attacker hashing at ${fmtMhs(attackRate)} (the pipelining attacker's measured rate) can pay for in ${duration}: ` +
            `the largest n whose expected tries, the sum of 2^difficulty for a = 0 … n − 1, fit in rate × duration, ` +
            `and never more than adaptive off accepted (${n('off')}, bound by the per-IP budget). The first row is the rule of docs/gates.md#adaptive-difficulty, ` +
            'with the measured yield beside it as a check of the calculation; the others are steeper repeat prices, ' +
            `with what they cost a person behind a shared address at the widget's one-worker rate (${fmtMhs(rate1)}). ` +
            'No surge: one attacker stays far below the threshold.',
          columns: [
            { key: 'rule', header: 'repeat price' },
            { key: 'predicted', header: `sign-ups it pays for in ${duration}` },
            { key: 'ratio', header: 'ratio to adaptive off' },
            { key: 'measured', header: 'measured (pipelining)' },
            { key: 'meets', header: `≤ ${GOAL_RATIO}× adaptive off` },
            { key: 'eighth', header: '8th person behind one address, expected solve' },
            { key: 'sixteenth', header: '16th person, expected solve' },
          ],
          rows: ruleRows,
          notes: [
            'Under the rule of docs/gates.md#adaptive-difficulty the n-th sign-up costs about (n/2)² times the first, so the work of n sign-ups grows as n³ and ' +
              "the yield as the cube root of the attacker's hash rate × time: twice the cores buy 1.26× the sign-ups. " +
              `Against this attacker, a yield of a fifth of adaptive off over ${duration} ${steepText}: ` +
              'people behind a shared address cannot be told from an attacker by their address, so they pay the steeper price too. ' +
              'Our rule is kept, and the goal is judged on it.',
          ],
        },
      ],
    };
  },
} satisfies Benchmark;

/**
 * The sign-ups an attacker with `budget` expected tries can pay for when the sign-up after `a`
 * accepted ones costs 2^price(a) tries, at most `cap`.
 */
function hashingBound(price: (a: number) => number, budget: number, cap: number): number {
  let n = 0;
  let spent = 0;
  while (n < cap) {
    spent += 2 ** price(n);
    if (spent > budget) break;
    n++;
  }
  return n;
}

/** What must hold in every run, smoke or full: a wrong answer fails the benchmark. */
function check(spec: Spec, run: Run, base: number): void {
  const fail = (what: string) => {
    throw new Error(`item 10, ${spec.label}: ${what}`);
  };
  if (!run.wasm) fail('the attacker did not solve with the WebAssembly kernel');
  if (run.accepted.length < 3) fail(`only ${run.accepted.length} sign-ups accepted`);
  if (run.rows !== run.accepted.length)
    fail(`${run.accepted.length} sign-ups answered 202 but the database holds ${run.rows}`);
  const wrong = run.issued.find((i) => i.difficulty !== i.expected);
  if (wrong)
    fail(
      `a nonce issued after ${wrong.a} sign-ups had difficulty ${wrong.difficulty}, not ${wrong.expected}`,
    );
  if (run.accepted.slice(0, 3).some((s) => s.difficulty !== base))
    fail('one of the first three sign-ups was not at the base difficulty');
  const highest = Math.max(...run.issued.map((i) => i.difficulty));
  if (!spec.adaptive && highest !== base) fail(`difficulty ${highest} with adaptive off`);
  if (spec.strategy === 'pipeline' && highest <= base) fail('the difficulty did not grow with adaptive on');
}
