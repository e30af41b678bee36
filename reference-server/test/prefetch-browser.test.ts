/**
 * Gates before the submit (docs/gates.md#gates-before-the-submit), in Chromium against the real server: the widget passes
 * the Challenge and Proof of Work while the visitor types, so the sign-up is a single request.
 */
import {
  chromiumMissing,
  cli,
  launchBrowser,
  type RunningServer,
  startServer,
  tempDir,
} from '@waitlistkit/testkit';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const dir = tempDir();
let server: RunningServer;
let browser: Browser;
let waitlistId: string;

beforeAll(async () => {
  server = await startServer({ db: dir.db, args: ['--demo'] });
  const home = await (await fetch(`${server.url}/`)).text();
  waitlistId = home.match(/wl_[A-Za-z0-9]{16}/)?.[0] as string;
  if (!chromiumMissing) browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  dir.cleanup();
});

const update = (args: string[]) =>
  cli(['waitlist', 'update', '--waitlist', waitlistId, ...args], { db: dir.db });

/** The demo page, with the statuses of its POSTs to …/subscribers as they are answered. */
async function demoPage(): Promise<{ page: Page; statuses: Promise<number | undefined>[] }> {
  const page = await browser.newPage();
  const statuses: Promise<number | undefined>[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/subscribers'))
      statuses.push(request.response().then((r) => r?.status()));
  });
  return { page, statuses };
}

async function typeAndSubmit(page: Page, email: string, delay: number): Promise<void> {
  const field = page.locator('waitlist-form >> input[type=email]');
  await field.pressSequentially(email, { delay });
  await page.locator('waitlist-form >> button[type=submit]').click();
  await expect
    .poll(() => page.locator('waitlist-form >> [role=status]').textContent(), { timeout: 60_000 })
    .toBe("You're on the list!");
}

describe.skipIf(chromiumMissing)('the gates prefetched while the visitor types', () => {
  it('sends one POST to /subscribers, answered 202', { timeout: 90_000 }, async () => {
    await update(['--challenge', 'on', '--pow', 'on']);
    const { page, statuses } = await demoPage();
    await page.goto(`${server.url}/`);
    await page.locator('waitlist-form >> input[type=email]').focus();
    // About 2 s of typing: the minimum age (1.5 s) and the solve run meanwhile.
    await typeAndSubmit(page, 'visitor@example.com', 100);
    expect(await Promise.all(statuses)).toEqual([202]);
    await page.close();
  });

  it('a gate switched on after the prefetch costs one 428 round, and the sign-up succeeds', {
    timeout: 90_000,
  }, async () => {
    await update(['--challenge', 'off', '--pow', 'on']);
    const { page, statuses } = await demoPage();
    const gates = page.waitForResponse((r) => r.url().endsWith('/gates'));
    await page.goto(`${server.url}/`);
    await page.locator('waitlist-form >> input[type=email]').focus();
    // The prefetch got a PoW nonce and no Challenge; then the operator turns the Challenge on.
    const prefetched = await (await gates).json();
    expect(prefetched.challenge).toBeUndefined();
    expect(prefetched.pow.nonce).toEqual(expect.any(String));
    await update(['--challenge', 'on']);
    await typeAndSubmit(page, 'late-change@example.com', 50);
    expect(await Promise.all(statuses)).toEqual([428, 202]);
    await page.close();
  });

  it('a visitor back after nine minutes gets fresh gates on focus, and the submit is still one POST', {
    timeout: 90_000,
  }, async () => {
    await update(['--challenge', 'on', '--pow', 'on']);
    const { page, statuses } = await demoPage();
    let gates = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/gates')) gates++;
    });
    const field = page.locator('waitlist-form >> input[type=email]');
    await page.goto(`${server.url}/`);
    const first = page.waitForResponse((r) => r.url().endsWith('/gates'));
    await field.focus();
    await first;
    await field.blur();
    // The page's clock jumps nine and a half minutes ahead and runs on from there: the prepared
    // tokens are now too old for the widget to send. The server's clock did not move, so a token
    // from the first prepare would still be accepted: only a second /gates shows the refresh.
    await page.clock.install({ time: Date.now() + 9.5 * 60_000 });
    await page.clock.resume();
    const second = page.waitForResponse((r) => r.url().endsWith('/gates'));
    await field.focus();
    await second;
    await typeAndSubmit(page, 'back-later@example.com', 100);
    expect(gates).toBe(2);
    expect(await Promise.all(statuses)).toEqual([202]);
    await page.close();
  });
});
