/**
 * Item 9: time to 202 for a person, in headless Chromium against a real server, with the
 * waitlist's default gates (Challenge, minimum age 1,500 ms, and Proof of Work, difficulty 18).
 * The visitor focuses the email field, types the address in about 2 s (keystrokes at jittered
 * intervals, the same schedule on every row of a round), then clicks "Join the waitlist"; the
 * clock runs from that click, as the page sees it, to `waitlist:success`. On focus the widget
 * fetches the gates (docs/gates.md#gates-before-the-submit) and passes them while the person types, so the submit is one
 * POST, answered 202.
 *
 * Baseline in the same run: the same page, typing and click on a waitlist without gates. Also
 * shown (informative): the same gates with the click right after the field is filled, which is
 * the part of the gates the prefetch cannot hide. Every run checks the outcome: the success
 * message shown, exactly one POST to …/subscribers answered 202, and one POST to …/gates whose
 * answer holds the defaults.
 */
import { join } from 'node:path';
import { CHALLENGE_DEFAULT_MIN_AGE_MS, POW_DEFAULT_DIFFICULTY } from '@waitlistkit/protocol';
import { cli, launchBrowser, seedTenant } from '@waitlistkit/testkit';
import type { Benchmark } from '../lib/bench.js';
import { type SignUp, signUp } from '../lib/page-sign-up.js';
import { landing, pageServer } from '../lib/pages.js';
import { rng } from '../lib/seed.js';
import { startBenchServer } from '../lib/servers.js';
import { fmtInt, fmtMs, fmtRatio, median, medianRatio, metCell } from '../lib/stats.js';
import type { Row } from '../lib/table.js';

/** How long the person takes to type the address, from focus to the last keystroke. */
const TYPING_MS = 2000;
const GOAL_RATIO = 1.2;

/**
 * When each of `n` keystrokes lands, in ms after the focus: gaps of 0.5 to 1.5 times the mean
 * (people type in bursts), scaled so that the last key lands at `ms`.
 */
function keySchedule(n: number, ms: number, seed: number): number[] {
  const random = rng(seed);
  const gaps = Array.from({ length: n }, () => 0.5 + random());
  const total = gaps.reduce((a, b) => a + b, 0);
  let at = 0;
  return gaps.map((gap) => {
    at += (gap * ms) / total;
    return at;
  });
}

/** Throws unless the sign-up was one POST answered 202, after one /gates answered `expect`. */
function check(result: SignUp, email: string, gated: boolean): void {
  if (result.posts.length !== 1 || result.posts[0]?.status !== 202) {
    throw new Error(
      `${email}: POSTs to /subscribers answered [${result.posts.map((p) => p.status).join(', ')}], ` +
        'expected one, answered 202',
    );
  }
  if (result.gates.length !== 1) {
    throw new Error(`${email}: ${result.gates.length} POSTs to /gates, expected one (on first focus)`);
  }
  const { challenge, pow } = result.gates[0] ?? {};
  const ok = gated
    ? challenge?.min_age_ms === CHALLENGE_DEFAULT_MIN_AGE_MS && pow?.difficulty === POW_DEFAULT_DIFFICULTY
    : challenge === undefined && pow === undefined;
  if (!ok) throw new Error(`${email}: /gates answered ${JSON.stringify(result.gates[0])}`);
}

/** "1 in each run", or the per-run counts when they differ. */
function perRun(counts: number[]): string {
  return counts.every((c) => c === counts[0]) ? `${counts[0]} in each run` : counts.join(', ');
}

