import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { expect, it } from 'vitest';

/** The script-tag file, as built (the root test command builds first). */
const built = fileURLToPath(new URL('../dist/waitlist.js', import.meta.url));
const BUDGET = 15_000;

/**
 * Bytes after `gzip -9`, the measure the budget is stated in. GNU gzip and zlib's deflate differ
 * by about 1 % on this file (zlib is larger), so the budget is checked with the gzip command
 * where it exists (Debian has it), else with zlib, the stricter of the two.
 */
function gzip9(file: string): { size: number; by: string } {
  const run = spawnSync('gzip', ['-9', '-c', file]);
  if (run.status === 0) return { size: run.stdout.length, by: 'gzip -9' };
  return { size: gzipSync(readFileSync(file), { level: 9 }).length, by: 'zlib level 9' };
}

it(`dist/waitlist.js stays within ${BUDGET} bytes after gzip -9`, () => {
  const { size, by } = gzip9(built);
  expect(size, `dist/waitlist.js is ${size} bytes after ${by}`).toBeLessThanOrEqual(BUDGET);
});

it('dist/waitlist.js is self-contained: no imports, no zod, no Node paths', () => {
  const source = readFileSync(built, 'utf8');
  expect(source).not.toMatch(/\bimport\s*[({"']|\brequire\(/);
  expect(source).not.toContain('worker_threads');
  expect(source).not.toMatch(/ZodError|\$ZodType/);
  // One copy of the SHA-256: the engine function serves the workers and the main thread.
  // (its round constants are computed from the primes, with the one call of Math.cbrt)
  expect(source.split('Math.cbrt').length - 1).toBe(1);
  // Of the protocol, only what the widget uses: not its lists of error codes and webhook events
  // (Object.values, marked pure so that unused they go).
  expect(source).not.toMatch(/idempotency_key_in_use|subscriber\.deleted/);
});
