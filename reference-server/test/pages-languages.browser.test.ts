/**
 * The server's pages in other languages (docs/languages.md#pages-and-mails). A link that is not
 * valid answers, over HTTP, in the language the browser asks for, every one of ours. The status,
 * confirmation and unsubscribe pages, rendered in a few languages that stretch a layout (long
 * German words, French number grouping, Arabic and Hebrew right to left, Japanese), fit a 320 px
 * phone in real Chromium, mirror right to left and pass axe; screenshots go to
 * test-results/screenshots for review. Those pages speak their subscriber's language once
 * subscribers carry one; until then they are rendered here directly.
 */
import { LANGUAGES, type Language, RTL_LANGUAGES } from '@waitlistkit/protocol';
import { chromiumMissing, launchBrowser } from '@waitlistkit/testkit';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wordsFor } from '../src/domain/texts/index.js';
import { confirmPage, tooManyConfirmationsPage, unknownConfirmationPage } from '../src/http/pages/confirm.js';
import { notFoundPage, statusPage } from '../src/http/pages/status.js';
import { unsubscribePage } from '../src/http/pages/unsubscribe.js';
import { checkPage } from './browser-helpers.js';
import { type Harness, harness, ORIGIN } from './helpers.js';

const PHONE = { width: 320, height: 640 };
const WAITLIST = 'Northwind Analytics';
const CODE = 'K7QX2M9PLA';
const TOTAL = 12_345;
const POSITION = 1_234;

const direction = (lang: Language) => (RTL_LANGUAGES.includes(lang) ? 'rtl' : 'ltr');

const titleOf = (html: string) =>
  (/<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&amp;', '&');

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h?.close());

describe('a link that is not valid, over HTTP', () => {
  it.each(LANGUAGES.map((lang) => [lang]))(
    'answers in %s, with its lang and direction, when the browser asks for it',
    async (lang) => {
      const { say } = wordsFor(lang);
      const english = wordsFor('en').say;
      if (lang !== 'en') expect(say('notFoundTitle')).not.toBe(english('notFoundTitle'));
      const headers = { 'Accept-Language': `${lang}, en;q=0.5` };
      const pages = [
        [`${h.server.url}/s/not-a-status-token`, say('notFoundTitle')],
        [`${h.server.url}/c/not-a-confirm-token`, say('badLinkTitle')],
      ] as const;
      for (const [url, title] of pages) {
        const res = await fetch(url, { headers });
        expect(res.status, url).toBe(404);
        const html = await res.text();
        expect(html).toContain(`<html lang="${lang}" dir="${direction(lang)}">`);
        expect(titleOf(html), url).toBe(title);
      }
    },
  );
});

/** The subscriber pages in `lang`, as the server renders them. */
function subscriberPages(lang: Language) {
  const words = wordsFor(lang);
  return {
    status: statusPage(
      {
        waitlistName: WAITLIST,
        position: POSITION,
        total: TOTAL,
        referralCode: CODE,
        referralCount: 3,
        shareUrl: `${ORIGIN}/?ref=${CODE}`,
        confirmed: false,
      },
      words,
    ),
    confirm: confirmPage({ waitlistName: WAITLIST, confirmed: false, statusUrl: undefined }, words),
    confirmed: confirmPage(
      { waitlistName: WAITLIST, confirmed: true, statusUrl: `${ORIGIN}/s/status-token` },
      words,
    ),
    unsubscribe: unsubscribePage({ waitlistName: WAITLIST, unsubscribed: false }, words),
    unsubscribed: unsubscribePage({ waitlistName: WAITLIST, unsubscribed: true }, words),
  };
}

/**
 * What is wider than a phone: the page scrolling sideways, or an element sticking out of the card
 * or out of its own box (a long word, a code). An input scrolls its own value, by design.
 */
function tooWide(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const sideways = document.documentElement.scrollWidth - window.innerWidth;
    const card = (document.querySelector('.card') as HTMLElement).getBoundingClientRect();
    const spilling = [...document.querySelectorAll('.card *')]
      .filter((el) => {
        const box = el.getBoundingClientRect();
        const out = box.left < card.left - 1 || box.right > card.right + 1;
        const clipped =
          !(el instanceof HTMLInputElement) && el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1;
        return out || clipped;
      })
      .map((el) => el.outerHTML.slice(0, 100));
    return sideways > 0 ? [`the page scrolls ${sideways}px sideways`, ...spilling] : spilling;
  });
}

