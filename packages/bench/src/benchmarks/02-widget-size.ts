/**
 * Item 2: bytes after gzip -9 of the widget's script-tag file against the main browser files of
 * the widgets people glue on today, from npm, measured in the same run. Then what the view beacon
 * costs the file (issue 25): the file built again by the widget's own configuration with and
 * without `src/core/view.ts` (lib/widget-builds.ts), the first checked to be the shipped file.
 * Then the languages (issue 26): each locale file's bytes beside the script-tag file, and the
 * time to an interactive form on a page in German against the same page in English, in Chromium
 * (lib/language-load.ts).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Benchmark, Context } from '../lib/bench.js';
import { gzip9 } from '../lib/gzip.js';
import { type LanguageLoad, timeToLanguage } from '../lib/language-load.js';
import { fmtInt, fmtMs, fmtRatio, median, metCell } from '../lib/stats.js';
import type { Row, Section } from '../lib/table.js';
import { buildWidgetWithAndWithoutView } from '../lib/widget-builds.js';

const require = createRequire(import.meta.url);
/** Issue 25: the view beacon adds at most this many bytes (gzip -9) to the script-tag file. */
const BEACON_GOAL = 150;
/** Issue 26: each locale file at most this many bytes (gzip -9)… */
const LOCALE_GOAL = 1_000;
/** …and a page in another language interactive within this factor of the same page in English. */
const LANGUAGE_GOAL = 1.1;
const manifest = (dir: string) =>
  JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string; version: string };

/** A package's folder, from its entry point (some exports maps hide package.json). */
function packageDir(name: string): string {
  for (let dir = dirname(require.resolve(name)); dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && manifest(dir).name === name) return dir;
  }
  throw new Error(`no package folder found for ${name}`);
}

export default {
  id: '2',
  title: 'Widget size',
  async run(ctx) {
    const shipped = require.resolve('@waitlistkit/widget/waitlist.js');
    const ours = gzip9(shipped);
    ctx.log('building the script-tag file with and without its view beacon');
    const built = await buildWidgetWithAndWithoutView(ctx.tempDir('widget-builds'));
    if (!readFileSync(built.withView).equals(readFileSync(shipped))) {
      throw new Error(
        `the script-tag file built again (${built.withView}) differs from ${shipped}: build the widget first`,
      );
    }
    const withoutView = gzip9(built.withoutView).size;
    const beacon = ours.size - withoutView;
    const others = [
      ['altcha', 'dist/main/altcha.min.js', ''],
      ['friendly-challenge', 'widget.min.js', ''],
      ['@cap.js/widget', 'cap.min.js', ' (fetches its WebAssembly separately, below)'],
      ['@cap.js/wasm', 'browser/cap_wasm_bg.wasm', ' (from a CDN at run time)'],
    ].map(([name = '', file = '', note = '']) => {
      const dir = packageDir(name);
      return { label: `${name} ${manifest(dir).version}: ${file}${note}`, size: gzip9(join(dir, file)).size };
    });
    const row = ({ label, size }: { label: string; size: number }) => ({
      name: label,
      value: `${fmtInt(size)} B`,
      baseline: `${fmtInt(ours.size)} B`,
      ratio: fmtRatio(size / ours.size),
    });
    // Cap's widget and its WebAssembly: what a page downloads.
    const cap = others.slice(2).reduce((n, r) => n + r.size, 0);
    const languages = await languageRows(ctx, shipped, ours.size);
    return {
      sections: [
        {
          title: 'Item 2: widget size (bytes after gzip -9)',
          intro: `Measured with ${ours.by}. Baseline: the widget's script-tag file, which holds everything (the form and its renderer, the solver, its worker code and its WebAssembly kernel); the ratio is the other file's size ÷ ours.`,
          rows: [
            {
              name: '@waitlistkit/widget: dist/waitlist.js (baseline)',
              value: `${fmtInt(ours.size)} B`,
              baseline: `${fmtInt(ours.size)} B`,
              ratio: '1.00×',
              goal: '≤ 15,000 B',
              met: metCell(ours.size <= 15_000),
            },
            ...others.map(row),
            row({ label: 'Cap, what a page downloads (widget + WebAssembly)', size: cap }),
            {
              name: 'the view beacon: dist/waitlist.js less the same build with src/core/view.ts a no-op',
              value: `${fmtInt(beacon)} B`,
              baseline: `${fmtInt(withoutView)} B`,
              ratio: fmtRatio(ours.size / withoutView),
              goal: `≤ ${BEACON_GOAL} B`,
              met: metCell(beacon <= BEACON_GOAL),
            },
          ],
          notes: [
            "The view beacon's row: the widget's own tsup configuration run again in this run, once as it is " +
              '(checked to give the shipped dist/waitlist.js byte for byte) and once with `src/core/view.ts` replaced ' +
              'by a `countView` that does nothing (an esbuild plugin loading that module; the form still calls it), so ' +
              'the minifier drops what only the beacon used. Its value is the difference of the two after gzip -9; ' +
              'its baseline the file without the beacon, its ratio the file ÷ that.',
          ],
        },
        languages,
      ],
    };
  },
} satisfies Benchmark;

