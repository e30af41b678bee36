/**
 * The script-tag widget in real headless Chromium, on a marketing page served from its own
 * origin, against a real reference server: the whole 428 loop (Challenge, then Proof of Work at
 * difficulty 16), the fallbacks a Content Security Policy forces, keyboard-only use,
 * accessibility, and the setup hint for a 404.
 */
import {
  axeViolations,
  chromiumMissing,
  launchBrowser,
  type RunningServer,
  seedTenant,
  startServer,
  tempDir,
} from '@waitlistkit/testkit';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { landingPage, type PageServer, startPageServer } from './page-server.js';

let browser: Browser;
let server: RunningServer;
let pages: PageServer;
let waitlistId: string;
let apiKey: string;
const dir = tempDir();

/** CSPs for the page, by path: the widget needs script-src for its file, connect-src for the API. */
function csp(path: string, service: string): string | undefined {
  const base = `default-src 'none'; style-src 'self'; connect-src ${service}; script-src 'nonce-test' ${service}`;
  if (path.startsWith('/no-workers')) return `${base} 'wasm-unsafe-eval'; worker-src 'none'`;
  if (path.startsWith('/no-wasm')) return `${base}; worker-src blob:`;
  if (path.startsWith('/strict')) return `${base} 'wasm-unsafe-eval'; worker-src blob:`;
  return undefined;
}

/** Records CSP refusals seen by the document, for the test to read. */
const VIOLATIONS = `<script nonce="test">window.violations=[];document.addEventListener('securitypolicyviolation',function(e){window.violations.push(e.effectiveDirective)});</script>`;

beforeAll(async () => {
  pages = await startPageServer((path) => {
    const service = server.url;
    const id = path.startsWith('/wrong-id') ? 'wl_doesNotExist' : waitlistId;
    // Below the fold, prepared when it scrolls into view.
    const visible = path.startsWith('/visible');
    const head = visible ? `${VIOLATIONS}<div style="height:300vh"></div>` : VIOLATIONS;
    return {
      body: landingPage(service, id, visible ? 'data-prepare="visible"' : '').replace(
        '<main>',
        `<main>${head}`,
      ),
      csp: csp(path, service),
    };
  });
  const t = await seedTenant(dir.db, {
    waitlist: [
      '--referrals',
      'on',
      '--origins',
      pages.origin,
      '--challenge',
      'on',
      '--challenge-min-age-ms',
      '300',
      '--pow',
      'on',
      '--pow-difficulty',
      '16',
    ],
  });
  waitlistId = t.waitlistId;
  apiKey = t.key;
  server = await startServer({ db: dir.db });
  if (!chromiumMissing) browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await pages?.close();
  dir.cleanup();
});

/** The form's shadow root, queried from the page. */
const shadow = (page: Page, selector: string) => page.locator(`waitlist-form >> ${selector}`);

async function signUp(page: Page, email: string) {
  await shadow(page, 'input[type=email]').fill(email);
  await shadow(page, 'button[type=submit]').click();
  await expect
    .poll(() => shadow(page, '[role=status]').textContent(), { timeout: 30_000 })
    .toBe("You're on the list!");
}

