/**
 * Item 11: the widget's Proof of Work solver on a phone-class CPU, emulated with Chromium's
 * DevTools `Emulation.setCPUThrottlingRate` at 1× (the baseline), 4× and 6×, in headless
 * Chromium: the solver's tries per second (a) in Blob workers (one, and the widget's default
 * count) and (b) on the main thread, the fallback the solver takes when the page's CSP forbids
 * workers (`worker-src 'none'`; the same engine, sliced so the page stays responsive).
 *
 * The solver is the package's own `solvePow`, bundled for the browser with esbuild, and measured
 * as item 1 measures it: an unsolvable target for a fixed time, tries counted from its progress
 * reports. A second table asks whether the throttling reaches dedicated workers at all: a plain
 * loop timed inside a worker and on the main thread, the renderer's CPU use with the page idle,
 * and `Emulation.setCPUThrottlingRate` sent to the worker's own DevTools session.
 */
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { launchBrowser } from '@waitlistkit/testkit';
import type { SolveOptions } from '@waitlistkit/widget';
import { build } from 'esbuild';
import type { CDPSession, Page } from 'playwright-core';
import type { Benchmark } from '../lib/bench.js';
import { pageServer, type Page as SitePage } from '../lib/pages.js';
import { BENCH_ROOT } from '../lib/paths.js';
import { NONCE } from '../lib/pow-rate.js';
import { fmtMhs, fmtPct, fmtRatio, median, medianRatio } from '../lib/stats.js';
import type { Row } from '../lib/table.js';

const CHECK_DIFFICULTY = 12;

const kLoops = (rate: number | undefined, unit: string) =>
  rate !== undefined && Number.isFinite(rate) ? `${(rate / 1000).toFixed(1)} k loops${unit}` : '–';
const seconds = (s: number) => (s >= 10 ? `${s.toFixed(0)} s` : `${s.toFixed(2)} s`);

/** `solvePow` from the built package, as one browser script defining `WaitlistBench.solvePow`. */
async function solverBundle(): Promise<string> {
  const result = await build({
    stdin: {
      contents: "export { solvePow } from '@waitlistkit/widget';",
      resolveDir: BENCH_ROOT,
      loader: 'js',
    },
    bundle: true,
    platform: 'browser',
    format: 'iife',
    globalName: 'WaitlistBench',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]?.text ?? '';
}

/** The smallest solution, by brute force in Node: what any correct solver must answer. */
function smallestSolution(nonce: string, difficulty: number): number {
  for (let i = 0; ; i++) {
    const digest = createHash('sha256').update(`${nonce}:${i}`).digest();
    let zeros = 0;
    for (const byte of digest) {
      if (byte === 0) {
        zeros += 8;
        continue;
      }
      zeros += Math.clz32(byte) - 24;
      break;
    }
    if (zeros >= difficulty) return i;
  }
}

/** In the page: the solver on an unsolvable target for `ms`, tries per second after its first report. */
function solverRate(
  page: Page,
  options: SolveOptions,
  ms: number,
): Promise<{ rate: number; hashes: number; wasm: boolean; workers: number }> {
  return page.evaluate(
    async ({ nonce, options, ms }) => {
      const samples: [at: number, hashes: number, wasm: boolean, workers: number][] = [];
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), ms);
      const solved = await window.WaitlistBench.solvePow(nonce, 32, {
        ...options,
        signal: controller.signal,
        onProgress: (p) => samples.push([performance.now(), p.hashes, p.wasm, p.workers]),
      }).catch((error: { code?: unknown }) => {
        if (error.code !== 'aborted') throw error;
      });
      clearTimeout(timer);
      if (solved !== undefined) throw new Error('the fixed nonce has a 32-bit solution this early');
      const first = samples[0];
      const last = samples.at(-1);
      if (!first || !last || samples.length < 3)
        throw new Error('too few progress reports to measure a rate');
      const [t0, h0] = first;
      const [t1, h1, wasm, workers] = last;
      return { rate: ((h1 - h0) * 1000) / (t1 - t0), hashes: h1, wasm, workers };
    },
    { nonce: NONCE, options, ms },
  );
}

