/**
 * The cockpit on a phone (docs/insights.md#the-cockpit), in real headless Chromium against a real
 * server: the overview and a subscriber's page at 390 × 844 have no sideways scroll of the page
 * and no axe violations, and neither at desktop width. The waitlist has what makes a page wide:
 * long addresses, a long channel name, 90 days of rows, views and referrals.
 */
import { chromiumMissing, launchBrowser, type Tenant } from '@waitlistkit/testkit';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPage, signedIn } from './browser-helpers.js';
import { type Harness, harness, ORIGIN, publicPost } from './helpers.js';

let h: Harness;
let browser: Browser;
let t: Tenant;
let referrerId: string;

const LONG = 'a-rather-long-address-for-a-phone-screen.with.dots';
const CAMPAIGN = `spring-launch-${'x'.repeat(120)}`;

async function view(source?: Record<string, string>) {
  const res = await fetch(`${h.server.url}/v1/public/waitlists/${t.waitlistId}/views`, {
    method: 'POST',
    headers: { Origin: ORIGIN, 'Content-Type': 'application/json' },
    body: JSON.stringify(source ? { source } : {}),
  });
  expect(res.status).toBe(204);
}

async function signUp(body: Record<string, unknown>): Promise<string> {
  const res = await publicPost(h.server, t.waitlistId, body);
  expect(res.status).toBe(202);
  return ((await res.json()) as { referral_code: string }).referral_code;
}

/** The page is no wider than the window: nothing scrolls sideways but the boxes made to. */
const overflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

describe.skipIf(chromiumMissing)('the cockpit in Chromium, on a phone and a desk', () => {
  beforeAll(async () => {
    h = await harness();
    t = await h.tenant({ waitlist: ['--origins', ORIGIN, '--ip-limit', '1000', '--referrals', 'on'] });
    for (let i = 0; i < 6; i++) await view({ utm_source: CAMPAIGN });
    for (let i = 0; i < 3; i++) await view();
    const code = await signUp({
      email: `${LONG}@example-company-with-a-long-name.example`,
      source: { utm_source: CAMPAIGN },
    });
    for (let i = 0; i < 4; i++)
      await signUp({
        email: `friend-${i}-${LONG}@example.com`,
        referral_code: code,
        source: { utm_source: CAMPAIGN },
      });
    await signUp({ email: 'plain@example.com' });
    const list = await fetch(
      `${h.server.url}/v1/api/waitlists/${t.waitlistId}/subscribers?q=example-company`,
      {
        headers: { Authorization: `Bearer ${t.key}` },
      },
    );
    referrerId = ((await list.json()) as { items: { id: string }[] }).items[0]?.id as string;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  const overview = () => `${h.server.url}/dashboard/waitlists/${t.waitlistId}/overview`;
  const subscriber = () => `${h.server.url}/dashboard/waitlists/${t.waitlistId}/subscribers/${referrerId}`;

  it('fits the overview and a subscriber’s page on a 390 px phone, with no axe violations', async () => {
    const { context, page } = await signedIn(browser, h.server.url, `admin-${t.tenantId}@test.example`);
    await page.setViewportSize({ width: 390, height: 844 });
    for (const [url, shot] of [
      [overview(), 'cockpit-phone-overview'],
      [
        `${overview()}?from=${new Date(Date.now() - 89 * 86_400_000).toISOString().slice(0, 10)}`,
        'cockpit-phone-90-days',
      ],
      [`${overview()}?from=2026-02-30`, 'cockpit-phone-refused'],
      [subscriber(), 'cockpit-phone-subscriber'],
    ] as const) {
      await page.goto(url);
      // The table of days is behind its summary; open it, as a reader would, before measuring.
      const more = page.getByText('The same numbers as a table');
      if ((await more.count()) > 0) await more.click();
      expect(await overflow(page), url).toBeLessThanOrEqual(0);
      await checkPage(page, shot);
    }
    // What the phone shows is what the figures say.
    await page.goto(overview());
    expect(await page.locator('#signups-total').textContent()).toBe('6');
    expect(await page.locator('#referred-share').textContent()).toBe('67%');
    const referred = page.getByRole('table', { name: /credited to them/ });
    await page.goto(subscriber());
    expect(await referred.locator('tbody tr').count()).toBe(4);
    await context.close();
  });

  it('has no axe violations at desktop width either', async () => {
    const { context, page } = await signedIn(browser, h.server.url, `admin-${t.tenantId}@test.example`);
    for (const [url, shot] of [
      [overview(), 'cockpit-desk-overview'],
      [subscriber(), 'cockpit-desk-subscriber'],
    ] as const) {
      await page.goto(url);
      await checkPage(page, shot);
      expect(await overflow(page)).toBeLessThanOrEqual(0);
    }
    // The charts are named images; the range form is labelled.
    await page.goto(overview());
    expect(await page.getByRole('img', { name: /^Sign-ups per day from .*: 6 in total/ }).count()).toBe(1);
    expect(await page.getByRole('img', { name: /^Conversion per day from/ }).count()).toBe(1);
    await page.getByLabel('From (UTC)').fill('2026-03-10');
    await page.getByLabel('To (UTC)').fill('2026-03-01');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(/from=2026-03-10/);
    expect(await page.getByRole('alert').textContent()).toContain('`from` must not be after `to`.');
    await checkPage(page);
    await context.close();
  });
});
