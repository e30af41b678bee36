import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { chromiumMissing, cli, launchBrowser, seedTenant, startServer, tempDir } from '@waitlistkit/testkit';
import { describe, expect, it } from 'vitest';

describe.skipIf(chromiumMissing)('examples/script-tag', () => {
  it('is a marketing page on its own origin whose widget signs a visitor up', async () => {
    const dir = tempDir();
    const t = await seedTenant(dir.db, {
      waitlist: ['--referrals', 'on', '--challenge', 'on', '--challenge-min-age-ms', '200'],
    });
    const server = await startServer({ db: dir.db });
    const site = spawn(process.execPath, [fileURLToPath(new URL('../serve.mjs', import.meta.url))], {
      env: { ...process.env, PORT: '0', WAITLIST_ID: t.waitlistId, WAITLIST_BASE_URL: server.url },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const line = await new Promise<string>((resolve) =>
      site.stdout?.once('data', (chunk: Buffer) => resolve(String(chunk))),
    );
    const origin = new URL(line.slice(line.indexOf('http'))).origin;
    // The page's origin goes on the allowlist, as the example's comment tells its reader to do.
    await cli(['waitlist', 'update', '--waitlist', t.waitlistId, '--origins', origin], { db: dir.db });
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      await page.goto(`${origin}/`);
      await page.locator('waitlist-form >> input[type=email]').fill('reader@example.com');
      await page.locator('waitlist-form >> button[type=submit]').click();
      await expect
        .poll(() => page.locator('waitlist-form >> [role=status]').textContent(), { timeout: 30_000 })
        .toBe("You're on the list!");
      expect(await page.locator('waitlist-form >> input[readonly]').inputValue()).toMatch(
        new RegExp(`^${origin}/\\?ref=\\w{6}$`),
      );
      // The page's theme reached into the shadow root through its custom property.
      const accent = await page
        .locator('waitlist-form >> button')
        .first()
        .evaluate((b) => getComputedStyle(b).backgroundColor);
      expect(accent).toBe('rgb(179, 84, 30)');
    } finally {
      await browser.close();
      site.kill();
      await server.stop();
      dir.cleanup();
    }
  });
});
