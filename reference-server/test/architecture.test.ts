/**
 * The floors of the server and who may call whom, read from the import statements of src/:
 * the doors (http, dashboard, cli) translate and call the use cases in app/; only app/ and the
 * container reach the store; Express stays in the doors that speak HTTP; the rules in domain/
 * call nothing with I/O. A new import across a floor fails here, not in review.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../src');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? files(path) : /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

interface Import {
  file: string;
  /** For a relative import, the imported file's path below src/ (`store/sqlite/index.ts`). */
  target: string;
}

const imports: Import[] = files(SRC).flatMap((path) => {
  const file = relative(SRC, path);
  const text = readFileSync(path, 'utf8');
  return [...text.matchAll(/^(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]/gm)].map((m) => {
    const spec = m[1] as string;
    return {
      file,
      target: spec.startsWith('.')
        ? relative(SRC, resolve(dirname(path), spec)).replace(/\.js$/, '.ts')
        : spec,
    };
  });
});

const floor = (path: string) => path.split('/')[0] as string;
const crossing = (from: (file: string) => boolean, to: (target: string) => boolean) =>
  imports.filter((i) => from(i.file) && to(i.target)).map((i) => `${i.file} → ${i.target}`);

describe('layers', () => {
  it('reads imports at all (the check below would pass vacuously otherwise)', () => {
    expect(
      imports.filter((i) => i.file.startsWith('http/') && i.target.startsWith('app/')).length,
    ).toBeGreaterThan(0);
  });

  it('keeps the doors (http, dashboard, cli) off the store and the database', () => {
    const doors = (f: string) => ['http', 'dashboard', 'cli'].includes(floor(f));
    expect(crossing(doors, (t) => ['store', 'db'].includes(floor(t)))).toEqual([]);
  });

  it('keeps Express in http/, dashboard/ and serve.ts', () => {
    const allowed = (f: string) => ['http', 'dashboard'].includes(floor(f)) || f === 'serve.ts';
    expect(
      crossing(
        (f) => !allowed(f),
        (t) => t === 'express' || t.startsWith('express/'),
      ),
    ).toEqual([]);
  });

  it('keeps the two web doors from importing each other', () => {
    expect(
      crossing(
        (f) => floor(f) === 'http',
        (t) => floor(t) === 'dashboard',
      ),
    ).toEqual([]);
    expect(
      crossing(
        (f) => floor(f) === 'dashboard',
        (t) => floor(t) === 'http',
      ),
    ).toEqual([]);
  });

  it('keeps the rules in domain/ free of every other floor', () => {
    const own = (t: string) => !t.includes('/') || floor(t) === 'domain' || !t.endsWith('.ts');
    expect(
      crossing(
        (f) => floor(f) === 'domain',
        (t) => !own(t),
      ),
    ).toEqual([]);
  });

  it('lets only app/ and the container reach the store, and the store reach no use case', () => {
    const reachers = (f: string) => ['app', 'store'].includes(floor(f)) || f === 'container.ts';
    expect(
      crossing(
        (f) => !reachers(f),
        (t) => floor(t) === 'store' && t !== 'store/store.ts',
      ),
    ).toEqual([]);
    expect(
      crossing(
        (f) => floor(f) === 'store',
        (t) => ['app', 'http', 'dashboard', 'cli'].includes(floor(t)),
      ),
    ).toEqual([]);
  });
});