/** In the page: solves a real puzzle; the answer and the engines that found it. */
function solveOnce(
  page: Page,
  nonce: string,
  difficulty: number,
  options: SolveOptions,
): Promise<{ solution: number; workers: number | undefined }> {
  return page.evaluate(
    async ({ nonce, difficulty, options }) => {
      let workers: number | undefined;
      const solution = await window.WaitlistBench.solvePow(nonce, difficulty, {
        ...options,
        onProgress: (p) => {
          workers = p.workers;
        },
      });
      return { solution, workers };
    },
    { nonce, difficulty, options },
  );
}

/**
 * The same integer loop in a dedicated worker and on the main thread, timed where it runs (its
 * own performance.now): `{ rounds, ms }` of 10,000 steps each.
 */
function installProbes(page: Page): Promise<void> {
  return page.evaluate(() => {
    const loop = `function spin(ms) {
      const end = performance.now() + ms; let rounds = 0; let x = 0; const t0 = performance.now();
      while (performance.now() < end) { for (let i = 0; i < 10000; i++) x = (x * 31 + i) | 0; rounds++; }
      return { rounds, ms: performance.now() - t0, x };
    }`;
    const source = `${loop}\nonmessage = (e) => postMessage(spin(e.data));`;
    const worker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
    const spin = new Function(`${loop}; return spin;`)() as (ms: number) => { rounds: number; ms: number };
    window.probe = {
      worker: (ms) =>
        new Promise((resolve) => {
          worker.onmessage = (e) => resolve(e.data);
          worker.postMessage(ms);
        }),
      main: (ms) => spin(ms),
    };
  });
}

/** CPU seconds of all renderer processes (DevTools' SystemInfo.getProcessInfo). */
async function rendererCpu(browserSession: CDPSession): Promise<number> {
  return (await renderers(browserSession)).reduce((sum, p) => sum + p.cpuTime, 0);
}

/** Chromium's renderer processes (DevTools' SystemInfo.getProcessInfo). */
async function renderers(browserSession: CDPSession) {
  const { processInfo } = await browserSession.send('SystemInfo.getProcessInfo');
  return processInfo.filter((p) => p.type === 'renderer');
}

/** Clock ticks per second of /proc's CPU times. */
function clockTicks(): number {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
}

/** CPU ticks (user + system) of one thread, from /proc (Linux); undefined once it has exited. */
function threadTicks(pid: number, tid: string): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    // Fields after the command's closing parenthesis: state is field 3, utime 14 and stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined;
  }
}

/** Threads of process `pid` named `name` (Chromium names a dedicated worker's "DedicatedWorker"). */
function threadsNamed(pid: number, name: string): string[] {
  try {
    return readdirSync(`/proc/${pid}/task`).filter(
      (tid) => readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim() === name,
    );
  } catch {
    return [];
  }
}

/** CPU ticks by thread id at one moment (undefined: the thread has exited). */
type Ticks = Map<string, number | undefined>;

/**
 * CPU clocks of the probe page's threads (Linux only, else undefined): its renderer is the one
 * with a DedicatedWorker thread (the page has just started its only worker), and the main
 * thread's id is the process's. Each clock is a function returning a snapshot; `ticksBetween`
 * sums the ticks of the threads present in both snapshots.
 */
async function probeThreads(
  browserSession: CDPSession,
): Promise<Record<'main' | 'worker', () => Ticks> | undefined> {
  if (!existsSync('/proc/self/task')) return undefined;
  for (let tries = 0; tries < 20; tries++) {
    const withWorker = (await renderers(browserSession)).filter(
      (p) => threadsNamed(p.id, 'DedicatedWorker').length > 0,
    );
    const pid = withWorker[0]?.id;
    if (pid !== undefined && withWorker.length === 1) {
      const snapshot = (tids: () => string[]) => () =>
        new Map(tids().map((tid) => [tid, threadTicks(pid, tid)]));
      return {
        main: snapshot(() => [String(pid)]),
        worker: snapshot(() => threadsNamed(pid, 'DedicatedWorker')),
      };
    }
    // The worker's thread may not have started yet.
    await sleep(100);
  }
  return undefined;
}

