/**
 * Webhook endpoints in the dashboard (docs/webhooks.md#endpoints), in real headless Chromium against a real
 * server and a real receiver on loopback: an admin adds an endpoint through the form, copies its
 * secret, watches a sign-up's delivery fail, sends it again, then deletes the endpoint. Every
 * page is checked with axe-core; screenshots go to test-results/screenshots for review.
 */
import { chromiumMissing, launchBrowser, type Tenant } from '@waitlistkit/testkit';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPage, signedIn } from './browser-helpers.js';
import { type Harness, harness, ORIGIN, publicPost } from './helpers.js';
import { receiver } from './webhook-receiver.js';

let h: Harness;
let browser: Browser;
let t: Tenant;
let r: Awaited<ReturnType<typeof receiver>>;
let status = 500;

/** The deliveries table once a reload shows `wanted` (the worker delivers in its own time). */
const deliveriesShow = (page: Page, wanted: string) =>
  expect
    .poll(
      async () => {
        await page.reload();
        return page.getByRole('table', { name: /^Recent deliveries/ }).textContent();
      },
      { timeout: 20_000, interval: 200 },
    )
    .toContain(wanted);

describe.skipIf(chromiumMissing)('webhook endpoints in the dashboard, in Chromium', () => {
  beforeAll(async () => {
    // Loopback allowed for the receiver; a failed attempt is retried only an hour later.
    h = await harness({ WAITLIST_WEBHOOK_ALLOW_PRIVATE: '1', WAITLIST_WEBHOOK_RETRY_SCHEDULE: '3600' });
    t = await h.tenant({ waitlist: ['--origins', ORIGIN] });
    r = await receiver(() => status);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await r?.close();
    await h?.close();
  });

  it('an admin adds an endpoint, copies its secret, sees a delivery and sends it again', async () => {
    const { context, page } = await signedIn(browser, h.server.url, `admin-${t.tenantId}@test.example`);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.waitForURL('**/dashboard/webhooks');
    expect(await page.locator('tbody').textContent()).toBe('No endpoints yet.');
    await checkPage(page, 'webhooks-empty');

    const url = `${r.url}/hook`;
    await page.getByLabel('URL', { exact: true }).fill(url);
    await page.getByLabel('subscriber.created').check();
    await page.getByLabel('Waitlist').selectOption({ label: 'Launch' });
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.waitForURL('**/dashboard/webhooks/created/*');
    const secret = await page.getByLabel(`Signing secret of ${url}`).inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    await page.getByRole('button', { name: 'Copy secret' }).click();
    await expect.poll(() => page.locator('#copy-status').textContent()).toBe('Secret copied.');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await checkPage(page, 'webhooks-secret');

    await page.getByRole('link', { name: 'Done' }).click();
    await page.waitForURL(/\/dashboard\/webhooks\/wh_\w+$/);
    expect(await page.locator('h1').textContent()).toBe(url);
    expect(await page.locator('main').textContent()).not.toContain(secret);

    expect((await publicPost(h.server, t.waitlistId, { email: 'hooked@example.com' })).status).toBe(202);
    await deliveriesShow(page, 'HTTP 500');
    expect(await page.locator('tbody tr td').nth(1).textContent()).toBe('Pending');
    await checkPage(page, 'webhooks-deliveries');

    status = 200;
    await page.getByRole('button', { name: 'Send again' }).click();
    await page.waitForURL('**?resent=1');
    expect(await page.getByRole('status').first().textContent()).toBe(
      'Sent again: the delivery is pending until its next attempt.',
    );
    await deliveriesShow(page, 'HTTP 200');
    expect(await page.locator('tbody tr td').nth(1).textContent()).toBe('Delivered');
    expect(await page.locator('tbody tr li').count()).toBe(2);
    expect(r.received).toHaveLength(2);

    await page.getByRole('link', { name: 'Back to webhooks' }).click();
    await page.waitForURL('**/dashboard/webhooks');
    await checkPage(page, 'webhooks-list');
    await page.getByRole('button', { name: `Delete ${url}` }).click();
    await page.waitForURL('**/dashboard/webhooks?deleted=1');
    expect(await page.locator('tbody').textContent()).toBe('No endpoints yet.');
    await context.close();
  });
});
