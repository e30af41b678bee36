#!/usr/bin/env node
/**
 * Rewrites citations of documents that are not in the repository ("contract §N", a bare "§N"
 * that means the contract, `operations.md`, `waitlist-service.md`, "the spec" used as a
 * citation, and README sections that moved) into the `docs/<file>.md#<anchor>` that says the same
 * thing, in every tracked text file: source, tests, READMEs, comments, generated files alike (a
 * generated file and its generator get the same words, so it stays current). Markdown files get
 * links, relative to where they are; everything else gets the plain path from the repository's
 * root. What it cannot map is listed with its file and line, and the exit code is 1.
 *
 *   node scripts/cite-docs.mjs            rewrite, then report
 *   node scripts/cite-docs.mjs --dry-run  report what would change, write nothing
 *
 * Plain Node, no dependency. The map is the tables below; reference-server/test/docs.test.ts fails
 * while any citation of an outside document, or of an anchor that does not exist, is left.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const dryRun = process.argv.includes('--dry-run');

/** Files that hold the patterns on purpose: this script and the test that looks for them. */
const OWN = new Set(['scripts/cite-docs.mjs', 'reference-server/test/docs.test.ts']);
/** Markdown written by a program from strings in the source: it gets the source's plain words. */
const GENERATED_MARKDOWN = new Set(['BENCHMARKS.md']);

/**
 * The contract's sections: where each is said now. A section cited where the words around it say
 * more precisely what it is about goes to a narrower anchor: the first `when` that matches its
 * line (unless its `unless` does too), else the first that matches its line and the one before.
 */