export default {
  id: '9',
  title: 'Time to 202 for a person in Chromium (gates passed while typing)',
  needs: ['chromium'],
  async run(ctx) {
    const runs = ctx.smoke ? 1 : 7;
    const dir = ctx.tempDir('time-to-202-person');
    const db = join(dir, 'person.db');
    const site = await pageServer();
    const tenant = await seedTenant(db, { waitlist: ['--origins', site.origin] });
    // One waitlist per gated row, so no row spends another's per-IP budget. No minimum age or
    // difficulty is given: the waitlist's defaults are the point.
    const gated = async (name: string) =>
      (
        await cli<{ waitlist_id: string }>(
          [
            'waitlist',
            'create',
            '--tenant',
            tenant.tenantId,
            '--name',
            name,
            '--origins',
            site.origin,
            '--challenge',
            'on',
            '--pow',
            'on',
          ],
          { db },
        )
      ).waitlist_id;
    const typedId = await gated('typed');
    const instantId = await gated('instant');
    const server = await startBenchServer({ db });
    const browser = await launchBrowser();
    try {
      const context = await browser.newContext();
      site.pages.set('/plain', landing(server.url, tenant.waitlistId));
      site.pages.set('/typed', landing(server.url, typedId));
      site.pages.set('/instant', landing(server.url, instantId));
      const probe = await context.newPage();
      const workers = await probe.evaluate(() => navigator.hardwareConcurrency);
      await probe.close();
      // Warm-up: the script file cached, the server's statements prepared.
      check(await signUp(context, `${site.origin}/plain`, 'warmup@bench.example'), 'warmup', false);

      const results: Record<'plain' | 'typed' | 'instant', SignUp[]> = { plain: [], typed: [], instant: [] };
      for (let r = 0; r < runs; r++) {
        // Same length addresses: the same keystroke schedule on both typed rows.
        const keys = keySchedule(`plain.${r}@bench.example`.length, TYPING_MS, 1000 + r);
        const plain = await signUp(context, `${site.origin}/plain`, `plain.${r}@bench.example`, keys);
        check(plain, `plain.${r}`, false);
        results.plain.push(plain);
        const typed = await signUp(context, `${site.origin}/typed`, `typed.${r}@bench.example`, keys);
        check(typed, `typed.${r}`, true);
        results.typed.push(typed);
        const instant = await signUp(context, `${site.origin}/instant`, `instant.${r}@bench.example`);
        check(instant, `instant.${r}`, true);
        results.instant.push(instant);
        ctx.log(
          `run ${r + 1}/${runs}: no gates ${fmtMs(plain.took)}, gates while typing ${fmtMs(typed.took)}, ` +
            `gates without typing ${fmtMs(instant.took)}`,
        );
      }

      type Key = keyof typeof results;
      const times = (key: Key) => results[key].map((x) => x.took);
      const base = median(times('plain'));
      // The median of the per-run ratios: each run's rows share the machine's state of the moment.
      const ratio = (key: Key) => medianRatio(times(key), times('plain'));
      const typedRatio = ratio('typed');
      const row = (name: string, key: Key, extra: Row = {}): Row => ({
        name,
        value: fmtMs(median(times(key))),
        slowest: fmtMs(Math.max(...times(key))),
        baseline: fmtMs(base),
        ratio: key === 'plain' ? '1.00×' : fmtRatio(ratio(key)),
        posts: perRun(results[key].map((x) => x.posts.length)),
        post: fmtMs(median(results[key].map((x) => x.posts[0]?.ms ?? Number.NaN))),
        gates: perRun(results[key].map((x) => x.gates.length)),
        ...extra,
      });
      const typing = median([...results.plain, ...results.typed].map((x) => x.typed));
      return {
        sections: [
          {
            title: 'Item 9: time to 202 for a person in headless Chromium (click to success)',
            intro:
              `${runs} sign-up(s) per row, interleaved, each a fresh tab of one browser; median of the time from the click on ` +
              `the submit button to the success message, and the slowest run. The person focuses the email field, types the ` +
              `address with jittered keystrokes over ${fmtInt(TYPING_MS)} ms (measured: median ${fmtInt(typing)} ms from focus ` +
              `to the last key, the same schedule on both typed rows of a run), then clicks. Default gates: Challenge with ` +
              `minimum age ${fmtInt(CHALLENGE_DEFAULT_MIN_AGE_MS)} ms and Proof of Work difficulty ${POW_DEFAULT_DIFFICULTY}, ` +
              `as the server's /gates answered in every run. Chromium ${browser.version()}, ` +
              `navigator.hardwareConcurrency = ${workers} (the solver's workers).`,
            columns: [
              { key: 'name', header: 'waitlist and visitor' },
              { key: 'value', header: 'median' },
              { key: 'slowest', header: 'slowest' },
              { key: 'baseline', header: 'baseline: no gates' },
              { key: 'ratio', header: 'ratio' },
              { key: 'posts', header: 'POSTs to /subscribers' },
              { key: 'post', header: 'its round trip (median)' },
              { key: 'gates', header: 'POSTs to /gates' },
              { key: 'goal', header: 'goal' },
              { key: 'met', header: 'met' },
            ],
            rows: [
              row('no gates, 2 s of typing (baseline)', 'plain'),
              row(
                `Challenge ${fmtInt(CHALLENGE_DEFAULT_MIN_AGE_MS)} ms + PoW ${POW_DEFAULT_DIFFICULTY} (defaults), 2 s of typing`,
                'typed',
                {
                  goal: `≤ ${GOAL_RATIO}× no gates`,
                  met: metCell(typedRatio <= GOAL_RATIO),
                },
              ),
              row(
                `the same gates, click right after the field is filled (informative: what the prefetch cannot hide)`,
                'instant',
              ),
            ],
            notes: [
              'Every run checked: the success message shown, one POST to /subscribers answered 202, and one POST to /gates ' +
                '(sent on the first focus, on every waitlist: the widget cannot know it has no gates) answering the defaults, ' +
                'or nothing without gates.',
              `Without typing time the submit waits for the prefetch to finish: the Challenge token must be ` +
                `${fmtInt(CHALLENGE_DEFAULT_MIN_AGE_MS)} ms old (counted from the /gates answer), and the Proof of Work ` +
                'is solved meanwhile; what is left of that after the click is the cost the prefetch cannot hide.',
              'The ratio is the median of the per-run ratios to the no-gates sign-up of the same run. The round trip ' +
                "is the POST's, from the request sent to the response received (Playwright's request timing): the " +
                "server's share of the time, a sign-up with gates verifying and redeeming its two tokens first.",
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
