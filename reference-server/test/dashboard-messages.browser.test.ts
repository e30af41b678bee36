/**
 * The message editor (docs/messages.md#the-editor) in real headless Chromium against a real
 * server: the preview follows the typing with no submit, under the dashboard's own Content
 * Security Policy (the script runs by its nonce, the HTML part in its sandboxed frame); a refused
 * save shows its reason at the field; axe finds nothing; at 390 px nothing scrolls sideways.
 */
import { chromiumMissing, launchBrowser, type Tenant } from '@waitlistkit/testkit';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPage, signedIn } from './browser-helpers.js';
import { addOperator, type Harness, harness, messageShow, PASSWORD } from './helpers.js';

let h: Harness;
let browser: Browser;
let t: Tenant;

const editorPath = () => `/dashboard/waitlists/${t.waitlistId}/messages/welcome`;

/** Signed in through the form in a context that keeps the page's CSP, as an operator's browser does. */
async function withCsp(width = 1200): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${h.server.url}/dashboard/sign-in`);
  await page.getByLabel('Email').fill(`admin-${t.tenantId}@test.example`);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/dashboard/waitlists');
  return page;
}

describe.skipIf(chromiumMissing)('the message editor, in Chromium', () => {
  beforeAll(async () => {
    h = await harness();
    t = await h.tenant();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  it('updates the preview as the body is typed, with no submit and nothing saved', async () => {
    const page = await withCsp();
    const refusedByCsp: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text()) && !/style/i.test(m.text())) refusedByCsp.push(m.text());
    });
    await page.goto(`${h.server.url}/dashboard/waitlists/${t.waitlistId}`);
    await page.getByRole('link', { name: 'Messages: welcome, referral, admitted' }).click();
    await page.getByRole('link', { name: 'Welcome' }).click();
    await page.waitForURL(`**${editorPath()}`);
    await page.getByLabel('Subject').fill('Hello {{email}}');
    await page.getByLabel('Body').pressSequentially('You are number {{position}} <b>', { delay: 10 });
    await expect
      .poll(() => page.locator('#preview-text').textContent(), { timeout: 20_000 })
      .toContain('You are number 42 <b>');
    expect(await page.locator('#preview-subject').textContent()).toBe('Hello ada@example.com');
    // The HTML part, escaped, in a frame of its own that runs nothing.
    const frame = page.frameLocator('#preview-html');
    await expect.poll(() => frame.locator('p').first().textContent()).toBe('You are number 42 <b>');
    expect(await page.locator('#preview-html').getAttribute('sandbox')).toBe('');
    // A template that cannot be sent: the preview says why, as the save would.
    await page.getByLabel('Body').pressSequentially(' {{nope}}', { delay: 10 });
    await expect
      .poll(() => page.locator('#preview-status').textContent(), { timeout: 20_000 })
      .toContain('`{{nope}}` is not a merge tag');
    expect(page.url()).toBe(`${h.server.url}${editorPath()}`);
    expect(refusedByCsp).toEqual([]);
    const saved = await h.cli<{ updated_at: string | null }>(messageShow(t.waitlistId));
    expect(saved.updated_at).toBeNull();
    await page.context().close();
  });

  it('shows a refused save at the field, as typed, and the page passes axe', async () => {
    const { context, page } = await signedIn(browser, h.server.url, `admin-${t.tenantId}@test.example`);
    await page.goto(`${h.server.url}${editorPath()}`);
    await checkPage(page, 'message-editor');
    await page.getByLabel('Subject').fill('Welcome to {{waitlist_name}}');
    await page.getByLabel('Body').fill('Hi {{unknown}}, welcome.');
    await page.getByRole('button', { name: 'Save message' }).click();
    await page.waitForLoadState();
    const body = page.getByLabel('Body');
    expect(await body.getAttribute('aria-invalid')).toBe('true');
    expect(await body.inputValue()).toBe('Hi {{unknown}}, welcome.');
    const error = page.locator('#body-error');
    expect(await error.textContent()).toContain('`{{unknown}}` is not a merge tag');
    expect(await body.getAttribute('aria-describedby')).toContain('body-error');
    await checkPage(page, 'message-editor-refused');

    await body.fill('Hi {{email}}, welcome.');
    await page.getByLabel('Send this message').check();
    await page.getByRole('button', { name: 'Save message' }).click();
    await page.waitForURL('**?saved=1');
    expect(await page.getByRole('status').first().textContent()).toBe('Message saved.');
    expect(await page.locator('#preview-text').textContent()).toContain('Hi ada@example.com, welcome.');
    await checkPage(page, 'message-editor-saved');
    await context.close();
  });

  it('reads at 390 px wide with nothing scrolling sideways, a long address of the operator’s included', async () => {
    // The page names the operator's address (where a test goes): one word wider than a phone.
    const email = await addOperator(
      h,
      t.tenantId,
      'admin',
      `${'founder'.repeat(8)}@a-long-company-name.example`,
    );
    const { context, page } = await signedIn(browser, h.server.url, email);
    await page.setViewportSize({ width: 390, height: 844 });
    // The own version, a right-to-left one (its language menu and our Arabic text), and the list.
    const pages = {
      welcome: editorPath(),
      'welcome-ar': `${editorPath()}?lang=ar`,
      list: `/dashboard/waitlists/${t.waitlistId}/messages`,
    };
    for (const [name, path] of Object.entries(pages)) {
      await page.goto(`${h.server.url}${path}`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, name).toBeLessThanOrEqual(0);
      await checkPage(page, `message-editor-390-${name}`);
    }
    await context.close();
  });
});
