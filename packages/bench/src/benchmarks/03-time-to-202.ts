/**
 * Item 3: time from the click on "Join the waitlist" to the widget's success, in headless
 * Chromium, for Challenge + Proof of Work at difficulty 16, 18 and 20 against a real server: the
 * visitor fills the field and clicks at once, so the gates the widget starts passing on focus
 * (`POST …/gates`, docs/gates.md#gates-before-the-submit) are still being solved at the click and the figure is their
 * whole cost: the solve in Blob workers, then one POST. Item 9 gives the same gates the typing
 * time a person takes. The Challenge's minimum age is set to 0 here so the figure is the widget's
 * own cost. Baseline in the same run: the same page and click on a waitlist without gates.
 */
import { join } from 'node:path';
import { cli, launchBrowser, seedTenant } from '@waitlistkit/testkit';
import type { Benchmark } from '../lib/bench.js';
import { signUp } from '../lib/page-sign-up.js';
import { landing, pageServer } from '../lib/pages.js';
import { startBenchServer } from '../lib/servers.js';
import { fmtMs, fmtRatio, median, metCell } from '../lib/stats.js';
import type { Row } from '../lib/table.js';

export default {
  id: '3',
  title: 'Time to 202 in Chromium',
  needs: ['chromium'],
  async run(ctx) {
    const runs = ctx.smoke ? 1 : 7;
    const difficulties = ctx.smoke ? [16] : [16, 18, 20];
    const dir = ctx.tempDir('time-to-202');
    const db = join(dir, 'time.db');
    const site = await pageServer();
    const tenant = await seedTenant(db, { waitlist: ['--origins', site.origin] });
    const gated = new Map<number, string>();
    for (const d of difficulties) {
      const w = await cli<{ waitlist_id: string }>(
        [
          'waitlist',
          'create',
          '--tenant',
          tenant.tenantId,
          '--name',
          `d${d}`,
          '--origins',
          site.origin,
          '--challenge',
          'on',
          '--challenge-min-age-ms',
          '0',
          '--pow',
          'on',
          '--pow-difficulty',
          String(d),
        ],
        { db },
      );
      gated.set(d, w.waitlist_id);
    }
    const server = await startBenchServer({ db });
    const browser = await launchBrowser();
    try {
      const context = await browser.newContext();
      site.pages.set('/plain', landing(server.url, tenant.waitlistId));
      for (const [d, id] of gated) site.pages.set(`/d${d}`, landing(server.url, id));
      const workers = await (async () => {
        const page = await context.newPage();
        const n = await page.evaluate(() => navigator.hardwareConcurrency);
        await page.close();
        return n;
      })();
      // Warm-up: the script file cached, the server's statements prepared.
      await signUp(context, `${site.origin}/plain`, 'warmup@bench.example');
      // Per page: 'plain', then each difficulty's.
      const times = new Map<string, number[]>([
        ['plain', []],
        ...difficulties.map((d): [string, number[]] => [`d${d}`, []]),
      ]);
      for (let r = 0; r < runs; r++) {
        for (const [page, list] of times) {
          list.push((await signUp(context, `${site.origin}/${page}`, `${page}.${r}@bench.example`)).took);
        }
      }
      const of = (page: string) => times.get(page) ?? [];
      const base = median(of('plain'));
      const rows: Row[] = [
        {
          name: 'no gates: one request (baseline)',
          value: fmtMs(base),
          baseline: fmtMs(base),
          ratio: '1.00×',
          slowest: fmtMs(Math.max(...of('plain'))),
        },
        ...difficulties.map((d) => ({
          name: `Challenge (min age 0) + PoW difficulty ${d} (expected ${2 ** d} hashes)`,
          value: fmtMs(median(of(`d${d}`))),
          baseline: fmtMs(base),
          ratio: fmtRatio(median(of(`d${d}`)) / base),
          slowest: fmtMs(Math.max(...of(`d${d}`))),
          ...(d === 18 ? { goal: '≤ 1 s', met: metCell(median(of(`d${d}`)) <= 1000) } : {}),
        })),
      ];
      return {
        sections: [
          {
            title: 'Item 3: time to 202 in headless Chromium (click to success)',
            intro:
              `${runs} sign-up(s) per row, interleaved, each a fresh tab of one browser; median, and the slowest run. ` +
              `Chromium ${browser.version()}, navigator.hardwareConcurrency = ${workers} (the solver's workers). ` +
              'The PoW search time is random (a geometric number of tries), hence several runs.',
            columns: [
              { key: 'name', header: 'waitlist' },
              { key: 'value', header: 'median' },
              { key: 'slowest', header: 'slowest' },
              { key: 'baseline', header: 'baseline: no gates' },
              { key: 'ratio', header: 'ratio' },
              { key: 'goal', header: 'goal' },
              { key: 'met', header: 'met' },
            ],
            rows,
            notes: [
              "The field is filled and the button clicked at once: the gates, started on focus, are passed after the click. A waitlist's Challenge minimum age (default 1,500 ms) adds to these figures when the visitor clicks sooner than that after focusing the field; item 9 shows a person who types.",
            ],
          },
        ],
      };
    } finally {
      await browser.close();
      await server.stop();
      await site.close();
    }
  },
} satisfies Benchmark;
