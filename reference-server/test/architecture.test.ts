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

/** A file below src/ as its text, by its path below src/ (`cli/main.ts`). */
const source = (file: string) => readFileSync(join(SRC, file), 'utf8');
const sources = files(SRC).map((path) => relative(SRC, path));

describe('refusals', () => {
  it('are answered by each door in one place: no route of the dashboard and no command catches', () => {
    // The dashboard's place is refusals.ts (a refusal as its page), the command line's main.ts
    // (a refusal as its JSON error and exit code); what a route or a command gets is a value.
    const handlers = sources.filter(
      (f) => f.startsWith('dashboard/routes/') || f === 'cli/commands.ts' || f.startsWith('cli/commands/'),
    );
    expect(handlers.length).toBeGreaterThan(10);
    expect(handlers.filter((f) => /\bcatch\s*[({]/.test(source(f)))).toEqual([]);
  });

  it('are values: no use case throws one, and no door of operators looks for a thrown one', () => {
    const thrown = /\bthrow\s+(refuse|refusal|notFound|forbidden|featureNotAllowed|invalid|conflict)\(/;
    expect(sources.filter((f) => floor(f) === 'app' && thrown.test(source(f)))).toEqual([]);
    // What is thrown is a bug, a setting of the environment or the database away: the error
    // handler's, or the command line's one place.
    expect(
      crossing(
        (f) => floor(f) === 'dashboard' || (floor(f) === 'cli' && f !== 'cli/main.ts'),
        (t) => t === 'domain/errors.ts',
      ),
    ).toEqual([]);
  });
});

describe('dashboard pages', () => {
  const dashboard = sources.filter((f) => floor(f) === 'dashboard');

  it('get the signed-in operator as an argument from the session guard, never through res.locals', () => {
    expect(dashboard.filter((f) => source(f).includes('res.locals'))).toEqual([]);
  });

  it('are made of one set of parts: every table is the shared Table', () => {
    const pages = dashboard.filter((f) => f.startsWith('dashboard/pages/'));
    expect(pages.length).toBeGreaterThan(5);
    expect(pages.filter((f) => f !== 'dashboard/pages/parts.tsx' && source(f).includes('<table'))).toEqual(
      [],
    );
  });
});
