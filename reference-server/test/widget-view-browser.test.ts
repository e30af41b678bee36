/**
 * The view the built widget counts (docs/insights.md#views), embedded by one script tag on a page
 * of another origin, against the built server, in Chromium: one view per page load, however often
 * the form draws itself, under the channel of the page's source; sent with no cookie and leaving
 * none; read back through the stats endpoint as the conversion a founder sees.
 */

import { type Stats, StatsSchema } from '@waitlistkit/protocol';
import {
  chromiumMissing,
  launchBrowser,
  type RunningServer,
  seedTenant,
  startServer,
  type Tenant,
  tempDir,
} from '@waitlistkit/testkit';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LandingPage, startLandingPage } from './browser-helpers.js';

const SUCCESS = "You're on the list!";
/** A round trip on a loaded two-core machine running other files' servers and Chromium. */
const ARRIVED_MS = 30_000;

const dir = tempDir();
let server: RunningServer;
let browser: Browser;
let landing: LandingPage;
let origin: string;

beforeAll(async () => {
  // A tenant's marketing page `/{waitlist id}/…`, with the script tag the setup page gives.
  landing = await startLandingPage((path) => {
    const waitlistId = path.split(/[/?]/)[1] ?? '';
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Launch</title></head><body><main>
<h1>Something new is coming</h1>
<script src="${server.url}/widget/waitlist.js" data-waitlist-id="${waitlistId}" data-base-url="${server.url}" async></script>
</main></body></html>`;
  });
  origin = landing.origin;
  server = await startServer({ db: dir.db });
  if (!chromiumMissing) browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await landing?.close();
  dir.cleanup();
});

async function stats(t: Tenant): Promise<Stats> {
  const res = await fetch(`${server.url}/v1/api/waitlists/${t.waitlistId}/stats`, {
    headers: { Authorization: `Bearer ${t.key}` },
  });
  expect(res.status).toBe(200);
  return StatsSchema.parse(await res.json());
}

const views = async (t: Tenant) => (await stats(t)).totals.views;

interface Visit {
  page: Page;
  /** The views requests the page has sent so far, with their bodies and cookie headers (read later). */
  sent: { body: string; cookie: Promise<string | undefined> }[];
}

/** A fresh context (no cache, no cookies) on the landing page, once the form is shown. */
async function visit(path: string, referer?: string): Promise<Visit> {
  const page = await (await browser.newContext()).newPage();
  const sent: Visit['sent'] = [];
  // Noted as the request is seen: its headers come later, and the count must not wait for them.
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith('/views'))
      sent.push({ body: r.postData() ?? '', cookie: r.allHeaders().then((h) => h.cookie) });
  });
  await page.goto(`${origin}${path}`, { referer });
  await page.locator('waitlist-form >> input[type=email]').waitFor();
  return { page, sent };
}

describe.skipIf(chromiumMissing)(
  'the widget’s view, on another origin, against the server, in Chromium',
  () => {
    it('counts one view per page load under the page’s channel, however often the form draws itself', async () => {
      const t = await seedTenant(dir.db, { waitlist: ['--origins', origin] });
      expect(await views(t)).toBe(0);
      const { page, sent } = await visit(`/${t.waitlistId}/launch?utm_source=newsletter&token=secret`);
      await expect.poll(() => views(t), { timeout: ARRIVED_MS }).toBe(1);
      // Typing, sending and the success message each draw the form again: none counts a view.
      const email = page.locator('waitlist-form >> input[type=email]');
      await email.fill('ada@example.com');
      await page.locator('waitlist-form >> button[type=submit]').click();
      await expect
        .poll(() => page.locator('waitlist-form >> [role=status]').textContent(), { timeout: ARRIVED_MS })
        .toBe(SUCCESS);
      expect(sent).toHaveLength(1);
      // Only the page's source, trimmed as a sign-up's is: the query's token never left the page.
      expect(JSON.parse(sent[0]?.body ?? '')).toEqual({
        source: { utm_source: 'newsletter', landing: `${origin}/${t.waitlistId}/launch` },
      });
      const after = await stats(t);
      expect(after.totals).toMatchObject({ views: 1, signups: 1, conversion: 1 });
      expect(after.channels).toEqual([{ channel: 'newsletter', views: 1, signups: 1 }]);
      expect(after.days.at(-1)).toMatchObject({ views: 1, signups: 1 });
      await page.context().close();
    });

    it('counts a reload as another view, sends no cookie and leaves none', async () => {
      const t = await seedTenant(dir.db, { waitlist: ['--origins', origin] });
      const { page, sent } = await visit(`/${t.waitlistId}/`, 'https://news.example/item?id=7');
      await expect.poll(() => views(t), { timeout: ARRIVED_MS }).toBe(1);
      await page.reload();
      await page.locator('waitlist-form >> input[type=email]').waitFor();
      await expect.poll(() => views(t), { timeout: ARRIVED_MS }).toBe(2);
      await expect.poll(() => sent.length, { timeout: ARRIVED_MS }).toBe(2);
      expect(await Promise.all(sent.map((s) => s.cookie))).toEqual([undefined, undefined]);
      expect(await page.context().cookies()).toEqual([]);
      // The referring page's host is the channel, as for a sign-up from that page.
      expect((await stats(t)).channels).toEqual([{ channel: 'news.example', views: 2, signups: 0 }]);
      await page.context().close();
    });
  },
);
