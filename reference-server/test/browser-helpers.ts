/**
 * What the Chromium tests share: signing in to the dashboard through the form, checking a page,
 * and a tenant's landing page on another origin for the widget.
 */
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { axeViolations } from '@waitlistkit/testkit';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { PASSWORD } from './helpers.js';

const SHOTS = new URL('../test-results/screenshots/', import.meta.url).pathname;

/** A fresh browser context signed in as `email` through the sign-in form, on the waitlists page. */
export async function signedIn(
  browser: Browser,
  baseUrl: string,
  email: string,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ bypassCSP: true, viewport: { width: 1200, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
  const page = await context.newPage();
  await page.goto(`${baseUrl}/dashboard`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/dashboard/waitlists');
  return { context, page };
}

/** No axe violations on the page; with `shot`, a screenshot in test-results/screenshots for review. */
export async function checkPage(page: Page, shot?: string): Promise<void> {
  expect(await axeViolations(page)).toEqual([]);
  if (shot) {
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: `${SHOTS}${shot}.png`, fullPage: true });
  }
}

/** A tenant's marketing page on another origin than the server's, made by `html` for each path. */
export interface LandingPage {
  /** `http://localhost:<port>`: not the server's 127.0.0.1, so another origin. */
  origin: string;
  close(): Promise<void>;
}

export async function startLandingPage(html: (path: string) => string): Promise<LandingPage> {
  const landing = createServer((req, res) =>
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(html(req.url ?? '/')),
  );
  await new Promise<void>((resolve) => landing.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://localhost:${(landing.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => landing.close(() => resolve())),
  };
}