/** CPU ticks of every renderer's main thread (Linux only, else undefined), by process id. */
async function rendererMainTicks(browserSession: CDPSession): Promise<Ticks | undefined> {
  if (!existsSync('/proc/self/task')) return undefined;
  return new Map(
    (await renderers(browserSession)).map((p) => [String(p.id), threadTicks(p.id, String(p.id))]),
  );
}

function ticksBetween(before: Ticks, after: Ticks): number {
  let sum = 0;
  for (const [tid, ticks] of after) {
    const was = before.get(tid);
    if (ticks !== undefined && was !== undefined) sum += ticks - was;
  }
  return sum;
}

/**
 * Sends `Emulation.setCPUThrottlingRate` to a dedicated worker's own DevTools session: the page
 * session auto-attaches to its workers (messages routed through Target.sendMessageToTarget, as
 * playwright-core's CDP sessions cannot address flattened child sessions). Returns the answer.
 */
async function throttleWorkerTarget(
  page: Page,
  session: CDPSession,
): Promise<{ error?: { message: string } }> {
  const attached = new Promise<string>((resolve) =>
    session.on('Target.attachedToTarget', (e) => {
      if (e.targetInfo.type === 'worker') resolve(e.sessionId);
    }),
  );
  await session.send('Target.setAutoAttach', {
    autoAttach: true,
    waitForDebuggerOnStart: false,
    flatten: false,
  });
  await installProbes(page);
  const sessionId = await Promise.race([
    attached,
    sleep(10_000).then(() => Promise.reject(new Error('no worker target attached'))),
  ]);
  const id = 1;
  const answer = new Promise<{ error?: { message: string } }>((resolve) =>
    session.on('Target.receivedMessageFromTarget', (e) => {
      const message = JSON.parse(e.message) as { id?: number; error?: { message: string } };
      if (e.sessionId === sessionId && message.id === id) resolve(message);
    }),
  );
  await session.send('Target.sendMessageToTarget', {
    sessionId,
    message: JSON.stringify({ id, method: 'Emulation.setCPUThrottlingRate', params: { rate: 4 } }),
  });
  return answer;
}

