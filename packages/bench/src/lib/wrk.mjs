/**
 * wrk (Debian's /usr/bin/wrk) as the load generator: its own process, one thread, a Lua script
 * made of wrk/common.lua (status counting, a JSON result line) and the scenario's script.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const WRK = process.env.WRK ?? 'wrk';
const script = (name) => readFileSync(new URL(`../wrk/${name}.lua`, import.meta.url), 'utf8');

/** wrk's version line, or undefined when it is not installed. */
export function wrkVersion() {
  try {
    const out = execFileSync(WRK, ['-v'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return out.split('\n')[0].trim();
  } catch (error) {
    // `wrk -v` prints its version and exits 1.
    const out = `${error.stdout ?? ''}${error.stderr ?? ''}`;
    return /^wrk /m.test(out) ? out.match(/^wrk .*$/m)[0].trim() : undefined;
  }
}

/** Writes the combined script for `name` into `dir`; returns its path. */
export function wrkScript(dir, name) {
  const path = join(dir, `${name}.lua`);
  writeFileSync(path, `${script('common')}\n${script(name)}\n`);
  return path;
}

/**
 * One wrk run. Resolves to the parsed result with req/s and latencies in ms. `args` follow `--`
 * (the first is the expected status).
 */
export function runWrk({ url, scriptPath, args, connections = 50, seconds = 5, threads = 1 }) {
  const argv = [
    `-t${threads}`,
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
  return new Promise((resolve, reject) => {
    const child = spawn(WRK, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (c) => {
      out += c;
    });
    child.stderr.setEncoding('utf8').on('data', (c) => {
      out += c;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('WRK_RESULT '));
      if (code !== 0 || !line) return reject(new Error(`wrk ${argv.join(' ')} failed (${code}):\n${out}`));
      const r = JSON.parse(line.slice('WRK_RESULT '.length));
      const socketErrors = r.connect + r.read + r.write + r.timeout;
      resolve({
        ...r,
        socketErrors,
        rps: r.requests / (r.duration_us / 1e6),
        okRps: r.ok / (r.duration_us / 1e6),
        p50: r.p50_us / 1000,
        p90: r.p90_us / 1000,
        p99: r.p99_us / 1000,
      });
    });
  });
}

/** Throws when a run saw socket errors or an answer other than `expected`; `id` names the run. */
export function checkWrkRun(id, run, expected) {
  if (run.socketErrors > 0) {
    throw new Error(
      `${id}: wrk saw socket errors (connect ${run.connect}, read ${run.read}, write ${run.write}, timeout ${run.timeout})`,
    );
  }
  if (run.unexpected > 0) {
    throw new Error(`${id}: ${run.unexpected} answers were not ${expected}, e.g. ${run.sample}`);
  }
}

/**
 * wrk against several servers at once (one wrk process per URL, started together, the
 * connections shared out among them): one result with the requests and answers summed, the rate
 * the sum of the rates, and per percentile the worst of the processes' (wrk keeps no histogram to
 * merge). `args(i)` are the arguments of the i-th process (a run prefix of its own, so sign-ups
 * of different processes never share an email).
 */
export async function runWrkOnEach({ urls, scriptPath, args, connections = 50, seconds = 5 }) {
  const share = (i) => Math.floor(connections / urls.length) + (i < connections % urls.length ? 1 : 0);
  const runs = await Promise.all(
    urls.map((url, i) => runWrk({ url, scriptPath, args: args(i), connections: share(i), seconds })),
  );
  const sum = (key) => runs.reduce((n, r) => n + r[key], 0);
  const worst = (key) => Math.max(...runs.map((r) => r[key]));
  return {
    ...runs[0],
    runs,
    requests: sum('requests'),
    ok: sum('ok'),
    unexpected: sum('unexpected'),
    sample: runs.map((r) => r.sample).find((s) => s !== '') ?? '',
    connect: sum('connect'),
    read: sum('read'),
    write: sum('write'),
    status: sum('status'),
    timeout: sum('timeout'),
    socketErrors: sum('socketErrors'),
    duration_us: worst('duration_us'),
    rps: sum('rps'),
    okRps: sum('okRps'),
    p50: worst('p50'),
    p90: worst('p90'),
    p99: worst('p99'),
  };
}
