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
 * Runs before the widget's script. A MutationObserver on the document finds the form's element
 * once it has its shadow root, then one on that root reports `performance.now()` at the first
 * mutation after which the root speaks the page's language with its field in place. The report
 * goes through a CDP binding, so nothing polls the page and the harness does no work in it while
 * the form is on its way. It also wraps `fetch` to note when the locale file was asked for and
 * when its texts were in hand: the page's own view of the one round trip a language adds.
 */
const PROBE = `(function () {
  var want = document.documentElement.lang, locale = {};
  var fetch0 = window.fetch;
  window.fetch = function (url) {
    var mine = /\\/locales\\//.test(String(url));
    if (mine) locale.asked = performance.now();
    var sent = fetch0.apply(this, arguments);
    return mine ? sent.then(function (response) {
      var json = response.json;
      response.json = function () {
        return json.call(response).then(function (texts) { locale.inHand = performance.now(); return texts; });
      };
      return response;
    }) : sent;
  };
  function report() {
    window.__report({ interactive: performance.now(), localeWait: locale.inHand - locale.asked });
  }
  function ready(root) {
    var w = root.querySelector('.w');
    return !!(w && w.getAttribute('lang') === want && w.querySelector('input[type=email]'));
  }
  function watch(root) {
    if (ready(root)) return report();
    new MutationObserver(function (_, o) {
      if (!ready(root)) return;
      report();
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

export interface LanguageLoad {
  /** Navigation start to an interactive form in the page's language, ms. */
  interactive: number;
  /** The locale file asked for to its texts in hand, ms, as the page saw it; NaN for English. */
  localeWait: number;
}

/** Each page language's loads, `runs` each, interleaved. */
export async function timeToLanguage(
  dir: string,
  langs: readonly string[],
  runs: number,
): Promise<Map<string, LanguageLoad[]>> {
  const db = join(dir, 'languages.db');
  const site = await pageServer();
  const tenant = await seedTenant(db, { waitlist: ['--origins', site.origin, '--ip-limit', '1000000'] });
  const server = await startBenchServer({ db });
  const browser = await launchBrowser();
  const loads = new Map(langs.map((lang): [string, LanguageLoad[]] => [lang, []]));
  try {
    for (const lang of langs) site.pages.set(`/${lang}`, landingIn(lang, server.url, tenant.waitlistId));
    // Round 0 warms the server and Chromium and is not counted; each round then loads every
    // language once, in an order that rotates, so none always goes first.
    for (let round = 0; round <= runs; round++) {
      for (let i = 0; i < langs.length; i++) {
        const lang = langs[(round + i) % langs.length] as string;
        const context = await browser.newContext();
        try {
          let report: (load: LanguageLoad) => void = () => {};
          const reported = new Promise<LanguageLoad>((resolve) => {
            report = resolve;
          });
          await context.exposeBinding('__report', (_source, load: LanguageLoad) => report(load));
          const page = await context.newPage();
          // Not waiting for the load event: the harness stays out of the page until it reports.
          await page.goto(`${site.origin}/${lang}`, { waitUntil: 'commit' });
          const load = await withTimeout(reported, 60_000, `the page in ${lang} never became interactive`);
          if (round > 0) loads.get(lang)?.push(load);
        } finally {
          await context.close();
        }
      }
    }
    return loads;
  } finally {
    await browser.close();
    await server.stop();
    await site.close();
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