export default {
  id: '11',
  title: 'PoW solver on a phone-class CPU (Chromium CPU throttling)',
  needs: ['chromium'],
  async run(ctx) {
    const rounds = ctx.smoke ? 1 : 4;
    const rates = ctx.smoke ? [1, 4] : [1, 4, 6];
    const ms = ctx.smoke ? 800 : 1000;
    const pairs = ctx.smoke ? 2 : 8;
    const probeMs = ctx.smoke ? 150 : 200;
    const idleMs = 300;
    const ticksPerSecond = clockTicks();
    const site = await pageServer();
    site.pages.set('/solver.js', { body: await solverBundle(), type: 'text/javascript' });
    const html: SitePage = {
      body: '<!doctype html><html lang="en"><title>Solver</title><script src="/solver.js"></script>',
    };
    site.pages.set('/workers', html);
    site.pages.set('/fallback', { ...html, headers: { 'Content-Security-Policy': "worker-src 'none'" } });
    const browser = await launchBrowser();
    try {
      const context = await browser.newContext();
      const page = await context.newPage();
      const session = await context.newCDPSession(page);
      const browserSession = await browser.newBrowserCDPSession();
      /** Loads `path` and throttles it at `rate` (set again after each load, whatever the renderer). */
      const open = async (path: string, rate: number) => {
        await page.goto(`${site.origin}${path}`);
        await session.send('Emulation.setCPUThrottlingRate', { rate });
      };

      // Correctness, throttled as hard as this run goes: each engine finds the smallest solution.
      const top = rates.at(-1) ?? 1;
      const throttled = rates.slice(1);
      for (const [path, options] of [
        ['/workers', { workers: 1 }],
        ['/fallback', {}],
      ] as const) {
        await open(path, top);
        const nonce = randomBytes(47).toString('base64url');
        const got = await solveOnce(page, nonce, CHECK_DIFFICULTY, options);
        const want = smallestSolution(nonce, CHECK_DIFFICULTY);
        if (got.solution !== want)
          throw new Error(`${path} at ${top}×: solved ${got.solution}, the smallest solution is ${want}`);
        if ((path === '/fallback') !== (got.workers === 0))
          throw new Error(`${path}: the solver ran on ${got.workers} worker(s)`);
      }

      const engines = [
        { key: 'fallback', path: '/fallback', options: {} },
        { key: 'one', path: '/workers', options: { workers: 1 } },
        { key: 'all', path: '/workers', options: {} },
      ] as const;
      type Engine = (typeof engines)[number]['key'];
      type Probe = 'worker' | 'main' | 'idle';
      // Figures by engine (or probe) and rate, one per round (or turn).
      const series = new Map<string, number[]>();
      const add = (key: string, value: number) => series.set(key, [...(series.get(key) ?? []), value]);
      const of = (key: string) => series.get(key) ?? [];
      const runKey = (engine: Engine, rate: number) => `${engine}${rate}`;
      const probeKey = (kind: Probe, rate: number) => `${kind} probe ${rate}`;
      let allWorkers = 0;
      /** The fallback's tries per CPU second of the main thread, which the machine's load barely moves. */
      const fallbackCpu = new Map(rates.map((rate) => [rate, { hashes: 0, ticks: 0 }]));
      // Each engine at every rate back to back (the order reversed every other round), so that a
      // round's ratios compare measurements seconds apart on a machine whose load drifts.
      for (let r = 0; r < rounds; r++) {
        for (const e of engines) {
          for (const rate of r % 2 ? [...rates].reverse() : rates) {
            await open(e.path, rate);
            const before = e.key === 'fallback' ? await rendererMainTicks(browserSession) : undefined;
            const m = await solverRate(page, e.options, ms);
            const cpu = fallbackCpu.get(rate);
            if (before && cpu) {
              // Other renderers idle meanwhile: their main threads add next to nothing.
              const after = await rendererMainTicks(browserSession);
              if (after) cpu.ticks += ticksBetween(before, after);
              cpu.hashes += m.hashes;
            }
            if (!m.wasm) throw new Error(`${e.path}: the solver did not run its WebAssembly kernel`);
            if ((e.key === 'fallback') !== (m.workers === 0))
              throw new Error(`${e.path}: the solver ran on ${m.workers} worker(s)`);
            if (e.key === 'all') allWorkers = m.workers;
            add(runKey(e.key, rate), m.rate);
          }
        }
        ctx.log(`round ${r + 1}/${rounds} done`);
      }

      // The probes: short samples at each rate in turn on one page, many times over. Beside the
      // wall-clock rates, the loops per CPU second of the thread that ran them: the machine's
      // other load stretches the first, not the second; a throttled thread's spinning lowers both.
      await open('/workers', 1);
      await installProbes(page);
      const threads = await probeThreads(browserSession);
      /** Loops and CPU ticks of each probe's thread by rate, summed over the turns. */
      const perCpu = new Map<string, { rounds: number; ticks: number }>();
      for (let p = 0; p < pairs; p++) {
        for (const rate of p % 2 ? [...rates].reverse() : rates) {
          await session.send('Emulation.setCPUThrottlingRate', { rate });
          for (const kind of ['worker', 'main'] as const) {
            const before = threads?.[kind]();
            const loop = await page.evaluate(({ kind, t }) => window.probe[kind](t), { kind, t: probeMs });
            if (threads && before) {
              const sum = perCpu.get(probeKey(kind, rate)) ?? { rounds: 0, ticks: 0 };
              sum.ticks += ticksBetween(before, threads[kind]());
              sum.rounds += loop.rounds;
              perCpu.set(probeKey(kind, rate), sum);
            }
            add(probeKey(kind, rate), (loop.rounds * 1000) / loop.ms);
          }
          const cpu0 = await rendererCpu(browserSession);
          const t0 = performance.now();
          // The page does nothing meanwhile: what the renderer burns is the throttling's own.
          await sleep(idleMs);
          const cpu = (await rendererCpu(browserSession)) - cpu0;
          add(probeKey('idle', rate), (cpu * 1000) / (performance.now() - t0));
        }
      }
      await session.send('Emulation.setCPUThrottlingRate', { rate: 1 });

      // The worker's own DevTools session, on a fresh tab so that nothing else is attached.
      const other = await context.newPage();
      await other.goto(`${site.origin}/workers`);
      const otherSession = await context.newCDPSession(other);
      const workerAnswer = await throttleWorkerTarget(other, otherSession);
      const workerThrottled = workerAnswer.error === undefined;
      let workerAfter = Number.NaN;
      if (workerThrottled) {
        // Accepted: then see whether it bites (a later Chromium may support it).
        const loop = await other.evaluate((t) => window.probe.worker(t), probeMs);
        workerAfter = (loop.rounds * 1000) / loop.ms;
      }
      await other.close();

      /** Per round, `a` ÷ `b`; the median. */
      const perRound = (a: string, b: string) => medianRatio(of(a), of(b));
      const rateOf = (engine: Engine, rate: number) => median(of(runKey(engine, rate)));
      /** A row's cells at each throttled rate: `r<rate>` the figure, `x<rate>` its ratio to 1×. */
      const atRates = (cell: (rate: number) => string, ratio: (rate: number) => number): Row =>
        Object.fromEntries(
          throttled.flatMap((rate) => [
            [`r${rate}`, cell(rate)],
            [`x${rate}`, fmtRatio(ratio(rate))],
          ]),
        );
      const solverRow = (name: string, engine: Engine): Row => ({
        name,
        value: fmtMhs(rateOf(engine, 1)),
        baseline: fmtMhs(rateOf(engine, 1)),
        ratio: '1.00×',
        ...atRates(
          (rate) => fmtMhs(rateOf(engine, rate)),
          (rate) => perRound(runKey(engine, rate), runKey(engine, 1)),
        ),
        d18: seconds(2 ** 18 / rateOf(engine, top)),
      });
      /** The fallback's tries per CPU second of the main thread over all rounds; NaN without /proc. */
      const fallbackPerCpu = (rate: number) => {
        const { hashes = 0, ticks = 0 } = fallbackCpu.get(rate) ?? {};
        return ticks > 0 ? (hashes * ticksPerSecond) / ticks : Number.NaN;
      };
      const ofCpu = (rate: number) => (fallbackPerCpu(rate) ? `${fmtMhs(fallbackPerCpu(rate))} of CPU` : '–');
      const fallbackCpuRow: Row = {
        name: 'the same, per CPU second of the main thread (the throttled CPU itself, whatever the load)',
        value: ofCpu(1),
        ...atRates(ofCpu, (rate) => fallbackPerCpu(rate) / fallbackPerCpu(1)),
        d18: fallbackPerCpu(top) ? seconds(2 ** 18 / fallbackPerCpu(top)) : '–',
      };
      const probeMedian = (kind: Probe, rate: number) => median(of(probeKey(kind, rate)));
      const probeRatio = (kind: Probe, rate: number) => perRound(probeKey(kind, rate), probeKey(kind, 1));
      const probeRow = (name: string, kind: Probe): Row => ({
        name,
        value: kLoops(probeMedian(kind, 1), '/s'),
        ...atRates(
          (rate) => kLoops(probeMedian(kind, rate), '/s'),
          (rate) => probeRatio(kind, rate),
        ),
      });
      /** Loops per CPU second of the thread, over all turns; NaN without /proc. */
      const cpuRate = (kind: 'worker' | 'main', rate: number) => {
        const { rounds = 0, ticks = 0 } = perCpu.get(probeKey(kind, rate)) ?? {};
        return threads && ticks > 0 ? (rounds * ticksPerSecond) / ticks : Number.NaN;
      };
      const cpuRatio = (kind: 'worker' | 'main', rate: number) => cpuRate(kind, rate) / cpuRate(kind, 1);
      const cpuRow = (name: string, kind: 'worker' | 'main'): Row => ({
        name,
        value: kLoops(cpuRate(kind, 1), ' per CPU-s'),
        ...atRates(
          (rate) => kLoops(cpuRate(kind, rate), ' per CPU-s'),
          (rate) => cpuRatio(kind, rate),
        ),
      });
      const idleRow: Row = {
        name: 'CPU use of the renderer processes, page idle (of one core)',
        value: fmtPct(probeMedian('idle', 1)),
        ...Object.fromEntries(throttled.map((rate) => [`r${rate}`, fmtPct(probeMedian('idle', rate))])),
      };

      const rateColumns = throttled.flatMap((rate) => [
        { key: `r${rate}`, header: `${rate}× throttled` },
        { key: `x${rate}`, header: `÷ 1×` },
      ]);
      // The verdict at the strongest rate, on the loops per CPU second where /proc gives them (the
      // machine's load barely moves those), else on the wall-clock rates. Reached: the worker
      // slowed at least two thirds of the way the main thread did. Unclear: the main thread itself
      // kept over 80 % of its speed, so there is nothing to compare with.
      const perCpuKnown = cpuRatio('main', top) > 0 && cpuRatio('worker', top) > 0;
      const mainKept = perCpuKnown ? cpuRatio('main', top) : probeRatio('main', top);
      const workerKept = perCpuKnown ? cpuRatio('worker', top) : probeRatio('worker', top);
      const verdict =
        mainKept > 0.8 ? 'unclear' : workerKept < 1 - (2 / 3) * (1 - mainKept) ? 'reached' : 'not reached';
      const each = (f: (rate: number) => string, word = 'and') => throttled.map(f).join(` ${word} `);
      const fallbackSlowdown = `${each((rate) => `${rate}× gave ${fmtRatio(perRound(runKey('fallback', rate), runKey('fallback', 1)))}`)} (nominal ${each((rate) => fmtRatio(1 / rate))})`;
      const workersAre = {
        reached: 'the throttling reached them (next table), so they too are the solver on a slower CPU.',
        'not reached':
          'the throttling did not reach them (next table), so their figures are this machine at full speed, ' +
          'on whatever share of the CPU its other load (and the spinning main thread) leaves them: not a phone.',
        unclear:
          'this run cannot tell whether the throttling reached them (next table); Chromium documents it for ' +
          'the page, and its Linux implementation pauses the main thread only.',
      }[verdict];
      const probeSays = {
        reached: 'reached the worker.',
        'not reached': 'did not reach the worker.',
        unclear: 'barely slowed the main thread in this run, so the probe cannot tell.',
      }[verdict];
      /** 2^18 tries on a CPU `rate` times slower than this one: the 1× rate ÷ `rate`. */
      const cpuSlowdown = fallbackPerCpu(1)
        ? `${each((rate) => `${rate}× gave ${fmtRatio(fallbackPerCpu(rate) / fallbackPerCpu(1))}`)} (nominal ${each((rate) => fmtRatio(1 / rate))})`
        : 'not measured here (no /proc)';
      // The phone's main thread: measured, per CPU second where /proc gives it, else the wall clock.
      const phoneMain = each(
        (rate) => seconds(2 ** 18 / (fallbackPerCpu(rate) || rateOf('fallback', rate))),
        'or',
      );
      // Its workers: one core's speed at 1× (the same kernel), slowed as the main thread would be.
      const perCore = fallbackPerCpu(1) || rateOf('one', 1);
      const perCoreFrom = fallbackPerCpu(1)
        ? `the main thread's 1× tries per CPU second (${fmtMhs(perCore)}, the same kernel)`
        : `one worker's 1× rate (${fmtMhs(perCore)})`;
      const phoneWorkers = (n: number) => each((rate) => seconds((2 ** 18 * rate) / (perCore * n)), 'or');
      return {
        sections: [
          {
            title: 'Item 11: the PoW solver under Chromium CPU throttling (tries per second)',
            intro:
              `${rounds} round(s) of ${ms / 1000} s per solver and throttling rate, each solver at every rate back to ` +
              `back, a fresh page each time; median rate, ratios per round to the same solver unthrottled in the same round. Throttling: Emulation.setCPUThrottlingRate on the page's ` +
              `DevTools session. The solver is the package's solvePow bundled for the browser; the main-thread fallback is ` +
              `the one a page whose CSP says worker-src 'none' gets (checked: no worker ran). Each engine first solved a ` +
              `difficulty-${CHECK_DIFFICULTY} puzzle at ${top}× and gave the smallest solution. Chromium ${browser.version()}.`,
            columns: [
              { key: 'name', header: 'solver' },
              { key: 'value', header: '1× (baseline)' },
              ...rateColumns,
              { key: 'd18', header: `difficulty 18 at ${top}× (2^18 tries)` },
            ],
            rows: [
              solverRow("main-thread fallback (CSP worker-src 'none'), wall clock", 'fallback'),
              fallbackCpuRow,
              solverRow('one Blob worker, wall clock', 'one'),
              solverRow(`${allWorkers} Blob workers (the widget's default: one per core), wall clock`, 'all'),
            ],
            notes: [
              `What the figures measure. Main thread: per CPU second of that thread, the throttled CPU itself, ${cpuSlowdown}: ` +
                `what a phone that much slower does with a core to itself. On the wall clock, ${fallbackSlowdown}: ` +
                "this machine's other load adds itself, and the throttling falls short of the nominal rate when the " +
                "machine is busy (each of the throttler's signals pauses the thread for (rate − 1) times the time it " +
                'ran since the last one, counting at most 1 ms, and the signals come every 200 µs only while the ' +
                `throttler's own thread gets the CPU). Workers: ${workersAre}`,
              `A phone ${each(String, 'or')} times slower than this machine, difficulty 18 (2^18 tries): on its main ` +
                `thread about ${phoneMain}; in workers about ${phoneWorkers(1)} on one and ${phoneWorkers(allWorkers)} ` +
                `on ${allWorkers}, ${perCoreFrom} ÷ ${each(String, 'or')}, each worker with a core of its own (an ` +
                'estimate, not a measurement).',
              'Expected time of difficulty 18 = 2^18 tries ÷ the rate; one solve takes a geometric number of tries, so a ' +
                'given visitor may need several times that (or a fraction).',
            ],
          },
          {
            title: 'Item 11: does the CPU throttling reach dedicated workers?',
            intro:
              `The same integer loop timed where it runs (its own performance.now, so message delays do not count), in a ` +
              `dedicated worker and on the page's main thread, ${probeMs} ms each; then the CPU time of Chromium's ` +
              `renderer processes over ${idleMs} ms with the page idle (DevTools SystemInfo.getProcessInfo). ${pairs} ` +
              'turns of every rate, one after the other on one page; medians and ratios per turn for the wall-clock ' +
              'rates, totals over the turns per CPU second (the CPU clock counts in 10 ms ticks).',
            columns: [
              { key: 'name', header: 'probe' },
              { key: 'value', header: '1× (baseline)' },
              ...rateColumns,
            ],
            rows: [
              probeRow("loop on the page's main thread, wall clock", 'main'),
              cpuRow('the same, per CPU second of the main thread (spinning counts)', 'main'),
              probeRow('loop in a dedicated worker, wall clock', 'worker'),
              cpuRow('the same, per CPU second of the worker thread', 'worker'),
              idleRow,
            ],
            notes: [
              `Emulation.setCPUThrottlingRate sent to the worker's own DevTools session (auto-attached from the page): ` +
                (workerThrottled
                  ? `accepted; the worker loop then ran at ${(workerAfter / 1000).toFixed(1)} k loops/s.`
                  : `refused, "${workerAnswer.error?.message}".`),
              `At ${top}× the worker loop kept ${fmtRatio(workerKept)} of its unthrottled ${perCpuKnown ? 'loops per CPU second' : 'speed'} ` +
                `and the main thread's ${fmtRatio(mainKept)} (nominal 1/${top} = ${fmtRatio(1 / top)}): the throttling ${probeSays} ` +
                "The wall-clock rates move with the machine's other load as much as with the throttling; the loops per " +
                "CPU second of a thread (from /proc/<pid>/task/<tid>/stat) do not, and a throttled thread's busy-wait " +
                'lowers them.',
              "How Chromium throttles, from its source (blink's ThreadCPUThrottler): on Linux a thread signals the " +
                "renderer's main thread every 200 µs and the signal handler busy-waits, so only the main thread is " +
                'slowed, and it spins meanwhile: the renderer burns CPU with the page idle (last row), which a worker ' +
                'feels only as a busier machine.',
            ],
          },
        ],
      };
    } finally {
      await browser.close();
      await site.close();
    }
  },
} satisfies Benchmark;
