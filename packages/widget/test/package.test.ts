/**
 * The npm entry points as Node loads them: SSR-safe imports, and the solver's Node workers
 * from the built bundles (the root test command builds first).
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import * as source from '../src/index.js';

type Entry = typeof source;
const PUBLIC = [
  'AbortError',
  'AbortedError',
  'ConnectionError',
  'DEFAULT_TAG',
  'GeoRestrictedError',
  'InternalServerError',
  'InvalidEmailError',
  'InvalidRequestError',
  'NetworkError',
  'NotFoundError',
  'RateLimitError',
  'RateLimitedError',
  'ServerError',
  'TooManyRoundsError',
  'WaitlistError',
  'defineWaitlistElement',
  'en',
  'fetchFormDescription',
  'mount',
  'prepareGates',
  'solvePow',
  'subscribe',
];

describe('npm entry points', () => {
  it('import in Node without a DOM; defining the element there is a no-op', () => {
    expect(Object.keys(source).sort()).toEqual(PUBLIC);
    expect(() => source.defineWaitlistElement()).not.toThrow();
  });

  it('the ES module build solves in Node worker_threads with hash-wasm', async () => {
    const built = '../dist/index.mjs';
    const esm = (await import(/* @vite-ignore */ built)) as Entry;
    expect(Object.keys(esm).sort()).toEqual(PUBLIC);
    let wasm: boolean | undefined;
    expect(await esm.solvePow('vector-search', 18, { workers: 2, onProgress: (p) => (wasm = p.wasm) })).toBe(
      66069,
    );
    expect(wasm).toBe(true);
  });

  it('the CommonJS build loads with require() and solves too', async () => {
    const cjs = createRequire(import.meta.url)('../dist/index.cjs') as Entry;
    expect(Object.keys(cjs).sort()).toEqual(PUBLIC);
    expect(await cjs.solvePow('vector-search', 18, { workers: 2 })).toBe(66069);
    expect(new cjs.RateLimitedError('x', 429, 'rate_limit_exceeded', 60).name).toBe('RateLimitedError');
  });
});

describe('locale files', () => {
  it('are exported as @waitlistkit/widget/locales/<tag>.json, to pass as `locale` with no request', () => {
    const require = createRequire(import.meta.url);
    expect(require.resolve('@waitlistkit/widget/locales/de.json')).toMatch(/dist\/locales\/de\.json$/);
    const de = require('@waitlistkit/widget/locales/de.json') as Record<string, unknown>;
    expect(Object.keys(de)).toEqual(Object.keys(source.en));
    expect(de.label).toBe('E-Mail-Adresse');
  });
});
