/**
 * The floors of the server and who may call whom, read from the import statements of src/:
 * the doors (http, dashboard, cli) translate and call the use cases in app/; only app/ and the
 * container reach the store; Express stays in the doors that speak HTTP; the rules in domain/
 * call nothing with I/O. A new import across a floor fails here, not in review.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
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

/**
 * The SQL statements written in the files under `dir` (below src/): the string and template
 * literals that begin as a statement does, each with its interpolations as `…`, normalised so
 * that twins compare equal: placeholders (`?`, `?2`, `$2`) with their casts, SQLite's index
 * hints, whitespace and case. Keyed by statement, naming the file.
 */
function statementsIn(dir: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const path of files(join(SRC, dir))) {
    const text = readFileSync(path, 'utf8');
    for (const start of text.matchAll(/['"`](?=\s*(?:SELECT|INSERT|UPDATE|DELETE|WITH)\b)/g)) {
      const sql = literalAt(text, start.index)
        .replace(/\bCAST\(\s*(\?\d*|\$\d+)\s+AS\s+\w+(\[\])?\s*\)/gi, '?')
        .replace(/(\?\d*|\$\d+)(::\w+(\[\])?)?/g, '?')
        .replace(/\s+INDEXED BY \w+/gi, '')
        .replace(/\s+/g, ' ')
        .trim()
        .toLowerCase();
      found.set(sql, relative(SRC, path));
    }
  }
  return found;
}

/** The literal that opens at `at`: a quoted string, or a template whose `${…}` parts read as `…`. */
function literalAt(text: string, at: number): string {
  const quote = text[at] as string;
  let i = at + 1;
  let out = '';
  while (i < text.length && text[i] !== quote) {
    if (text[i] === '\\') {
      out += text[i + 1];
      i += 2;
    } else if (quote === '`' && text.startsWith('${', i)) {
      // Skip the interpolation, nested braces and templates included.
      let depth = 0;
      for (i += 2; i < text.length && !(text[i] === '}' && depth === 0); i++) {
        if (text[i] === '{') depth++;
        if (text[i] === '}') depth--;
        if (text[i] === '`') i = text.indexOf('`', i + 1);
      }
      out += '…';
      i++;
    } else out += text[i++];
  }
  return out;
}

describe('the stores', () => {
  it('writes each statement both stores run once, in store/statements/, never a twin in each adapter', () => {
    const sqlite = statementsIn('store/sqlite');
    const postgres = statementsIn('store/postgres');
    // The check reads statements at all (it would pass vacuously otherwise).
    expect(Math.min(sqlite.size, postgres.size)).toBeGreaterThan(5);
    const twins = [...sqlite.entries()]
      .filter(([sql]) => postgres.has(sql))
      .map(([sql, file]) => `${file} and ${postgres.get(sql)}: ${sql}`);
    expect(twins).toEqual([]);
  });

  it('keeps the shared statements free of either adapter, and the adapters of each other', () => {
    const adapter = (path: string) => /^store\/(sqlite|postgres)\//.exec(path)?.[1];
    expect(
      crossing(
        (f) => f.startsWith('store/statements/'),
        (t) => adapter(t) !== undefined,
      ),
    ).toEqual([]);
    expect(
      imports
        .filter((i) => adapter(i.file) && adapter(i.target) && adapter(i.file) !== adapter(i.target))
        .map((i) => `${i.file} → ${i.target}`),
    ).toEqual([]);
  });
});

/**
 * Every assertion of a type in a source (`x as T`, `<T>x`, `x!`; `as const` is none), as
 * `file: expression`. A use case knows what its checks established from the types of what they
 * returned (domain/checks.ts), so it never tells the compiler what it believes instead.
 */
function assertions(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    const asConst =
      ts.isAsExpression(node) &&
      ts.isTypeReferenceNode(node.type) &&
      node.type.typeName.getText() === 'const';
    if (
      (ts.isAsExpression(node) && !asConst) ||
      ts.isTypeAssertionExpression(node) ||
      ts.isNonNullExpression(node)
    )
      found.push(`${file}: ${node.getText().replace(/\s+/g, ' ')}`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const assertionsIn = (dir: string) =>
  files(join(SRC, dir)).flatMap((path) => assertions(relative(SRC, path), readFileSync(path, 'utf8')));

/** The assertions app/ may make, each with why; a new one fails, and so does one no longer made. */
const ALLOWED_ASSERTIONS = [
  // JSON has no types: what the store keeps as text, parsed back into the shape it was written in.
  'app/api-idempotency.ts: JSON.parse(decision.answer) as Outcome<T>',
  "app/event-bodies.ts: JSON.parse(event.data ?? '{}') as { subscriber_id?: string }",
  'app/mail-content.ts: JSON.parse(body) as MailBody',
];

describe('use cases', () => {
  it('finds every form of type assertion, `as const` aside (the check below would pass vacuously otherwise)', () => {
    const text = 'const a = x as T; const b = [1] as const; const c = y!.z; const d = <T>w; // e as F';
    expect(assertions('x.ts', text)).toEqual(['x.ts: x as T', 'x.ts: y!', 'x.ts: <T>w']);
  });

  it('assert no type of what their checks established: no `as` in app/ beyond the allowed few', () => {
    expect(assertionsIn('app').sort()).toEqual([...ALLOWED_ASSERTIONS].sort());
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

describe('modules', () => {
  it('stay small enough to read in one sitting: no source file over 400 lines', () => {
    const lines = (path: string) => readFileSync(path, 'utf8').split('\n').length - 1;
    expect(files(SRC).length).toBeGreaterThan(50);
    expect(
      files(SRC)
        .filter((path) => lines(path) > 400)
        .map((path) => `${relative(SRC, path)}: ${lines(path)} lines`),
    ).toEqual([]);
  });
});
