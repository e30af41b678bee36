/**
 * Gates before the submit (contract §16), in Chromium against the real server: the widget passes
 * the Challenge and Proof of Work while the visitor types, so the sign-up is a single request.
 */
import { chromiumMissing, cli, launchBrowser, startServer, tempDir } from '@waitlistkit/testkit';
import { describe, expect, it } from 'vitest';

describe.skipIf(chromiumMissing)('the gates prefetched while the visitor types', () => {
  it('sends one POST to /subscribers, answered 202', { timeout: 90_000 }, async () => {
    const dir = tempDir();
    const server = await startServer({ db: dir.db, args: ['--demo'] });
    const browser = await launchBrowser();
    try {
      const home = await (await fetch(`${server.url}/`)).text();
      const waitlistId = home.match(/wl_[A-Za-z0-9]{16}/)?.[0] as string;
      await cli(['waitlist', 'update', '--waitlist', waitlistId, '--challenge', 'on', '--pow', 'on'], {
        db: dir.db,
      });

      const page = await browser.newPage();
      const posts: { url: string; status: Promise<number | undefined> }[] = [];
      page.on('request', (request) => {
        if (request.method() === 'POST' && request.url().endsWith('/subscribers'))
          posts.push({ url: request.url(), status: request.response().then((r) => r?.status()) });
      });
      await page.goto(`${server.url}/`);
      const field = page.locator('waitlist-form >> input[type=email]');
      await field.focus();
      // About 2 s of typing: the minimum age (1.5 s) and the solve run meanwhile.
      await field.pressSequentially('visitor@example.com', { delay: 100 });
      await page.locator('waitlist-form >> button[type=submit]').click();
      await expect
        .poll(() => page.locator('waitlist-form >> [role=status]').textContent(), { timeout: 60_000 })
        .toBe("You're on the list!");
      expect(posts).toHaveLength(1);
      expect(await posts[0]?.status).toBe(202);
    } finally {
      await browser.close();
      await server.stop();
      dir.cleanup();
    }
  });

  it('a gate switched on after the prefetch costs one 428 round, and the sign-up succeeds', {
    timeout: 90_000,
  }, async () => {
    const dir = tempDir();
    const server = await startServer({ db: dir.db, args: ['--demo'] });
    const browser = await launchBrowser();
    try {
      const home = await (await fetch(`${server.url}/`)).text();
      const waitlistId = home.match(/wl_[A-Za-z0-9]{16}/)?.[0] as string;
      const update = (args: string[]) =>
        cli(['waitlist', 'update', '--waitlist', waitlistId, ...args], { db: dir.db });
      await update(['--challenge', 'off', '--pow', 'on']);

      const page = await browser.newPage();
      const statuses: Promise<number | undefined>[] = [];
      page.on('request', (request) => {
        if (request.method() === 'POST' && request.url().endsWith('/subscribers'))
          statuses.push(request.response().then((r) => r?.status()));
      });
      const gates = page.waitForResponse((r) => r.url().endsWith('/gates'));
      await page.goto(`${server.url}/`);
      const field = page.locator('waitlist-form >> input[type=email]');
      await field.focus();
      // The prefetch got a PoW nonce and no Challenge; then the operator turns the Challenge on.
      const prefetched = await (await gates).json();
      expect(prefetched.challenge).toBeUndefined();
      expect(prefetched.pow.nonce).toEqual(expect.any(String));
      await update(['--challenge', 'on']);
      await field.pressSequentially('late-change@example.com', { delay: 50 });
      await page.locator('waitlist-form >> button[type=submit]').click();
      await expect
        .poll(() => page.locator('waitlist-form >> [role=status]').textContent(), { timeout: 60_000 })
        .toBe("You're on the list!");
      expect(await Promise.all(statuses)).toEqual([428, 202]);
    } finally {
      await browser.close();
      await server.stop();
      dir.cleanup();
    }
  });
});