const REQUEST_ID = /request(?:'s)?[ -]id|requestId/i;

const SECTIONS = {
  1: { to: 'docs/protocol.md#errors' },
  2: { to: 'docs/protocol.md#order-of-checks' },
  3: { to: 'docs/gates.md#proof-of-work' },
  4: { to: 'docs/gates.md#challenge' },
  5: { to: 'docs/protocol.md#throttles-and-budgets' },
  6: {
    to: 'docs/subscribers.md#email-addresses',
    narrower: [{ when: /\bMX\b|disposable/i, to: 'docs/subscribers.md#checks-on-the-address' }],
  },
  7: {
    to: 'docs/subscribers.md#positions-and-referrals',
    narrower: [
      { when: /credit/i, to: 'docs/subscribers.md#referral-credit' },
      { when: /referral code/i, to: 'docs/subscribers.md#referral-codes' },
      { when: /status[ _-]?(page|token)|capability/i, to: 'docs/subscribers.md#status-page' },
      { when: /position|order|line|rank/i, to: 'docs/subscribers.md#positions' },
    ],
  },
  8: { to: 'docs/protocol.md#api-keys' },
  9: { to: 'docs/protocol.md#cors' },
  10: { to: 'docs/protocol.md#activity-log' },
  11: { to: 'docs/protocol.md#plans' },
  12: {
    to: 'docs/subscribers.md#lifecycle',
    narrower: [
      { when: /eras|delet/i, unless: /admi|let(ting)? (people )?in/i, to: 'docs/subscribers.md#erasure' },
    ],
  },
  13: {
    to: 'docs/protocol.md#idempotency-and-request-ids',
    narrower: [
      { when: /idempoten|kept answer/i, unless: REQUEST_ID, to: 'docs/protocol.md#idempotency-key' },
      { when: REQUEST_ID, unless: /idempoten/i, to: 'docs/protocol.md#request-id' },
    ],
  },
  14: {
    to: 'docs/webhooks.md#webhooks',
    narrower: [
      { when: /webhook endpoints?|events are sent|endpoints an event/i, to: 'docs/webhooks.md#endpoints' },
      { when: /message's id|webhook-id/i, to: 'docs/webhooks.md#delivery' },
      { when: /signature|signing|HMAC|whsec|secret/i, to: 'docs/webhooks.md#signatures' },
      { when: /retr(y|ies|ied)|schedule|tried again|every attempt/i, to: 'docs/webhooks.md#retries' },
      { when: /private|destination|SSRF|may be sent|resolves to/i, to: 'docs/webhooks.md#destinations' },
      { when: /event types?\b|webhook events/i, to: 'docs/webhooks.md#events' },
      { when: /outbox|deliver|record/i, to: 'docs/webhooks.md#the-outbox' },
      { when: /\bPOST\b|attempt|sending/i, to: 'docs/webhooks.md#delivery' },
      { when: /endpoint/i, to: 'docs/webhooks.md#endpoints' },
    ],
  },
  15: {
    to: 'docs/subscribers.md#email-confirmation',
    narrower: [
      {
        when: /SMTP|nodemailer|owes|mail waits|otherwise it waits/i,
        unless: /email confirmation/i,
        to: 'docs/self-hosting.md#mail',
      },
    ],
  },
  16: {
    to: 'docs/gates.md#gates-before-the-submit',
    narrower: [
      {
        when: /adaptive|difficulty|surge|repeat|price|attacker|yield|hashing|rule\b/i,
        to: 'docs/gates.md#adaptive-difficulty',
      },
    ],
  },
  17: { to: 'docs/self-hosting.md#several-servers' },
  25: { to: 'docs/protocol.md#client-addresses' },
};

/** Whole documents cited by name. */
const DOCUMENTS = [
  [/(?<![\w/.-])(?:(?:\.\.\/)*shared\/spec\/)?waitlist-service\.md/g, 'docs/protocol.md#the-protocol'],
  [/(?<![\w/.-])(?:(?:\.\.\/)*shared\/spec\/)?contract\.md/g, 'docs/protocol.md#the-protocol'],
  [/(?<![\w/.-])(?:(?:\.\.\/)*shared\/spec\/)?operations\.md/g, 'docs/command-line.md#commands'],
];

/**
 * Phrases a word-for-word rewrite would leave wrong or ungrammatical, checked before the rules
 * above: "the spec" means a different section each time, a departure from the contract's
 * wording is no departure from the docs (which say what the code does), and README sections
 * moved into docs/.
 */
const PHRASES = [
  ['the four cases of the spec', 'the four cases of docs/protocol.md#authentication'],
  ['with the challenge scheme the spec names', 'with the Bearer scheme of docs/protocol.md#authentication'],
  ['({base_url} of the spec)', '({base_url} of docs/protocol.md#two-areas)'],
  [
    "Every code of the spec's customer-API table and of the contract's §1 table the API can send.",
    'Every code of docs/protocol.md#errors the API can send.',
  ],
  ['describes every operation of the spec', 'describes every operation of docs/endpoints.md#endpoints'],
  ['accept the shapes of the spec', 'accept the shapes of docs/endpoints.md#endpoints'],
  [
    'the whole spec, with its operator command line',
    'the whole service of docs/, with its operator command line',
  ],
  [
    "The 202's body is part one's, byte for byte",
    "The 202's body is docs/endpoints.md#accepted-sign-up, byte for byte",
  ],
  [
    'as the contract describes it (§2 order of checks, §3 Proof of\n * Work, §4 Challenge)',
    'as docs/ describes it (docs/protocol.md#order-of-checks,\n * docs/gates.md#proof-of-work, docs/gates.md#challenge)',
  ],
  ['(README, "Webhooks")', '(docs/webhooks.md#the-outbox)'],
  ['(README, "What erasure removes")', '(docs/self-hosting.md#what-erasure-removes)'],
  ['Pricing only at issue, as §16 words it, let', 'Pricing only at issue let'],
  ['not every nonce issued as §16 words it.', 'not every nonce issued.'],
  ["The yield §16's rule allows", 'The yield that the rule of docs/gates.md#adaptive-difficulty allows'],
  ['§16: ⌈2·log2(a/2)⌉', 'ours: ⌈2·log2(a/2)⌉'],
  ['under §16)', 'under ours)'],
  [
    "The contract's rule is kept, and the goal is judged on it.",
    'Our rule is kept, and the goal is judged on it.',
  ],
];

/** What is left unmapped once the rules ran: reported, never guessed. */
const LEFTOVERS = [
  /§\s?\d+(?!\d|\.\d)/g,
  /\bthe spec\b(?!ification)/gi,
  /\bcontract part\b/gi,
  /(?<![\w/.-])(?:operations|waitlist-service|contract)\.md\b/g,
  /shared\/spec|\.\.\/shared\b/g,
];

// ---------------------------------------------------------------- the rewrite

/** A section number as it is cited where `context` (its line, and with the line before) says. */
function sectionTarget(number, context) {
  const section = SECTIONS[number];
  if (!section) return undefined;
  for (const words of [context.line, context.wide]) {
    for (const rule of section.narrower ?? []) {
      if (rule.when.test(words) && !rule.unless?.test(words)) return rule.to;
    }
  }
  return section.to;
}

const titleOf = (target) => (target.split('#')[1] ?? target).replaceAll('-', ' ');

/** How a target is written in `file`: a link in hand-written Markdown, the plain path elsewhere. */
function writer(file) {
  if (!file.endsWith('.md') || GENERATED_MARKDOWN.has(file)) return (target) => target;
  const from = posix.dirname(file);
  return (target) => {
    const [path, anchor] = target.split('#');
    const href = posix.relative(from, path) || posix.basename(path);
    const text = path === 'docs/' ? 'docs/' : titleOf(target);
    return `[${text}](${href}${anchor ? `#${anchor}` : ''})`;
  };
}

/** A Markdown link (one this script wrote, or one already there): later rules leave it alone. */
const LINK = /\[[^\]\n]*\]\([^)\s]*\)/g;

