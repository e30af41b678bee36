/**
 * Item 1: hashes per second of the widget's Proof of Work solver (the built package, Node
 * worker_threads: the same engine function the browser runs in Blob workers), on one worker and
 * on all of them, beside what one core can do and what other solvers do, in the same run. The
 * kernel runs four candidates per pass with WebAssembly SIMD, which Node has; its scalar twin,
 * what engines without SIMD run, is measured beside it on the calling thread (workers: 0), with
 * `WebAssembly.validate` refusing the SIMD kernel for that run, and the SIMD kernel likewise on
 * the calling thread, so the two differ only in the kernel:
 *
 * - openssl speed -evp sha256 -bytes 16384, in compressions per second: native SHA-256 on one core,
 *   the physical limit, and the baseline of the goal, since a try of ours is one compression (the
 *   server's 63-character nonce and ':' fill one block, whose midstate is reused);
 * - openssl speed -evp sha256 -bytes 64, in messages per second: the old baseline, kept to show
 *   how generous it was (each message is two compressions and one call's overhead);
 * - node:crypto SHA-256 in a loop over `nonce:i`;
 * - hash-wasm's SHA-256 through its public API, with the midstate saved and loaded per try (what
 *   "use hash-wasm" would naturally give);
 * - ALTCHA's solver (altcha-lib) and Cap's (@cap.js/wasm), at equal expected work (2^16 tries),
 *   counted by the tries their answers prove they made.
 */
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import type { Benchmark } from '../lib/bench.js';
import { NONCE, widgetRate } from '../lib/pow-rate.js';
import { fmtInt, fmtMhs, fmtRatio, median, medianRatio, metCell } from '../lib/stats.js';
import type { Row } from '../lib/table.js';

function nodeCryptoRate(ms: number): number {
  const end = performance.now() + ms;
  let n = 0;
  const t0 = performance.now();
  while (performance.now() < end) {
    for (let i = 0; i < 1000; i++) createHash('sha256').update(`${NONCE}:${n++}`).digest();
  }
  return (n * 1000) / (performance.now() - t0);
}

async function hashWasmRate(ms: number): Promise<number> {
  const { createSHA256 } = await import('hash-wasm');
  const hasher = await createSHA256();
  hasher.init();
  hasher.update(`${NONCE}:`);
  const midstate = hasher.save();
  const end = performance.now() + ms;
  let n = 0;
  const t0 = performance.now();
  while (performance.now() < end) {
    for (let i = 0; i < 1000; i++) {
      hasher.load(midstate);
      hasher.update(String(n++));
      const digest = hasher.digest('binary');
      if (digest[0] === 0 && digest[1] === 0 && digest[2] === 0 && digest[3] === 0) break;
    }
  }
  return (n * 1000) / (performance.now() - t0);
}

/** ALTCHA: find the number whose SHA-256 with the salt equals the challenge; tries = number + 1. */
async function altchaRate(ms: number): Promise<number> {
  // altcha-lib's SHA-256 proof of work; its default (v2) API is a key-derivation scheme.
  const { createChallenge, solveChallenge } = await import('altcha-lib/v1');
  let tries = 0;
  let spent = 0;
  const end = performance.now() + ms;
  while (performance.now() < end) {
    const number = 1 + Math.floor(Math.random() * 2 ** 17); // expected 2^16, as ours at difficulty 16
    const challenge = await createChallenge({ number, hmacKey: 'bench', maxnumber: 2 ** 17 });
    const t0 = performance.now();
    const { promise } = solveChallenge(
      challenge.challenge,
      challenge.salt,
      challenge.algorithm,
      challenge.maxnumber,
    );
    const solution = await promise;
    spent += performance.now() - t0;
    if (solution?.number !== number) throw new Error('ALTCHA solved a different number');
    tries += number + 1;
  }
  return (tries * 1000) / spent;
}