/** The locale files' sizes, and a German page's time to interactive against an English one's. */
async function languageRows(ctx: Context, shipped: string, script: number): Promise<Section> {
  const folder = join(dirname(shipped), 'locales');
  const sizes = readdirSync(folder)
    .filter((f) => f.endsWith('.json'))
    .map((f) => ({ file: f, size: gzip9(join(folder, f)).size }))
    .sort((a, b) => b.size - a.size);
  const largest = sizes[0];
  if (!largest) throw new Error(`no locale files in ${folder}: build the widget first`);
  const sizeRow = (name: string, size: number): Row => ({
    name,
    value: `${fmtInt(size)} B`,
    baseline: `${fmtInt(script)} B`,
    ratio: fmtRatio(size / script),
    goal: `≤ ${fmtInt(LOCALE_GOAL)} B`,
    met: metCell(size <= LOCALE_GOAL),
  });
  const rows: Row[] = [
    sizeRow(`the largest locale file: locales/${largest.file}`, largest.size),
    sizeRow(`the median of the ${sizes.length} locale files`, median(sizes.map((s) => s.size))),
  ];
  const runs = ctx.smoke ? 1 : 25;
  const noChromium = ctx.lacks('chromium', 'the time to an interactive form in German');
  if (!noChromium) {
    ctx.log(`loading a page in English and one in German, ${runs} cold loads each`);
    const loads = await timeToLanguage(ctx.tempDir('languages'), ['en', 'de'], runs);
    const of = (lang: string, figure: keyof LanguageLoad) =>
      median((loads.get(lang) ?? []).map((l) => l[figure]));
    const en = of('en', 'interactive');
    const de = of('de', 'interactive');
    const wait = of('de', 'localeWait');
    rows.push(
      {
        name: 'time to an interactive form, `<html lang="en">` (baseline)',
        value: fmtMs(en),
        baseline: fmtMs(en),
        ratio: '1.00×',
      },
      {
        name: 'time to an interactive form in German, `<html lang="de">`',
        value: fmtMs(de),
        baseline: fmtMs(en),
        ratio: fmtRatio(de / en),
        goal: `≤ ${LANGUAGE_GOAL}×`,
        met: metCell(de / en <= LANGUAGE_GOAL),
      },
      {
        name: "de.json's round trip as the German page sees it (asked for → texts in hand); ratio: English + it, the floor",
        value: fmtMs(wait),
        baseline: fmtMs(en),
        ratio: fmtRatio((en + wait) / en),
      },
    );
  }
  return {
    title: 'Item 2: languages (locale files, and a page in German)',
    intro:
      "Each language but English (built into the script-tag file) is a file of its own beside the script, fetched only by a page in that language (docs/languages.md#the-widget). Sizes after gzip -9, beside the script-tag file. Then a landing page with the widget's script tag, in English and in German, loaded in a new Chromium context each time (a cold cache), from the reference server on this machine: the page's clock from navigation start until the form speaks the page's language with its email field in place (for German, once de.json has arrived and the form has switched).",
    rows,
    notes: [
      `Every locale file (bytes after gzip -9): ${sizes.map((s) => `${s.file.replace('.json', '')} ${s.size}`).join(', ')}.`,
      ...(noChromium
        ? [noChromium]
        : [
            `Time to interactive: median of ${runs} loads of each page, alternating which goes first in each round, after a round not counted (the server's and Chromium's first use). The ratio is German ÷ English. The page reports through a CDP binding, so the harness neither polls nor evaluates in it while the form is on its way.`,
            "A page in German cannot be as quick as one in English: its texts are a second request, which can only start once the script runs (a `<link rel=preload>` for it was no quicker on this machine, where the network is not the cost: the page only reads the answer when its main thread is free). The form asks for the file before anything else it does and waits for it (100 ms at most) rather than drawing English first, so it is drawn once. The third row is that request's round trip measured in the page, from the `fetch` call to its parsed texts; English plus it (its ratio) is the floor for any design that fetches one locale file from the script, as the issue asks.",
          ]),
    ],
  };
}