/** Applies `fn` to the text outside Markdown links only. */
function outsideLinks(text, fn) {
  let out = '';
  let at = 0;
  for (const m of text.matchAll(LINK)) {
    out += fn(text.slice(at, m.index)) + m[0];
    at = m.index + m[0].length;
  }
  return out + fn(text.slice(at));
}

export function rewrite(file, text) {
  const write = writer(file);
  const targets = (s) =>
    s.replace(/docs\/[\w./-]*?(?:\.md(?:#[\w-]+)?|\/)(?=[\s),.;:'"`]|$)/g, (t) => write(t));
  let out = text;
  for (const [from, to] of PHRASES) out = out.split(from).join(targets(to));
  out = outsideLinks(out, (part) => {
    let s = part;
    for (const [pattern, to] of DOCUMENTS) s = s.replace(pattern, () => write(to));
    // "contract §N": the word goes, the section is mapped below; across a comment's line break too.
    s = s.replace(/\b[Cc]ontract(?:'s|’s)?([ \t]*\n[ \t]*(?:\*|\/\/)?[ \t]*|[ \t]+)(?=§\s?\d)/g, (_m, gap) =>
      gap.includes('\n') ? gap : '',
    );
    // "§N's order" reads "the order of docs/…".
    s = s.replace(/§\s?(\d+)(?:'s|’s) (\w+)/g, (m, n, noun, offset, whole) => {
      const target = sectionTarget(Number(n), contextAt(whole, offset));
      return target ? `the ${noun} of ${write(target)}` : m;
    });
    s = s.replace(/§\s?(\d+)(?!\d|\.\d)/g, (m, n, offset, whole) => {
      const target = sectionTarget(Number(n), contextAt(whole, offset));
      return target ? write(target) : m;
    });
    return s;
  });
  return out;
}

/** The line holding `offset`, and that line with the one before it. */
function contextAt(text, offset) {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const previousStart = lineStart > 0 ? text.lastIndexOf('\n', lineStart - 2) + 1 : lineStart;
  const end = text.indexOf('\n', offset);
  const lineEnd = end < 0 ? undefined : end;
  return { line: text.slice(lineStart, lineEnd), wide: text.slice(previousStart, lineEnd) };
}

/** Every leftover citation of `text`, as `line: excerpt`. */
export function leftovers(text) {
  const found = [];
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    for (const pattern of LEFTOVERS) {
      for (const m of line.matchAll(pattern)) {
        const from = Math.max(0, m.index - 40);
        found.push(`${i + 1}: …${line.slice(from, m.index + m[0].length + 40).trim()}…`);
      }
    }
  });
  return found;
}

// ---------------------------------------------------------------- the run

function trackedTextFiles() {
  const listed = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' })
    .split('\0')
    .filter(Boolean);
  const files = [];
  for (const file of listed) {
    if (OWN.has(file) || file === 'pnpm-lock.yaml') continue;
    let bytes;
    try {
      bytes = readFileSync(join(ROOT, file));
    } catch {
      continue; // deleted in the work tree
    }
    if (bytes.includes(0)) continue; // binary
    files.push({ file, text: bytes.toString('utf8') });
  }
  return files;
}

/**
 * A longer citation can push a line of code past the formatter's width: the repository's own
 * formatter lays the rewritten files out again, when it is installed.
 */
function format(files) {
  const biome = join(ROOT, 'node_modules/@biomejs/biome/bin/biome');
  if (!existsSync(biome)) {
    process.stdout.write('\nbiome is not installed: run `npx biome check --write .` after installing\n');
    return;
  }
  try {
    execFileSync(process.execPath, [biome, 'format', '--write', '--no-errors-on-unmatched', ...files], {
      cwd: ROOT,
      stdio: 'ignore',
    });
  } catch {
    process.stdout.write('\nbiome could not format every rewritten file: run `npx biome check --write .`\n');
  }
}

function main() {
  const changed = [];
  const unmapped = [];
  for (const { file, text } of trackedTextFiles()) {
    const next = rewrite(file, text);
    if (next !== text) {
      changed.push(file);
      if (!dryRun) writeFileSync(join(ROOT, file), next);
    }
    for (const left of leftovers(next)) unmapped.push(`${file}:${left}`);
  }
  const verb = dryRun ? 'would rewrite' : 'rewrote';
  process.stdout.write(`${verb} citations in ${changed.length} files\n`);
  for (const file of changed) process.stdout.write(`  ${file}\n`);
  if (!dryRun && changed.length > 0) format(changed);
  if (unmapped.length > 0) {
    process.stdout.write(`\ncould not map ${unmapped.length} citations (say them in docs/ words by hand):\n`);
    for (const line of unmapped) process.stdout.write(`  ${line}\n`);
    process.exitCode = 1;
  }
}

if (relative(process.argv[1] ?? '', fileURLToPath(import.meta.url)) === '') main();