describe.skipIf(chromiumMissing)('the script-tag widget in Chromium', () => {
  it('signs up through Challenge and Proof of Work (difficulty 16), in workers, and shows the share link', async () => {
    const page = await browser.newPage();
    const workers: string[] = [];
    page.on('worker', (w) => workers.push(w.url()));
    const rounds: number[] = [];
    await page.exposeFunction('recordGate', (round: number) => rounds.push(round));
    await page.goto(`${pages.origin}/?ref=ZZZZZZ`);
    await page.evaluate(() =>
      document.addEventListener('waitlist:gate', (e) =>
        (window as unknown as { recordGate(r: number): void }).recordGate((e as CustomEvent).detail.round),
      ),
    );
    const success = page.evaluate(
      () =>
        new Promise<Record<string, unknown>>((resolve) =>
          document.addEventListener('waitlist:success', (e) => resolve((e as CustomEvent).detail)),
        ),
    );
    await signUp(page, 'ada@example.com');
    // Passed from the focus (the prefetch, docs/gates.md#gates-before-the-submit): no 428 round. A click before the 300 ms
    // minimum age is over shows the prepare's progress (round 0); a slower one shows nothing.
    expect(rounds.every((round) => round === 0)).toBe(true);
    expect(workers.length).toBeGreaterThan(0);
    expect(workers.every((url) => url.startsWith('blob:'))).toBe(true);
    const detail = await success;
    const link = await shadow(page, 'input[readonly]').inputValue();
    expect(link).toBe(`${pages.origin}/?ref=${detail.referralCode}`);
    expect(detail.statusUrl).toMatch(new RegExp(`^${server.url}/s/[\\w-]{24}$`));
    expect(await shadow(page, 'a[part=link]').getAttribute('href')).toBe(detail.statusUrl);
    // The server has her, with the code it answered; the ?ref= that matched nobody was ignored.
    const listed = await fetch(`${server.url}/v1/api/waitlists/${waitlistId}/subscribers?q=ada@example.com`, {
      headers: { Authorization: `Bearer ${apiKey}` },
    }).then((r) => r.json());
    expect(listed.items).toMatchObject([
      { email: 'ada@example.com', referral_code: detail.referralCode, referral_count: 0 },
    ]);
    await page.close();
  });

  it('solves on the main thread when the page forbids blob workers', async () => {
    const page = await browser.newPage();
    const workers: string[] = [];
    page.on('worker', (w) => workers.push(w.url()));
    await page.goto(`${pages.origin}/no-workers`);
    await signUp(page, 'no-workers@example.com');
    expect(workers).toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { violations: string[] }).violations)).toContain(
      'worker-src',
    );
    await page.close();
  });

  it('hashes with JavaScript when the page forbids WebAssembly', async () => {
    const page = await browser.newPage();
    await page.goto(`${pages.origin}/no-wasm`);
    // This page really refuses WebAssembly…
    const compiles = await page.evaluate(() =>
      WebAssembly.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])).then(
        () => true,
        () => false,
      ),
    );
    expect(compiles).toBe(false);
    // …and the sign-up still gets through the Proof of Work.
    await signUp(page, 'no-wasm@example.com');
    await page.close();
  });

  it('works under a strict CSP (no inline styles, no eval) and has no axe violations', async () => {
    const page = await browser.newPage();
    await page.goto(`${pages.origin}/strict`);
    await shadow(page, 'input[type=email]').waitFor();
    const context = await browser.newContext({ bypassCSP: true });
    const axePage = await context.newPage();
    await axePage.goto(`${pages.origin}/`);
    await axePage.locator('waitlist-form >> input[type=email]').waitFor();
    expect(await axeViolations(axePage)).toEqual([]);
    await signUp(page, 'strict@example.com');
    expect(await page.evaluate(() => (window as unknown as { violations: string[] }).violations)).toEqual([]);
    // The success state is accessible too.
    await signUp(axePage, 'axe@example.com');
    expect(await axeViolations(axePage)).toEqual([]);
    await context.close();
    await page.close();
  });

  it('signs up with the keyboard alone', async () => {
    const page = await browser.newPage();
    await page.goto(`${pages.origin}/`);
    await shadow(page, 'input[type=email]').waitFor();
    // From the top of the page, Tab reaches the email field first: the page has nothing else to focus.
    await page.keyboard.press('Tab');
    expect(
      await page.evaluate(() => document.activeElement?.shadowRoot?.activeElement?.getAttribute('type')),
    ).toBe('email');
    await page.keyboard.type('keyboard@example.com');
    await page.keyboard.press('Enter');
    await expect
      .poll(() => shadow(page, '[role=status]').textContent(), { timeout: 30_000 })
      .toBe("You're on the list!");
    // Focus moved to the share link; Tab reaches Copy, Enter copies.
    expect(
      await page.evaluate(() => document.activeElement?.shadowRoot?.activeElement?.getAttribute('readonly')),
    ).toBe('');
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: pages.origin });
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect.poll(() => shadow(page, 'button[type=button]').textContent()).toBe('Copied!');
    await page.close();
  });

  it('prints what to fix on the console when the server answers 404 (wrong waitlist id)', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    await page.goto(`${pages.origin}/wrong-id`);
    await shadow(page, 'input[type=email]').fill('lost@example.com');
    await shadow(page, 'button[type=submit]').click();
    await expect
      .poll(() => shadow(page, '[role=status]').textContent(), { timeout: 30_000 })
      .toBe('This sign-up form is not set up correctly.');
    const hint = errors.find((e) => e.startsWith('Waitlist widget:')) ?? '';
    expect(hint).toContain('"wl_doesNotExist"');
    expect(hint).toContain(`this page's origin ${pages.origin}`);
    expect(hint).toContain(
      `pnpm -s waitlist-server waitlist update --waitlist wl_doesNotExist --origins ${pages.origin}`,
    );
    await page.close();
  });
});

