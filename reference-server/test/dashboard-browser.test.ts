/**
 * The dashboard in real headless Chromium against a real server: an admin's day, a member's
 * view, and an attacker's page. Every page is checked with axe-core; screenshots of the main
 * pages are written to test-results/screenshots for review.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromiumMissing, launchBrowser, type Tenant } from '@waitlistkit/testkit';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPage, signedIn as signIn } from './browser-helpers.js';
import { addOperator, apiCreate, apiList, type Harness, harness } from './helpers.js';

let h: Harness;
let browser: Browser;
let t: Tenant;

const signedIn = (email: string) => signIn(browser, h.server.url, email);

const check = checkPage;

describe.skipIf(chromiumMissing)('dashboard in Chromium', () => {
  beforeAll(async () => {
    h = await harness();
    t = await h.tenant();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  it('an admin creates a waitlist, sets it up, and manages a read-only key end to end', async () => {
    const admin = `admin-${t.tenantId}@test.example`;
    const signInPage = await (await browser.newContext({ bypassCSP: true })).newPage();
    await signInPage.goto(`${h.server.url}/dashboard/sign-in`);
    await check(signInPage, 'sign-in');

    const { context, page } = await signedIn(admin);
    await check(page, 'waitlists');
    await page.getByLabel('Name').fill('Spring launch');
    await page.getByRole('button', { name: 'Create waitlist' }).click();
    await page.waitForURL(/\/dashboard\/waitlists\/wl_\w+$/);
    const waitlistId = (await page.locator('#waitlist-id').textContent()) as string;
    expect(waitlistId).toMatch(/^wl_\w+$/);
    expect(await page.locator('#snippet').inputValue()).toBe(
      `<script src="${h.server.url}/widget/waitlist.js" data-waitlist-id="${waitlistId}" data-base-url="${h.server.url}" async></script>`,
    );
    // A marketing page on its own origin that pastes the snippet as shown.
    const snippet = await page.locator('#snippet').inputValue();
    const site = createServer((_req, res) => {
      res.setHeader('Content-Type', 'text/html');
      res.end(`<!doctype html><html lang="en"><title>Spring</title><main>${snippet}</main></html>`);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    await page.getByLabel('Proof of Work', { exact: true }).check();
    await page.getByLabel('Proof of Work difficulty (bits)').fill('16');
    await page.getByLabel('Allowed origins').fill(siteOrigin);
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(() => page.getByRole('status').first().textContent()).toBe('Settings saved.');
    await check(page, 'waitlist-setup');
    try {
      const visitor = await context.newPage();
      await visitor.goto(siteOrigin);
      // The saved PoW is required: the widget fetches it from `/gates` on focus (docs/gates.md#gates-before-the-submit).
      const gates = visitor.waitForResponse((r) => r.url().endsWith('/gates'));
      await visitor.locator('waitlist-form >> input[type=email]').fill('visitor@example.com');
      expect((await (await gates).json()).pow).toMatchObject({ difficulty: 16 });
      await visitor.locator('waitlist-form >> button[type=submit]').click();
      await expect
        .poll(() => visitor.locator('waitlist-form >> [role=status]').textContent(), { timeout: 30_000 })
        .toBe("You're on the list!");
      await visitor.close();
    } finally {
      site.close();
    }

    await page.getByRole('link', { name: 'View subscribers' }).click();
    await check(page, 'subscribers');

    await page.getByRole('link', { name: 'API keys' }).click();
    await check(page, 'keys');
    await page.getByLabel('Name').fill('Reporting');
    await page.getByLabel('Read-only').check();
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.waitForURL('**/dashboard/keys/created/*');
    const value = await page.locator('#key-value').inputValue();
    expect(value).toMatch(/^wlk_live_\w{38}$/);
    await page.getByRole('button', { name: 'Copy key' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(value);
    await check(page, 'key-created');
    await page.reload();
    expect(await page.content()).not.toContain(value);
    await expect.poll(() => page.locator('main').textContent()).toContain('no longer available');

    expect((await apiList(h.server, value, t.waitlistId)).status).toBe(200);
    expect((await apiCreate(h.server, value, t.waitlistId, { email: 'a@example.com' })).status).toBe(403);

    await page.goto(`${h.server.url}/dashboard/keys`);
    await page.getByRole('link', { name: 'Revoke Reporting' }).click();
    await check(page, 'revoke-confirm');
    await page.getByRole('button', { name: 'Revoke key' }).click();
    await page.waitForURL('**/dashboard/keys');
    expect((await apiList(h.server, value, t.waitlistId)).status).toBe(401);

    await page.getByRole('link', { name: 'Activity' }).click();
    const rows = await page.locator('tbody tr').allTextContents();
    expect(rows[0]).toContain(`${admin} (operator)`);
    expect(rows[0]).toContain('revoked a key “Reporting”');
    expect(rows[1]).toContain(`${admin} (operator)`);
    expect(rows[1]).toContain('created a key “Reporting”');
    await page.getByLabel('Actor').selectOption('key');
    await page.getByRole('button', { name: 'Filter' }).click();
    expect(await page.locator('tbody').textContent()).not.toContain('created a key');
    await check(page, 'activity');
    await page.goto(`${h.server.url}/dashboard/waitlists/${waitlistId}/archive`);
    await check(page, 'archive-confirm');
    await context.close();
  });

  it('a member sees the keys but has nothing to create or revoke them with', async () => {
    const email = await addOperator(h, t.tenantId, 'member', `member-${t.tenantId}@test.example`);
    const { context, page } = await signedIn(email);
    await page.getByRole('link', { name: 'API keys' }).click();
    expect(await page.getByRole('button', { name: 'Create key' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: /^Revoke/ }).count()).toBe(0);
    expect(await page.locator('main').textContent()).toContain('Only admins can create or revoke keys');
    await check(page, 'keys-member');
    await context.close();
  });

  it('refuses a form posted from another site’s page, with the admin signed in', async () => {
    const { context, page } = await signedIn(`admin-${t.tenantId}@test.example`);
    const before = (await h.cli<{ items: unknown[] }>(['key', 'list', '--tenant', t.tenantId])).items.length;
    // Another port is another origin but the same site: SameSite cookies still go along.
    const attacker: Server = createServer((_req, res) => {
      res.setHeader('Content-Type', 'text/html');
      res.end(`<!doctype html><form id="f" method="post" action="${h.server.url}/dashboard/keys">
        <input name="name" value="Stolen"><input name="preset" value="full"></form>
        <script>document.getElementById('f').submit()</script>`);
    });
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    try {
      const answer = page.waitForResponse(
        (r) => r.url().endsWith('/dashboard/keys') && r.request().method() === 'POST',
      );
      await page.goto(`http://127.0.0.1:${(attacker.address() as AddressInfo).port}/`);
      expect((await answer).status()).toBe(403);
      expect(await page.locator('main').textContent()).toContain('did not come from the dashboard');
      expect((await h.cli<{ items: unknown[] }>(['key', 'list', '--tenant', t.tenantId])).items.length).toBe(
        before,
      );
    } finally {
      attacker.close();
      await context.close();
    }
  });
});
