import { axeViolations, chromiumMissing, launchBrowser } from '@waitlistkit/testkit';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, harness, ORIGIN, publicPost } from './helpers.js';

let h: Harness;
let statusUrl: string;
let referralCode: string;

beforeAll(async () => {
  h = await harness();
  const t = await h.tenant({ waitlist: ['--referrals', 'on', '--origins', ORIGIN] });
  for (const email of ['first@example.com', 'second@example.com'])
    await publicPost(h.server, t.waitlistId, { email });
  const me = (await (await publicPost(h.server, t.waitlistId, { email: 'me@example.com' })).json()) as {
    status_url: string;
    referral_code: string;
  };
  statusUrl = me.status_url;
  referralCode = me.referral_code;
  await publicPost(h.server, t.waitlistId, { email: 'friend@example.com', referral_code: referralCode });
  await h.cli(['waitlist', 'update', '--waitlist', t.waitlistId, '--referral-boost', '10']);
});
afterAll(() => h.close());

describe('hosted status page', () => {
  it('shows position, referral code and count, and a share link; sends no referrer and is not cached', async () => {
    expect(statusUrl).toMatch(new RegExp(`^${h.server.url}/s/[A-Za-z0-9_-]{24}$`));
    const res = await fetch(statusUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    const html = await res.text();
    const text = html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
    // Third to join, one referral, boost 10: first in line.
    expect(text).toContain('#1 of 4 people on the waitlist');
    expect(text).toContain(`Your referral code ${referralCode}`);
    expect(text).toContain('Referrals 1 person has joined with your code');
    expect(html).toContain(`value="${ORIGIN}/?ref=${referralCode}"`);
  });

  it('answers unknown tokens, and waitlists without referrals, with a 404 page', async () => {
    for (const url of [`${h.server.url}/s/unknown-token`, `${h.server.url}/s/${'%'.repeat(3)}`]) {
      const res = await fetch(url);
      expect(res.status).toBe(404);
      expect(await res.text()).toContain('Page not found');
    }
    const off = await h.tenant({ waitlist: ['--origins', ORIGIN] });
    await publicPost(h.server, off.waitlistId, { email: 'x@example.com' });
    const res = await fetch(statusUrl.replace(/\/s\/.*/, '/s/also-unknown'));
    expect(res.status).toBe(404);
  });
});

describe.skipIf(chromiumMissing)('hosted status page in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('has no axe violations, fits a phone without sideways scrolling, and copies the link', async () => {
    const context = await browser.newContext({ bypassCSP: true, viewport: { width: 360, height: 740 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.server.url });
    const page = await context.newPage();
    await page.goto(statusUrl);
    expect(await axeViolations(page)).toEqual([]);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.getByRole('button', { name: 'Copy link' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Link copied.');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${ORIGIN}/?ref=${referralCode}`);
    const notFound = await context.newPage();
    await notFound.goto(`${h.server.url}/s/nope`);
    expect(await axeViolations(notFound)).toEqual([]);
    await context.close();
  });
});
