/**
 * The script-tag widget in the visitor's language, in real headless Chromium, its script and
 * locale files served by the built reference server to a page on another origin
 * (docs/languages.md#the-widget): the page's `<html lang>` gives German before any interaction
 * with one request for its file and none for English; a locale file that 404s, answers HTML or
 * is blocked by the page's CSP leaves the form in English with nothing shown to the visitor; one
 * slower than the first render's wait shows English when the wait ends, then German;
 * every language fits the widget's box at 320 px; Arabic mirrors the layout (screenshots beside
 * English's, kept in a temp folder) and is axe-clean.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LANGUAGES } from '@waitlistkit/protocol';
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
import { en } from '../../src/ui/locale.js';
import { LOCALE_WAIT_MS } from '../../src/ui/locale-file.js';
import { type PageServer, startPageServer } from './page-server.js';

let browser: Browser;
let server: RunningServer;
let pages: PageServer;
let waitlistId: string;
const dir = tempDir();
/** The screenshots, kept after the run for a person to look at. */
const shots = mkdtempSync(join(tmpdir(), 'waitlist-languages-'));
/** A round trip on a loaded two-core machine running other files' servers and Chromium. */
const ARRIVED_MS = 30_000;

const texts = (tag: string): Record<string, unknown> =>
  tag === 'en'
    ? en
    : JSON.parse(readFileSync(join(import.meta.dirname, '../../src/locales', `${tag}.json`), 'utf8'));

/** Records CSP refusals seen by the document, for the test to read. */
const VIOLATIONS = `<script nonce="test">window.violations=[];document.addEventListener('securitypolicyviolation',function(e){window.violations.push(e.effectiveDirective+' '+e.blockedURI)});</script>`;

/**
 * A landing page: `?html=` its `<html lang>` (none when absent), `?lang=` the script's
 * `data-lang`, `?dir=` the page's direction; under /blocked its CSP lets the widget reach the
 * service's API (/v1/) and nothing else there.
 */
function landing(path: string) {
  const url = new URL(path, 'http://page');
  const html = url.searchParams.get('html');
  const lang = url.searchParams.get('lang');
  const dirAttribute = url.searchParams.get('dir');
  const service = server.url;
  const body = `<!doctype html><html${html === null ? '' : ` lang="${html}"`}${dirAttribute ? ` dir="${dirAttribute}"` : ''}><head><meta charset="utf-8"><title>Launch</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><main><h1>Launch</h1>${VIOLATIONS}
<script src="${service}/widget/waitlist.js" data-waitlist-id="${waitlistId}" data-base-url="${service}"${lang === null ? '' : ` data-lang="${lang}"`} async></script>
</main></body></html>`;
  const csp = url.pathname.startsWith('/blocked')
    ? `default-src 'none'; style-src 'self'; script-src 'nonce-test' ${service} 'wasm-unsafe-eval'; worker-src blob:; connect-src ${service}/v1/`
    : undefined;
  return { body, csp };
}

beforeAll(async () => {
  pages = await startPageServer(landing);
  // No gates, so every language's sign-up is quick; a budget for the many page loads of one address.
  const t = await seedTenant(dir.db, {
    waitlist: ['--referrals', 'on', '--origins', pages.origin, '--ip-limit', '100000'],
  });
  waitlistId = t.waitlistId;
  server = await startServer({ db: dir.db });
  if (!chromiumMissing) browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await pages?.close();
  dir.cleanup();
});

const shadow = (page: Page, selector: string) => page.locator(`waitlist-form >> ${selector}`);
const label = (page: Page) => shadow(page, 'label').first().textContent();

/** A page, with the locale files it asks for and what it logs on the console. */
async function open(path: string, width = 800) {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  const locales: string[] = [];
  const bodies: string[] = [];
  const consoled: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/widget/locales/')) locales.push(new URL(request.url()).pathname);
    if (request.method() === 'POST' && request.url().endsWith('/subscribers'))
      bodies.push(request.postData() ?? '');
  });
  page.on('console', (message) => consoled.push(`${message.type()}: ${message.text()}`));
  await page.goto(`${pages.origin}${path}`);
  return { page, locales, bodies, consoled };
}

/** What overflows the widget's box: elements reaching out of it, text wider than its element. */
function overflow(page: Page) {
  return page.evaluate(() => {
    const host = document.querySelector('waitlist-form') as HTMLElement;
    const box = host.getBoundingClientRect();
    const found: string[] = [];
    if (box.right > innerWidth + 0.5 || document.documentElement.scrollWidth > innerWidth)
      found.push(`the widget (${box.right}) is wider than the page (${innerWidth})`);
    for (const element of (host.shadowRoot as ShadowRoot).querySelectorAll<HTMLElement>('*')) {
      const r = element.getBoundingClientRect();
      const name = `${element.localName}${element.id ? `#${element.id}` : ''}`;
      if (r.width && (r.left < box.left - 0.5 || r.right > box.right + 0.5))
        found.push(`${name} ${r.left}–${r.right} outside ${box.left}–${box.right}`);
      // An input scrolls what it holds (the share link); any other element must hold its text.
      if (element.localName !== 'input' && element.scrollWidth > element.clientWidth + 1)
        found.push(`${name} text ${element.scrollWidth} wider than ${element.clientWidth}`);
    }
    return found;
  });
}