/** The page speaks `lang` in its direction, fits the phone, and passes axe. */
async function checkPhonePage(page: Page, lang: Language, title: string, shot: string) {
  const shown = await page.evaluate(() => ({
    lang: document.documentElement.lang,
    dir: document.documentElement.dir,
    title: document.title,
  }));
  expect(shown, shot).toEqual({ lang, dir: direction(lang), title });
  expect(await tooWide(page), shot).toEqual([]);
  await checkPage(page, shot);
}

describe.skipIf(chromiumMissing)('the pages at 320 px in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it.each([['de'], ['fr'], ['ar'], ['he'], ['ja']] as [Language][])(
    'in %s: status, confirmation, unsubscribe and not-found pages fit a phone, mirror for right to left and pass axe',
    async (lang) => {
      const { say } = wordsFor(lang);
      const waitlist = WAITLIST;
      const context = await browser.newContext({
        bypassCSP: true,
        viewport: PHONE,
        extraHTTPHeaders: { 'Accept-Language': lang },
      });
      try {
        const page = await context.newPage();
        const pages = subscriberPages(lang);
        const titles = {
          status: say('statusTitle', { waitlist }),
          confirm: say('confirmTitle', { waitlist }),
          confirmed: say('confirmTitle', { waitlist }),
          unsubscribe: say('unsubscribeTitle', { waitlist }),
          unsubscribed: say('unsubscribeTitle', { waitlist }),
        };
        for (const [name, rendered] of Object.entries(pages) as [keyof typeof pages, { html: string }][]) {
          await page.setContent(rendered.html);
          await checkPhonePage(page, lang, titles[name], `pages-${lang}-${name}`);
          if (name !== 'status') continue;

          // Numbers are the language's own (12 345 in French), and the count picks its plural form.
          const number = new Intl.NumberFormat(lang);
          expect(await page.locator('.position').textContent()).toBe(`#${number.format(POSITION)}`);
          expect(await page.locator('#position-of').textContent()).toBe(say('positionOf', { count: TOTAL }));
          expect(say('positionOf', { count: TOTAL })).toContain(number.format(TOTAL));
          if (lang === 'fr')
            expect(await page.locator('#position-of').textContent()).toContain('12\u202f345');
          if (lang === 'de') expect(await page.locator('#position-of').textContent()).toContain('12.345');
          // Logical CSS mirrors: the notice's rule stands where lines start, on the right in Arabic and Hebrew.
          const rule = await page
            .locator('.notice')
            .evaluate((el) => [getComputedStyle(el).borderLeftWidth, getComputedStyle(el).borderRightWidth]);
          expect(rule).toEqual(direction(lang) === 'rtl' ? ['0px', '4px'] : ['4px', '0px']);
          // The share link stays left to right inside a right-to-left page.
          expect(await page.locator('#share-link').getAttribute('dir')).toBe('ltr');
          await expect.poll(() => page.getByRole('button', { name: say('copyLink') }).isVisible()).toBe(true);
        }

        await page.goto(`${h.server.url}/s/not-a-status-token`);
        await checkPhonePage(page, lang, say('notFoundTitle'), `pages-${lang}-not-found`);
      } finally {
        await context.close();
      }
    },
  );

  it('in every language, every page fits a 320 px phone', async () => {
    const context = await browser.newContext({ viewport: PHONE });
    try {
      const page = await context.newPage();
      const wide: string[] = [];
      for (const lang of LANGUAGES) {
        const words = wordsFor(lang);
        const pages = {
          ...subscriberPages(lang),
          notFound: notFoundPage(words),
          badLink: unknownConfirmationPage(words),
          tooMany: tooManyConfirmationsPage(words),
        };
        for (const [name, rendered] of Object.entries(pages)) {
          await page.setContent(rendered.html);
          for (const what of await tooWide(page)) wide.push(`${lang} ${name}: ${what}`);
        }
      }
      expect(wide).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
