/**
 * Time to an interactive form in the page's language (item 2, issue 26): a landing page with
 * `<html lang="…">` and the widget's script tag, loaded in a new Chromium context each time (a
 * cold cache: the script, the locale file and the connections fetched anew), from a local
 * reference server. The clock is the page's own, from navigation start to the moment the form's
 * root says the page's language and holds its email field: for English at the first render, for
 * another language once its file has arrived and the form has switched (docs/languages.md#the-widget).
 */
import { join } from 'node:path';
import { launchBrowser, seedTenant } from '@waitlistkit/testkit';
import { pageServer, type Page as SitePage } from './pages.js';
import { startBenchServer } from './servers.js';

/**
 * Runs before the widget's script: a MutationObserver on the document finds the form's element
 * once it has its shadow root, then one on that root notes `performance.now()` at the first
 * mutation after which the root speaks the page's language with its field in place. Observers,
 * not polling, so the probe costs the page nothing while it waits.
 */
const PROBE = `(function () {
  var want = document.documentElement.lang;
  function ready(root) {
    var w = root.querySelector('.w');
    return !!(w && w.getAttribute('lang') === want && w.querySelector('input[type=email]'));
  }
  function watch(root) {
    if (ready(root)) return void (window.__interactive = performance.now());
    new MutationObserver(function (_, o) {
      if (!ready(root)) return;
      window.__interactive = performance.now();
      o.disconnect();
    }).observe(root, { subtree: true, childList: true, attributes: true });
  }
  function attach() {
    var el = document.querySelector('waitlist-form');
    if (!el || !el.shadowRoot) return false;
    watch(el.shadowRoot);
    return true;
  }
  new MutationObserver(function (_, o) {
    if (attach()) return o.disconnect();
    // The element mounts in a microtask of its own, queued before this one ran.
    queueMicrotask(function () { if (attach()) o.disconnect(); });
  }).observe(document, { subtree: true, childList: true });
})();`;

const landingIn = (lang: string, serviceUrl: string, waitlistId: string): SitePage => ({
  body: `<!doctype html><html lang="${lang}"><title>Launch</title><script>${PROBE}</script><main>
<script src="${serviceUrl}/widget/waitlist.js" data-waitlist-id="${waitlistId}" data-base-url="${serviceUrl}" async></script></main></html>`,
});

/** Milliseconds to an interactive form, per page language, `runs` loads each, interleaved. */
export async function timeToLanguage(
  dir: string,
  langs: readonly string[],
  runs: number,
): Promise<Map<string, number[]>> {
  const db = join(dir, 'languages.db');
  const site = await pageServer();
  const tenant = await seedTenant(db, { waitlist: ['--origins', site.origin, '--ip-limit', '1000000'] });
  const server = await startBenchServer({ db });
  const browser = await launchBrowser();
  const times = new Map(langs.map((lang): [string, number[]] => [lang, []]));
  try {
    for (const lang of langs) site.pages.set(`/${lang}`, landingIn(lang, server.url, tenant.waitlistId));
    // Round 0 warms the server and Chromium and is not counted; each round then loads every
    // language once, in an order that rotates, so none always goes first.
    for (let round = 0; round <= runs; round++) {
      for (let i = 0; i < langs.length; i++) {
        const lang = langs[(round + i) % langs.length] as string;
        const context = await browser.newContext();
        try {
          const page = await context.newPage();
          await page.goto(`${site.origin}/${lang}`);
          const handle = await page.waitForFunction(
            () => (window as unknown as { __interactive?: number }).__interactive,
            undefined,
            { polling: 50, timeout: 60_000 },
          );
          if (round > 0) times.get(lang)?.push((await handle.jsonValue()) as number);
        } finally {
          await context.close();
        }
      }
    }
    return times;
  } finally {
    await browser.close();
    await server.stop();
    await site.close();
  }
}