/** Cap: a nonce whose SHA-256 of salt + nonce begins with the target's hex; 4 hex digits = 2^16. */
async function capRate(ms: number): Promise<number> {
  const cap = await import('@cap.js/wasm');
  let tries = 0;
  let spent = 0;
  const end = performance.now() + ms;
  while (performance.now() < end) {
    const salt = randomBytes(16).toString('hex');
    const target = randomBytes(2).toString('hex');
    const t0 = performance.now();
    const nonce = Number(cap.solve_pow(salt, target));
    spent += performance.now() - t0;
    const digest = createHash('sha256').update(`${salt}${nonce}`).digest('hex');
    if (!digest.startsWith(target)) throw new Error('Cap returned a nonce that does not solve its target');
    tries += nonce + 1;
  }
  return (tries * 1000) / spent;
}

/** openssl's SHA-256 of `bytes`-byte messages on one core, in bytes per second. */
function opensslBytesRate(seconds: number, bytes: number): number {
  const out = execFileSync(
    'openssl',
    ['speed', '-seconds', String(seconds), '-evp', 'sha256', '-bytes', String(bytes)],
    {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  const line = out.split('\n').find((l) => /^sha256\s+[\d.]+k/i.test(l.trim()));
  if (!line) throw new Error(`could not read openssl speed output:\n${out}`);
  return Number(line.trim().split(/\s+/)[1]?.replace(/k$/, '')) * 1000;
}

const RATES = [
  'one',
  'all',
  'threadSimd',
  'threadScalar',
  'js',
  'block',
  'message',
  'node',
  'hashWasm',
  'altcha',
  'cap',
] as const;
type Rate = (typeof RATES)[number];

export default {
  id: '1',
  title: 'Proof of Work solver',
  async run(ctx) {
    const rounds = ctx.smoke ? 1 : 3;
    const ms = ctx.smoke ? 400 : 2000;
    const cores = availableParallelism();
    const seconds = Math.max(1, Math.round(ms / 1000));
    const runs = Object.fromEntries(RATES.map((key) => [key, [] as number[]])) as Record<Rate, number[]>;
    const engines: [Rate, { wasm: boolean; simd: boolean }][] = [];
    const measure = async (key: Rate, options: { workers: number }, kind?: { scalar: boolean }) => {
      const result = await widgetRate(options, ms, kind);
      engines.push([key, result]);
      runs[key].push(result.rate);
    };
    for (let r = 0; r < rounds; r++) {
      await measure('one', { workers: 1 });
      await measure('all', { workers: cores });
      await measure('threadSimd', { workers: 0 });
      await measure('threadScalar', { workers: 0 }, { scalar: true });
      runs.js.push((await widgetRate({ workers: 1, js: true }, ms)).rate);
      // 16 KiB messages: the padding block and the per-call overhead are under 1 % of the time.
      runs.block.push(opensslBytesRate(seconds, 16384) / 64);
      runs.message.push(opensslBytesRate(seconds, 64) / 64);
      runs.node.push(nodeCryptoRate(ms));
      runs.hashWasm.push(await hashWasmRate(ms));
      runs.altcha.push(await altchaRate(ms));
      runs.cap.push(await capRate(ms));
    }
    for (const [key, { wasm, simd }] of engines) {
      if (!wasm || simd !== (key !== 'threadScalar'))
        throw new Error(`${key}: the widget solver ran ${wasm ? (simd ? 'SIMD' : 'scalar') : 'JavaScript'}`);
    }
    const m = (key: Rate) => median(runs[key]);
    // Ratios per round, then the median: the rounds share the machine's state of the moment.
    const perRound = (a: Rate, b: Rate) => medianRatio(runs[a], runs[b]);
    const toOpenssl = perRound('one', 'block');
    const scaling = perRound('all', 'one');
    const GOAL = 0.6;
    const row = (name: string, key: Rate, extra: Row = {}): Row => ({
      name,
      value: fmtMhs(m(key)),
      ratio: fmtRatio(perRound(key, 'block')),
      perMessage: fmtRatio(perRound(key, 'message')),
      ...extra,
    });
    return {
      sections: [
        {
          title: 'Item 1: Proof of Work solver (hashes per second)',
          intro:
            `${rounds} round(s) of ${ms / 1000} s per solver, interleaved; median rate, ratios per round. ` +
            `Baseline: openssl's SHA-256 on one core in compressions per second (16 KiB messages), as one try of the widget is one compression; ` +
            `the ratio to its 64-byte messages per second, the old baseline, is beside it. The widget's solver runs in Node worker_threads ` +
            `(the engine the browser runs in Blob workers) on a 63-character nonce, as the server issues; the calling-thread rows ` +
            `run it on the benchmark's own thread (workers: 0), once with the SIMD kernel and once with the scalar kernel that ` +
            `engines without WebAssembly SIMD run. ${cores} cores.`,
          rows: [
            row('openssl speed -evp sha256 -bytes 16384, compressions (one core, baseline)', 'block'),
            row('openssl speed -evp sha256 -bytes 64, messages (one core)', 'message'),
            row('widget solver, one worker (WebAssembly SIMD kernel)', 'one', {
              goal: `≥ ${GOAL}× openssl per compression`,
              met: metCell(toOpenssl >= GOAL),
            }),
            row(`widget solver, ${cores} workers`, 'all', {
              goal: '≥ 1.8× one worker',
              met: metCell(scaling >= 1.8),
              extra: `${fmtRatio(scaling)} one worker`,
              goalRatio: `${fmtRatio(scaling)} (÷ one worker)`,
            }),
            row('widget solver, calling thread, SIMD kernel', 'threadSimd', {
              extra: `${fmtRatio(perRound('threadSimd', 'threadScalar'))} scalar`,
            }),
            row('widget solver, calling thread, scalar kernel (no SIMD)', 'threadScalar'),
            row('widget solver, one worker, JavaScript fallback', 'js'),
            row('node:crypto SHA-256 in a loop (one core)', 'node'),
            row('hash-wasm SHA-256, public API, midstate saved and loaded per try', 'hashWasm'),
            row('ALTCHA solver (altcha-lib 2.8, its SHA-256 v1 scheme, equal expected work 2^16)', 'altcha'),
            row('Cap solver (@cap.js/wasm 0.0.6, equal expected work 2^16)', 'cap'),
          ],
          columns: [
            { key: 'name', header: 'solver' },
            { key: 'value', header: 'rate' },
            { key: 'ratio', header: '÷ openssl per compression' },
            { key: 'perMessage', header: '÷ openssl per 64-byte message' },
            { key: 'extra', header: 'scaling, SIMD ÷ scalar' },
            { key: 'goal', header: 'goal' },
            { key: 'met', header: 'met' },
          ],
          notes: [
            `Tries per second; one try of the widget is one SHA-256 compression (the nonce's midstate is reused). ` +
              `openssl does ${fmtInt(m('block'))} compressions/s on 16 KiB messages but ${fmtInt(m('message'))} 64-byte messages/s, ` +
              `${fmtRatio(2 * perRound('message', 'block'))} of that in compressions (each message is two, plus a call's overhead): ` +
              `a ratio per 64-byte message is ${fmtRatio(perRound('block', 'message'))} the ratio per compression. ` +
              "openssl uses the CPU's SHA instructions where it has them; WebAssembly has none, and WebAssembly SIMD " +
              'has no rotate either: each of the 576 rotations of a compression is two shifts and a xor, so a pass of ' +
              'the SIMD kernel (four candidates) is about 3,300 vector operations, 1,250 of them shifts.',
            'ALTCHA and Cap are counted by the tries their answers prove: both count up from 0, so tries = answer + 1.',
          ],
        },
      ],
    };
  },
} satisfies Benchmark;
