/**
 * Letting people in and erasing them from the dashboard (docs/subscribers.md#lifecycle), in real headless
 * Chromium against a real server: an admin admits the next five and erases one through the
 * confirmation step; a member sees the same facts with no controls. Every page is checked with
 * axe-core; screenshots go to test-results/screenshots for review.
 */
import { chromiumMissing, launchBrowser, type Tenant } from '@waitlistkit/testkit';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPage, signedIn as signIn } from './browser-helpers.js';
import { addOperator, type Harness, harness, ORIGIN, publicPost } from './helpers.js';

let h: Harness;
let browser: Browser;
let t: Tenant;

const signedIn = (email: string) => signIn(browser, h.server.url, email);

const check = checkPage;

const rowEmails = (page: Page) => page.locator('tbody tr td:nth-child(2)').allTextContents();
const caption = (page: Page) => page.locator('main table caption').first().textContent();

describe.skipIf(chromiumMissing)('subscriber lifecycle in the dashboard, in Chromium', () => {
  beforeAll(async () => {
    h = await harness();
    t = await h.tenant({ waitlist: ['--origins', ORIGIN, '--referrals', 'on', '--ip-limit', '1000'] });
    // Twelve people; p0 refers p3 and p4, p1 refers p5.
    const codes: string[] = [];
    for (let i = 0; i < 12; i++) {
      const referral_code = i === 3 || i === 4 ? codes[0] : i === 5 ? codes[1] : undefined;
      const res = await publicPost(h.server, t.waitlistId, {
        email: `p${i}@example.com`,
        ...(referral_code ? { referral_code } : {}),
      });
      expect(res.status).toBe(202);
      codes.push(((await res.json()) as { referral_code: string }).referral_code);
    }
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  it('an admin admits the next five and erases one through the confirmation step', async () => {
    const { context, page } = await signedIn(`admin-${t.tenantId}@test.example`);
    const list = `${h.server.url}/dashboard/waitlists/${t.waitlistId}/subscribers`;
    await page.goto(list);
    expect(await caption(page)).toContain('12 subscribers');
    await check(page, 'lifecycle-subscribers');

    await page.getByLabel('How many, first in line first').fill('5');
    await page.getByRole('button', { name: 'Admit', exact: true }).click();
    await page.waitForURL('**/subscribers?admitted=5');
    expect(await page.getByRole('status').first().textContent()).toBe('Let in 5 people.');
    expect(await caption(page)).toContain('7 subscribers');
    expect((await rowEmails(page))[0]).toBe('p5@example.com');

    await page.getByRole('link', { name: 'Admitted', exact: true }).click();
    await page.waitForURL('**/subscribers?status=admitted');
    expect(await caption(page)).toContain('5 admitted subscribers, newest admission first');
    expect(await rowEmails(page)).toEqual([4, 3, 2, 1, 0].map((i) => `p${i}@example.com`));
    await check(page, 'lifecycle-admitted');

    // From the line to one subscriber's page, then through the confirmation to the erasure.
    await page.getByRole('link', { name: 'Waiting (the line)' }).click();
    await page.getByRole('link', { name: 'p5@example.com' }).click();
    await page.waitForURL(/\/subscribers\/sub_\w+$/);
    const erasedUrl = page.url();
    const facts = (await page.locator('dl.facts').textContent()) as string;
    expect(facts).toContain('StatusWaiting');
    expect(facts).toContain('Position1');
    expect(facts).toContain('Email confirmedYes');
    await check(page, 'lifecycle-subscriber');

    await page.getByRole('link', { name: 'Erase this subscriber…' }).click();
    await page.waitForURL('**/erase');
    expect(await page.locator('main').textContent()).toContain('cannot be undone');
    await check(page, 'lifecycle-erase-confirm');
    await page.getByRole('button', { name: 'Erase subscriber' }).click();
    await page.waitForURL('**/subscribers?erased=1');
    expect(await page.getByRole('status').first().textContent()).toBe('Subscriber erased.');
    expect(await caption(page)).toContain('6 subscribers');
    expect(await rowEmails(page)).not.toContain('p5@example.com');

    const gone = await page.goto(erasedUrl);
    expect(gone?.status()).toBe(404);
    expect(await page.locator('h1').textContent()).toBe('Not found');

    // One more, from their own page.
    await page.goto(list);
    await page.getByRole('link', { name: 'p6@example.com' }).click();
    await page.waitForURL(/\/subscribers\/sub_\w+$/);
    await page.getByRole('button', { name: 'Admit', exact: true }).click();
    await page.waitForURL('**?admitted=1');
    expect(await page.locator('dl.facts').textContent()).toContain('StatusAdmitted');
    expect(await page.getByRole('button', { name: 'Admit', exact: true }).count()).toBe(0);

    await page.goto(`${h.server.url}/dashboard/waitlists/${t.waitlistId}`);
    await page.getByRole('link', { name: /^Overview/ }).click();
    await page.waitForURL('**/overview');
    expect(await page.locator('#waiting-count').textContent()).toBe('5');
    expect(await page.locator('#admitted-count').textContent()).toBe('6');
    // The chart is one named image; its numbers are a table as well. Today holds all twelve: the
    // day's count is an aggregate, which the erasure leaves as it was (docs/insights.md#stats).
    const chart = page.getByRole('img', { name: /^Sign-ups per day from .*: 12 in total/ });
    expect(await chart.count()).toBe(1);
    expect(await page.locator('svg.chart rect.bar').count()).toBe(30);
    await page.getByText('The same numbers as a table').click();
    const days = page.getByRole('table', { name: 'Views, sign-ups and conversion per day (UTC)' });
    expect(await days.locator('tbody tr').count()).toBe(30);
    // Day, views, sign-ups, conversion.
    expect(await days.locator('tbody tr').last().locator('td').nth(2).textContent()).toBe('12');
    const referrers = await page
      .getByRole('table', { name: /^Most credited referrals first/ })
      .locator('tbody tr')
      .allTextContents();
    expect(referrers).toEqual(['p0@example.com2Admitted', 'p1@example.com1Admitted']);
    await check(page, 'lifecycle-overview');
    await context.close();
  });

  it('a member sees the same facts with no admit or erase controls', async () => {
    const email = await addOperator(h, t.tenantId, 'member', `member-${t.tenantId}@test.example`);
    const { context, page } = await signedIn(email);
    await page.goto(`${h.server.url}/dashboard/waitlists/${t.waitlistId}/subscribers`);
    expect(await page.getByRole('button', { name: 'Admit' }).count()).toBe(0);
    expect(await page.getByLabel('How many, first in line first').count()).toBe(0);
    await check(page, 'lifecycle-subscribers-member');

    const first = (await rowEmails(page))[0] as string;
    await page.getByRole('link', { name: first }).click();
    await page.waitForURL(/\/subscribers\/sub_\w+$/);
    expect(await page.locator('dl.facts').textContent()).toContain(first);
    expect(
      await page
        .getByRole('button')
        .filter({ hasText: /Admit|Erase/ })
        .count(),
    ).toBe(0);
    expect(await page.getByRole('link', { name: /Erase/ }).count()).toBe(0);
    expect(await page.locator('main').textContent()).toContain('Only admins can let people in or erase them');
    await check(page, 'lifecycle-subscriber-member');

    // The confirmation page itself is refused, not only hidden.
    const refused = await page.goto(`${page.url()}/erase`);
    expect(refused?.status()).toBe(403);
    await context.close();
  });
});
