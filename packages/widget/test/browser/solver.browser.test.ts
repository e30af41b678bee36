/**
 * The Proof of Work solver in real headless Chromium, from the built package (the root test
 * command builds first): its Blob worker runs the SIMD kernel there, and its answer is the
 * smallest solution, checked with node:crypto.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { chromiumMissing, launchBrowser } from '@waitlistkit/testkit';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PowProgress } from '../../src/solver/solve.js';

const built = fileURLToPath(new URL('../../dist/index.mjs', import.meta.url));
const clears = (nonce: string, n: number, difficulty: number) =>
  createHash('sha256').update(`${nonce}:${n}`).digest().readUInt32BE(0) >>> (32 - difficulty) === 0;

let browser: Browser;
let server: Server;
let origin: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/index.mjs') {
      res.setHeader('Content-Type', 'text/javascript');
      return res.end(readFileSync(built));
    }
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.end(
      `<!doctype html><html lang="en"><head><title>Solver</title></head><body>
<script type="module">import { solvePow } from '/index.mjs'; window.solvePow = solvePow;</script></body></html>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  if (!chromiumMissing) browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

describe.skipIf(chromiumMissing)('the solver in Chromium', () => {
  it('runs the SIMD kernel in a Blob worker and finds the smallest solution', async () => {
    const page = await browser.newPage();
    const workers: string[] = [];
    page.on('worker', (worker) => workers.push(worker.url()));
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => 'solvePow' in window);
    // A nonce of the server's shape: 63 characters, so `nonce:` fills one SHA-256 block.
    const nonce = 'p1.chromium-simd.'.padEnd(63, 'x');
    const difficulty = 16;
    const { found, last } = await page.evaluate(
      async ([nonce, difficulty]) => {
        const { solvePow } = window as unknown as { solvePow: typeof import('../../src/index.js').solvePow };
        let last: unknown;
        const found = await solvePow(nonce, difficulty, {
          workers: 1,
          onProgress: (p) => {
            last = p;
          },
        });
        return { found, last };
      },
      [nonce, difficulty] as const,
    );
    expect(workers).toHaveLength(1);
    expect(workers[0]).toMatch(/^blob:/);
    expect(last as PowProgress).toMatchObject({ workers: 1, wasm: true, simd: true });
    let first = 0;
    while (!clears(nonce, first, difficulty)) first++;
    expect(found).toBe(first);
    await page.close();
  });
});