describe.skipIf(chromiumMissing)('the widget’s languages in Chromium', () => {
  it('a page in German gets a German form before any interaction, with one request for de.json; English none', async () => {
    const { page, locales, bodies } = await open('/?html=de-DE');
    await expect.poll(() => label(page), { timeout: ARRIVED_MS }).toBe('E-Mail-Adresse');
    // Nothing has been touched yet: the form switched by itself.
    expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true);
    expect(await shadow(page, 'button[type=submit]').textContent()).toBe('Auf die Warteliste');
    expect(await shadow(page, '.w').getAttribute('lang')).toBe('de');
    expect(locales).toEqual(['/widget/locales/de.json']);
    // The sign-up says the language the visitor read the form in.
    await shadow(page, 'input[type=email]').fill('de@example.com');
    await shadow(page, 'button[type=submit]').click();
    await expect
      .poll(() => shadow(page, '[role=status]').textContent(), { timeout: ARRIVED_MS })
      .toBe('Sie stehen auf der Liste!');
    expect(JSON.parse(bodies[0] ?? '{}')).toMatchObject({ email: 'de@example.com', lang: 'de' });
    await page.close();

    const english = await open('/?html=en');
    await expect.poll(() => label(english.page), { timeout: ARRIVED_MS }).toBe(en.label);
    await english.page.waitForLoadState('networkidle');
    expect(english.locales).toEqual([]);
    await english.page.close();
  });

  it('a locale file slower than the first render’s wait: English when the wait ends, then German, untouched', async () => {
    const page = await browser.newPage();
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/widget/locales/de.json', async (route) => {
      await held;
      await route.continue();
    });
    // Every language the form's root is drawn in, with the page's clock, as the page sees it.
    await page.addInitScript(() => {
      const drawn: [string | null, number][] = [];
      (window as unknown as { drawn: typeof drawn }).drawn = drawn;
      const note = (root: ShadowRoot) => {
        const lang = root.querySelector('.w')?.getAttribute('lang');
        if (lang !== undefined && drawn.at(-1)?.[0] !== lang) drawn.push([lang, performance.now()]);
      };
      new MutationObserver((_, observer) => {
        const root = document.querySelector('waitlist-form')?.shadowRoot;
        if (!root) return;
        observer.disconnect();
        note(root);
        new MutationObserver(() => note(root)).observe(root, {
          subtree: true,
          childList: true,
          attributes: true,
        });
      }).observe(document, { subtree: true, childList: true });
    });
    await page.goto(`${pages.origin}/?html=de`);
    await expect.poll(() => label(page), { timeout: ARRIVED_MS }).toBe(en.label);
    release();
    await expect.poll(() => label(page), { timeout: ARRIVED_MS }).toBe('E-Mail-Adresse');
    expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true);
    const { drawn, asked } = await page.evaluate(() => ({
      drawn: (window as unknown as { drawn: [string, number][] }).drawn,
      asked: performance.getEntriesByType('resource').find((entry) => entry.name.endsWith('/de.json'))
        ?.startTime,
    }));
    expect(drawn.map(([lang]) => lang)).toEqual(['en', 'de']);
    // Nothing was drawn while the wait lasted (timers fire late, never early; 5 ms for the clocks).
    expect(drawn[0]?.[1] ?? 0).toBeGreaterThanOrEqual((asked ?? Number.NaN) + LOCALE_WAIT_MS - 5);
    await page.close();
  });

  for (const [what, tag, answer] of [
    ['404s', 'fr', { status: 404, contentType: 'application/json', body: '{"error":{"code":"not_found"}}' }],
    [
      'answers HTML',
      'es',
      { status: 200, contentType: 'text/html', body: '<!doctype html><h1>Welcome</h1>' },
    ],
  ] as const) {
    it(`a locale file that ${what} leaves the form in English, the hint on the console, nothing for the visitor`, async () => {
      const page = await browser.newPage();
      const consoled: string[] = [];
      page.on('console', (message) => consoled.push(`${message.type()}: ${message.text()}`));
      await page.route(`**/widget/locales/${tag}.json`, (route) =>
        route.fulfill({ ...answer, headers: { 'access-control-allow-origin': '*' } }),
      );
      await page.goto(`${pages.origin}/?html=${tag}`);
      await expect
        .poll(() => consoled.join('\n'), { timeout: ARRIVED_MS })
        .toContain(`${tag}.json could not be used`);
      expect(await label(page)).toBe(en.label);
      expect(await shadow(page, '.w').getAttribute('lang')).toBe('en');
      expect(await shadow(page, '[role=status]').textContent()).toBe('');
      expect(await shadow(page, '[part=error]').first().textContent()).toBe('');
      await page.close();
    });
  }

  it('a CSP whose connect-src blocks the locale file leaves the form in English, still signing up', async () => {
    const { page, consoled, bodies } = await open('/blocked?html=it');
    await expect
      .poll(() => consoled.join('\n'), { timeout: ARRIVED_MS })
      .toContain('it.json could not be used');
    expect(await page.evaluate(() => (window as unknown as { violations: string[] }).violations)).toEqual([
      `connect-src ${server.url}/widget/locales/it.json`,
    ]);
    expect(await label(page)).toBe(en.label);
    await shadow(page, 'input[type=email]').fill('blocked@example.com');
    await shadow(page, 'button[type=submit]').click();
    await expect
      .poll(() => shadow(page, '[role=status]').textContent(), { timeout: ARRIVED_MS })
      .toBe(en.success);
    expect(JSON.parse(bodies[0] ?? '{}')).toMatchObject({ lang: 'en' });
    await page.close();
  });

  it('every language fits the widget’s box at 320 px: label, button, an error, the success and share link', async () => {
    const context = await browser.newContext({ viewport: { width: 320, height: 800 } });
    for (const tag of LANGUAGES) {
      const t = texts(tag);
      const page = await context.newPage();
      await page.goto(`${pages.origin}/?lang=${tag}`);
      await expect.poll(() => label(page), { timeout: ARRIVED_MS }).toBe(t.label);
      expect(await shadow(page, 'button[type=submit]').textContent()).toBe(t.button);
      await shadow(page, 'input[type=email]').fill('nobody');
      await shadow(page, 'button[type=submit]').click();
      await expect.poll(() => shadow(page, '#f').textContent()).toBe(t.invalidEmail);
      expect(await overflow(page), `${tag}, the form with an error`).toEqual([]);
      await shadow(page, 'input[type=email]').fill(`${tag.toLowerCase()}@example.com`);
      await shadow(page, 'button[type=submit]').click();
      await expect
        .poll(() => shadow(page, '[role=status]').textContent(), { timeout: ARRIVED_MS })
        .toBe(t.success);
      expect(await shadow(page, 'label').first().textContent()).toBe(t.share);
      expect(await shadow(page, 'a[part=link]').textContent()).toBe(t.status);
      expect(await overflow(page), `${tag}, the success`).toEqual([]);
      await page.close();
    }
    await context.close();
  });

  it('Arabic mirrors the layout (screenshot beside English) and is axe-clean', async () => {
    /** Where the label, field and button start and end, against the widget's box. */
    const geometry = async (page: Page) =>
      page.evaluate(() => {
        const host = document.querySelector('waitlist-form') as HTMLElement;
        const box = host.getBoundingClientRect();
        const at = (selector: string) => {
          const r = (host.shadowRoot as ShadowRoot).querySelector(selector)?.getBoundingClientRect();
          return {
            left: (r?.left ?? 0) - box.left,
            right: box.right - (r?.right ?? 0),
            width: r?.width ?? 0,
          };
        };
        // The label's text, not its block (which spans the box in either direction).
        const range = document.createRange();
        range.selectNodeContents((host.shadowRoot as ShadowRoot).querySelector('label') as Node);
        const text = range.getBoundingClientRect();
        return {
          text: { left: text.left - box.left, right: box.right - text.right },
          input: at('input'),
          button: at('button'),
        };
      });
    const shown: Record<string, Awaited<ReturnType<typeof geometry>>> = {};
    for (const [tag, path] of [
      ['en', '/?html=en'],
      ['ar', '/?html=ar&dir=rtl'],
    ] as const) {
      const context = await browser.newContext({ viewport: { width: 480, height: 300 }, bypassCSP: true });
      const page = await context.newPage();
      await page.goto(`${pages.origin}${path}`);
      await expect.poll(() => label(page), { timeout: ARRIVED_MS }).toBe(texts(tag).label);
      expect(await shadow(page, '.w').getAttribute('dir')).toBe(tag === 'ar' ? 'rtl' : 'ltr');
      writeFileSync(join(shots, `${tag}.png`), await page.locator('waitlist-form').screenshot());
      shown[tag] = await geometry(page);
      if (tag === 'ar') expect(await axeViolations(page)).toEqual([]);
      await context.close();
    }
    const ltr = shown.en as Awaited<ReturnType<typeof geometry>>;
    const rtl = shown.ar as Awaited<ReturnType<typeof geometry>>;
    console.info(`Screenshots of the form in en and ar: ${shots}`);
    // English starts at the left: the label's text and the field there, the button after the field.
    expect(ltr.text.left).toBeLessThan(1);
    expect(ltr.text.right).toBeGreaterThan(50);
    expect(ltr.input.left).toBeLessThan(1);
    expect(ltr.button.right).toBeLessThan(1);
    // Arabic starts at the right: the same, mirrored.
    expect(rtl.text.right).toBeLessThan(1);
    expect(rtl.text.left).toBeGreaterThan(50);
    expect(rtl.input.right).toBeLessThan(1);
    expect(rtl.button.left).toBeLessThan(1);
  });
});
