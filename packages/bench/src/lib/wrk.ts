/**
 * wrk (Debian's /usr/bin/wrk) as the load generator: its own process, one thread, a Lua script
 * made of wrk/common.lua (status counting, a JSON result line) and the scenario's script.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH_ROOT } from './paths.js';
import type { LoadTarget } from './scenarios.js';

const WRK = process.env.WRK ?? 'wrk';
const script = (name: string) => readFileSync(join(BENCH_ROOT, 'src/wrk', `${name}.lua`), 'utf8');

/** wrk's version line, or undefined when it is not installed. */
export function wrkVersion(): string | undefined {
  try {
    const out = execFileSync(WRK, ['-v'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return out.split('\n')[0]?.trim();
  } catch (error) {
    // `wrk -v` prints its version and exits 1.
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    return `${stdout}${stderr}`.match(/^wrk .*$/m)?.[0].trim();
  }
}

/** Writes the combined script for `name` into `dir`; returns its path. */
export function wrkScript(dir: string, name: 'get' | 'subscribe' | 'subscribe-fields'): string {
  const path = join(dir, `${name}.lua`);
  writeFileSync(path, `${script('common')}\n${script(name)}\n`);
  return path;
}

/** A run of wrk (or of several at once): requests, answers, socket errors; rates per second, latencies in ms. */
export interface WrkRun {
  requests: number;
  durationMs: number;
  /** Answers with the expected status, and the others (one of them as `sample`). */
  ok: number;
  unexpected: number;
  sample: string;
  errors: Record<'connect' | 'read' | 'write' | 'timeout', number>;
  rps: number;
  p50: number;
  p99: number;
}

/** One wrk process against `url`; `args` follow `--` (the first is the expected status). */
function runWrk(
  url: string,
  scriptPath: string,
  args: (string | number)[],
  connections: number,
  seconds: number,
) {
  const argv = [
    '-t1',
    `-c${connections}`,
    `-d${seconds}s`,
    '--timeout',
    '10s',
    '-s',
    scriptPath,
    url,
    '--',
    ...args.map(String),
  ];
  return new Promise<WrkRun>((resolve, reject) => {
    const child = spawn(WRK, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      out += c;
    });
    child.stderr.setEncoding('utf8').on('data', (c: string) => {
      out += c;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('WRK_RESULT '));
      if (code !== 0 || !line) return reject(new Error(`wrk ${argv.join(' ')} failed (${code}):\n${out}`));
      // What wrk/common.lua prints.
      const { duration_us, p50_us, p99_us, ...r } = JSON.parse(line.slice('WRK_RESULT '.length)) as Omit<
        WrkRun,
        'durationMs' | 'rps' | 'p50' | 'p99'
      > & { duration_us: number; p50_us: number; p99_us: number };
      resolve({
        ...r,
        durationMs: duration_us / 1000,
        rps: r.requests / (duration_us / 1e6),
        p50: p50_us / 1000,
        p99: p99_us / 1000,
      });
    });
  });
}

/**
 * wrk against every server of `target` at once (one wrk process per URL, started together, the
 * connections shared out among them): one result with the requests, answers and errors summed, the
 * rate the sum of the rates, and per percentile the worst of the processes' (wrk keeps no
 * histogram to merge). Each process gets a run prefix of its own (`prefix`, then `s<i>` when there
 * are several), so sign-ups of different processes never share an email.
 */
export async function load(
  target: Pick<LoadTarget, 'urls' | 'scriptPath' | 'args'>,
  { prefix, seconds, connections = 50 }: { prefix: string; seconds: number; connections?: number },
): Promise<WrkRun> {
  const { urls } = target;
  if (urls.length === 1)
    return runWrk(urls[0] as string, target.scriptPath, target.args(prefix), connections, seconds);
  const share = (i: number) =>
    Math.floor(connections / urls.length) + (i < connections % urls.length ? 1 : 0);
  const runs = await Promise.all(
    urls.map((url, i) => runWrk(url, target.scriptPath, target.args(`${prefix}s${i}`), share(i), seconds)),
  );
  const sum = (value: (r: WrkRun) => number) => runs.reduce((n, r) => n + value(r), 0);
  const worst = (value: (r: WrkRun) => number) => Math.max(...runs.map(value));
  return {
    requests: sum((r) => r.requests),
    durationMs: worst((r) => r.durationMs),
    ok: sum((r) => r.ok),
    unexpected: sum((r) => r.unexpected),
    sample: runs.map((r) => r.sample).find((s) => s !== '') ?? '',
    errors: {
      connect: sum((r) => r.errors.connect),
      read: sum((r) => r.errors.read),
      write: sum((r) => r.errors.write),
      timeout: sum((r) => r.errors.timeout),
    },
    rps: sum((r) => r.rps),
    p50: worst((r) => r.p50),
    p99: worst((r) => r.p99),
  };
}

/** Throws when a run saw socket errors or an answer other than `expected`; `id` names the run. */
export function checkWrkRun(id: string, run: WrkRun, expected: number): void {
  const { connect, read, write, timeout } = run.errors;
  if (connect + read + write + timeout > 0) {
    throw new Error(
      `${id}: wrk saw socket errors (connect ${connect}, read ${read}, write ${write}, timeout ${timeout})`,
    );
  }
  if (run.unexpected > 0) {
    throw new Error(`${id}: ${run.unexpected} answers were not ${expected}, e.g. ${run.sample}`);
  }
}