/**
 * Records the widget's requests as it makes them (before the network sees them), so a test can
 * also tell that one was not made.
 */
const RECORD_FETCH = () => {
  const calls: string[] = [];
  Object.assign(window, { calls });
  const original = window.fetch;
  window.fetch = (input, init) => {
    calls.push(`${init?.method ?? 'GET'} ${String(input)}`);
    return original(input, init);
  };
};
const callsOf = (page: Page, suffix: string) =>
  page.evaluate(
    (end) => (window as unknown as { calls: string[] }).calls.filter((c) => c.endsWith(end)),
    suffix,
  );

describe.skipIf(chromiumMissing)(
  'the gates passed while the visitor types (docs/gates.md#gates-before-the-submit)',
  () => {
    it('under a CSP without workers, solves on the main thread meanwhile: one POST', async () => {
      const page = await browser.newPage();
      await page.addInitScript(RECORD_FETCH);
      const workers: string[] = [];
      page.on('worker', (w) => workers.push(w.url()));
      await page.goto(`${pages.origin}/no-workers-typing`);
      const field = shadow(page, 'input[type=email]');
      await field.focus();
      await field.pressSequentially('slow-typist@example.com', { delay: 80 });
      await shadow(page, 'button[type=submit]').click();
      await expect
        .poll(() => shadow(page, '[role=status]').textContent(), { timeout: 30_000 })
        .toBe("You're on the list!");
      expect(await callsOf(page, '/gates')).toHaveLength(1);
      expect(await callsOf(page, '/subscribers')).toHaveLength(1);
      expect(workers).toEqual([]);
      expect(await page.evaluate(() => (window as unknown as { violations: string[] }).violations)).toContain(
        'worker-src',
      );
      await page.close();
    });

    it('with data-prepare=visible, prepares when the form scrolls into view, before any focus', async () => {
      const page = await browser.newPage();
      await page.addInitScript(RECORD_FETCH);
      await page.goto(`${pages.origin}/visible`);
      const host = page.locator('waitlist-form');
      await shadow(page, 'input[type=email]').waitFor({ state: 'attached' });
      // An observer made after the widget's gets its first report after the widget's has had its own.
      await host.evaluate(
        (element) =>
          new Promise<void>((resolve) => {
            const observer = new IntersectionObserver(() => {
              observer.disconnect();
              resolve();
            });
            observer.observe(element);
          }),
      );
      expect(await callsOf(page, '/gates')).toEqual([]);
      await host.scrollIntoViewIfNeeded();
      await expect.poll(() => callsOf(page, '/gates')).toHaveLength(1);
      // Scrolling away and back does not prepare again.
      await page.evaluate(() => window.scrollTo(0, 0));
      await host.scrollIntoViewIfNeeded();
      await signUp(page, 'scrolled@example.com');
      expect(await callsOf(page, '/gates')).toHaveLength(1);
      expect(await callsOf(page, '/subscribers')).toHaveLength(1);
      await page.close();
    });
  },
);
