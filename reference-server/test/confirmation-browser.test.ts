/**
 * Double opt-in as a visitor lives it, in Chromium: the demo page's widget says "check your
 * inbox", the mail's link opens a page that confirms only when its button is pressed, and the
 * status page stops asking once it is done.
 */
import {
  chromiumMissing,
  cli,
  launchBrowser,
  startServer,
  startSmtpServer,
  tempDir,
} from '@waitlistkit/testkit';
import { describe, expect, it } from 'vitest';
import { until } from './helpers.js';

describe.skipIf(chromiumMissing)('email confirmation in Chromium', () => {
  it('tells the visitor to check their inbox, and the button in the mail confirms', async () => {
    const dir = tempDir();
    const smtp = await startSmtpServer();
    const server = await startServer({
      db: dir.db,
      args: ['--demo'],
      env: { WAITLIST_SMTP_URL: smtp.url, WAITLIST_MAIL_FROM: 'waitlist@demo.example' },
    });
    const browser = await launchBrowser();
    try {
      const home = await (await fetch(`${server.url}/`)).text();
      const waitlistId = home.match(/wl_[A-Za-z0-9]{16}/)?.[0] as string;
      await cli(['waitlist', 'update', '--waitlist', waitlistId, '--confirm-email', 'on'], { db: dir.db });

      const page = await browser.newPage();
      await page.goto(`${server.url}/`);
      await page.locator('waitlist-form >> input[type=email]').fill('visitor@example.com');
      await page.locator('waitlist-form >> button[type=submit]').click();
      await expect
        .poll(() => page.locator('waitlist-form >> [role=status]').textContent(), { timeout: 30_000 })
        .toBe('Check your inbox to confirm your email.');
      const statusUrl = (await page.locator('waitlist-form >> a[part=link]').getAttribute('href')) as string;
      await page.goto(statusUrl);
      expect(await page.locator('.notice').textContent()).toContain('Check your inbox');

      const mail = await until('the mail', () => smtp.mails[0]);
      const link = (mail.parsed.text ?? '').match(/http:\/\/\S+\/c\/[\w-]+/)?.[0] as string;
      await page.goto(link);
      expect(await page.locator('h1').textContent()).toBe('Confirm your email');
      await page.locator('button[type=submit]').click();
      await expect.poll(() => page.locator('h1').textContent()).toBe('Your email is confirmed');
      await page.locator('a', { hasText: 'See your place in line' }).click();
      await expect.poll(() => page.url()).toBe(statusUrl);
      expect(await page.locator('.notice').count()).toBe(0);
      expect(await page.locator('.position').textContent()).toBe('#1');
    } finally {
      await browser.close();
      await server.stop();
      await smtp.close();
      dir.cleanup();
    }
  }, 90_000);
});
