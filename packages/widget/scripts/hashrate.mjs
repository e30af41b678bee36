/**
 * Hash rate of the Proof of Work solver in Node, from the built package:
 *   node scripts/hashrate.mjs [seconds per run] [runs]
 * Each run searches an unsolvable target (difficulty 32 on a fixed nonce: its smallest solution
 * is far beyond a few seconds of work) and measures hashes per second between the first and the
 * last progress report, so worker start-up is not counted. Prints the median and best run of
 * each setting: on a shared machine single runs vary.
 */
import { availableParallelism } from 'node:os';
import { solvePow } from '../dist/index.mjs';

const seconds = Number(process.argv[2] ?? 2);
const runs = Number(process.argv[3] ?? 3);
// 63 characters, as the reference server issues: `nonce:` is exactly one SHA-256 block.
const NONCE = 'p1.hashrate-benchmark.nonce.of.sixty-three.characters.exactly.x';

async function once(options) {
  const samples = [];
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), seconds * 1000);
  await solvePow(NONCE, 32, {
    ...options,
    signal: controller.signal,
    onProgress: (p) => samples.push([performance.now(), p.hashes, p.wasm]),
  }).catch((error) => {
    if (error.code !== 'aborted') throw error;
  });
  clearTimeout(timer);
  const [t0, h0] = samples[0];
  const [t1, h1, wasm] = samples.at(-1);
  return { rate: ((h1 - h0) * 1000) / (t1 - t0), wasm };
}

async function measure(label, options) {
  const results = [];
  for (let i = 0; i < runs; i++) results.push(await once(options));
  const rates = results.map((r) => r.rate / 1e6).sort((a, b) => a - b);
  const median = rates[Math.floor(rates.length / 2)];
  const engine = results[0].wasm ? 'kernel' : 'JavaScript';
  console.log(
    `${label.padEnd(14)} ${engine.padEnd(10)} median ${median.toFixed(2)} MH/s, best ${rates.at(-1).toFixed(2)} MH/s`,
  );
}

const cores = availableParallelism();
console.log(`Node ${process.version}, ${cores} cores, ${runs} runs of ${seconds} s per setting`);
await measure('1 worker', { workers: 1 });
await measure('1 worker', { workers: 1, js: true });
await measure(`${cores} workers`, { workers: cores });
await measure(`${cores} workers`, { workers: cores, js: true });
