/**
 * The repository explains itself: no tracked file cites a document outside it (the service's
 * rules are written in docs/), and every `docs/<file>.md#<anchor>` cited anywhere, in a comment, a
 * test's title or a Markdown link, names a heading that exists. `node scripts/cite-docs.mjs`
 * rewrites the old citations; this keeps the new ones honest. Anchors are GitHub's: the heading
 * lower-cased, punctuation dropped, each space a hyphen.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** This file and the script that rewrites citations hold the patterns on purpose. */
const OWN = new Set(['reference-server/test/docs.test.ts', 'scripts/cite-docs.mjs']);

/** Citations of documents that are not in the repository. */
const OUTSIDE: readonly [string, RegExp][] = [
  ['a section of the old contract', /§\s?\d+(?!\d|\.\d)/g],
  ['"the spec"', /\bthe spec\b/gi],
  ['a part of the old contract', /\bcontract part\b/gi],
  ['an outside document', /(?<![\w/.-])(?:operations|waitlist-service|contract)\.md\b/g],
  ['the shared folder', /shared\/spec|\.\.\/shared\b/g],
];

interface TextFile {
  file: string;
  text: string;
}

/** Every file git tracks (or, without git, every file outside the build's and tools' folders). */
function repositoryFiles(): string[] {
  try {
    return execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' })
      .split('\0')
      .filter(Boolean);
  } catch {
    const skipped = new Set(['node_modules', 'dist', '.git', 'data', '.bench-tmp', 'coverage']);
    const walk = (dir: string): string[] =>
      readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
        const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
        if (entry.isDirectory()) return skipped.has(entry.name) ? [] : walk(path);
        return [path];
      });
    return walk('');
  }
}

const files: TextFile[] = repositoryFiles().flatMap((file) => {
  if (file === 'pnpm-lock.yaml') return [];
  const path = join(ROOT, file);
  if (!existsSync(path) || !statSync(path).isFile()) return [];
  const bytes = readFileSync(path);
  return bytes.includes(0) ? [] : [{ file, text: bytes.toString('utf8') }];
});
const byPath = new Map(files.map((f) => [f.file, f.text]));

/** `line: excerpt` of every match of `pattern` in `text`. */
function matches(
  text: string,
  pattern: RegExp,
): { line: number; excerpt: string; match: RegExpMatchArray }[] {
  return text.split('\n').flatMap((line, i) =>
    [...line.matchAll(pattern)].map((match) => ({
      line: i + 1,
      excerpt: line
        .slice(Math.max(0, (match.index ?? 0) - 30), (match.index ?? 0) + match[0].length + 30)
        .trim(),
      match,
    })),
  );
}

// ---------------------------------------------------------------- anchors

/** GitHub's anchor of a heading's text. */
function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]*>/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

const anchorCache = new Map<string, Set<string>>();

/** The anchors of a Markdown file: its headings (outside fenced code) and explicit ids. */
function anchorsOf(file: string): Set<string> {
  const cached = anchorCache.get(file);
  if (cached) return cached;
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fence: string | undefined;
  for (const line of (byPath.get(file) ?? '').split('\n')) {
    const opening = /^\s*(```|~~~)/.exec(line)?.[1];
    if (opening) {
      fence = fence === undefined ? opening : fence === opening ? undefined : fence;
      continue;
    }
    if (fence) continue;
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading !== undefined) {
      const base = slug(heading);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      anchors.add(n === 0 ? base : `${base}-${n}`);
    }
    for (const m of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(m[1] as string);
  }
  anchorCache.set(file, anchors);
  return anchors;
}

/** What is wrong with a citation of `path` (from the root) and `anchor`, or undefined. */
function problem(path: string, anchor: string | undefined): string | undefined {
  const normal = posix.normalize(path).replace(/\/$/, '');
  if (normal.startsWith('..')) return 'leads out of the repository';
  const isDir = existsSync(join(ROOT, normal)) && statSync(join(ROOT, normal)).isDirectory();
  if (!byPath.has(normal) && !isDir) return `${normal} does not exist`;
  if (anchor === undefined || anchor === '') return undefined;
  if (!normal.endsWith('.md')) return `${normal} has no anchors`;
  return anchorsOf(normal).has(anchor) ? undefined : `${normal} has no heading #${anchor}`;
}

/** `docs/<file>.md#<anchor>` written as a path from the root (a comment, a title, a string). */
const PLAIN_CITATION = /(?<![\w./-])(docs\/(?:[\w.-]+\/)*[\w.-]+\.md)(?:#([\w-]+))?/g;
/** A Markdown link's target. */
const LINK_TARGET = /\]\(([^)\s]+)\)/g;

function markdownLinks(file: string, text: string) {
  return matches(text, LINK_TARGET).flatMap(({ line, excerpt, match }) => {
    const target = match[1] as string;
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return []; // https:, mailto:
    const [path = '', anchor] = target.split('#');
    const resolved = path === '' ? file : posix.join(posix.dirname(file), decodeURI(path));
    return [{ line, excerpt, resolved, anchor }];
  });
}

describe('the repository cites only itself', () => {
  it('reads the repository (the checks below would pass vacuously otherwise)', () => {
    expect(files.length).toBeGreaterThan(200);
    expect(byPath.has('docs/protocol.md')).toBe(true);
    expect(anchorsOf('docs/protocol.md').has('order-of-checks')).toBe(true);
  });

  it('cites no document outside the repository', () => {
    const found = files
      .filter(({ file }) => !OWN.has(file))
      .flatMap(({ file, text }) =>
        OUTSIDE.flatMap(([what, pattern]) =>
          matches(text, pattern).map(({ line, excerpt }) => `${file}:${line}: ${what}: …${excerpt}…`),
        ),
      );
    expect(found).toEqual([]);
  });

  it('cites only sections of docs/ that exist', () => {
    const broken = files.flatMap(({ file, text }) => {
      const plain = matches(text, PLAIN_CITATION).map(({ line, excerpt, match }) => ({
        line,
        excerpt,
        resolved: match[1] as string,
        anchor: match[2],
      }));
      const linked = file.endsWith('.md')
        ? markdownLinks(file, text).filter(({ resolved }) => resolved.startsWith('docs/'))
        : [];
      return [...plain, ...linked].flatMap(({ line, excerpt, resolved, anchor }) => {
        const wrong = problem(resolved, anchor);
        return wrong ? [`${file}:${line}: ${wrong}: …${excerpt}…`] : [];
      });
    });
    expect(broken).toEqual([]);
  });

  it('links from docs/ and the README only to files and headings that exist', () => {
    const broken = files
      .filter(({ file }) => file === 'README.md' || (file.startsWith('docs/') && file.endsWith('.md')))
      .flatMap(({ file, text }) =>
        markdownLinks(file, text).flatMap(({ line, excerpt, resolved, anchor }) => {
          const wrong = problem(resolved, anchor);
          return wrong ? [`${file}:${line}: ${wrong}: …${excerpt}…`] : [];
        }),
      );
    expect(broken).toEqual([]);
  });

  it('reaches every page of docs/ from the README', () => {
    const linkedFrom = (file: string) =>
      new Set(markdownLinks(file, byPath.get(file) ?? '').map(({ resolved }) => resolved));
    const reachable = new Set([...linkedFrom('README.md'), ...linkedFrom('docs/README.md')]);
    const pages = files.map(({ file }) => file).filter((f) => f.startsWith('docs/') && f.endsWith('.md'));
    expect(pages.filter((page) => !reachable.has(page))).toEqual([]);
    expect(reachable.has('docs/README.md')).toBe(true);
  });
});
