/** The README's first command, as a visitor sees it: `serve --demo`'s page signs up with the widget. */
import { axeViolations, chromiumMissing, launchBrowser, startServer, tempDir } from '@waitlistkit/testkit';
import { describe, expect, it } from 'vitest';

describe.skipIf(chromiumMissing)('the demo landing page in Chromium', () => {
  it('embeds the widget, which signs a visitor up and links to the status page', async () => {
    const dir = tempDir();
    const server = await startServer({ db: dir.db, args: ['--demo'] });
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      const problems: string[] = [];
      page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
      const signups: string[] = [];
      page.on(
        'request',
        (r) => r.method() === 'POST' && r.url().endsWith('/subscribers') && signups.push(r.url()),
      );
      await page.goto(`${server.url}/`);
      await page.locator('waitlist-form >> input[type=email]').fill('visitor@example.com');
      await page.locator('waitlist-form >> button[type=submit]').click();
      await expect
        .poll(() => page.locator('waitlist-form >> [role=status]').textContent(), { timeout: 30_000 })
        .toBe("You're on the list!");
      // The demo's gates are on, and passed while the visitor typed: one POST, no 428.
      expect(signups).toHaveLength(1);
      expect(await page.locator('#caption').textContent()).toContain('Proof of Work');
      const share = await page.locator('waitlist-form >> input[readonly]').inputValue();
      expect(share).toMatch(new RegExp(`^${server.url}/\\?ref=[23456789A-HJ-NP-Z]{6}$`));
      // The page's own CSP (script-src, worker-src, connect-src) let everything through.
      expect(problems).toEqual([]);
      const statusUrl = (await page.locator('waitlist-form >> a[part=link]').getAttribute('href')) as string;
      await page.goto(statusUrl);
      expect(await page.locator('.position').textContent()).toBe('#1');
      const axe = await (await browser.newContext({ bypassCSP: true })).newPage();
      await axe.goto(`${server.url}/`);
      await axe.locator('waitlist-form >> input[type=email]').waitFor();
      expect(await axeViolations(axe)).toEqual([]);
    } finally {
      await browser.close();
      await server.stop();
      dir.cleanup();
    }
  });
});
