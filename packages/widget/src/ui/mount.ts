/**
 * The one implementation behind all three ways in (npm `mount`, `<waitlist-form>`, script tag):
 * render the form into the element's shadow root and hand back its controls.
 */
import { Form } from './form.js';
import { pageLanguage } from './language.js';
import { en, type Locale } from './locale.js';
import { LOCALE_WAIT_MS, loadLocale } from './locale-file.js';
import { type MountOptions, resolveOptions, type WidgetConfig } from './options.js';
import { css } from './styles.js';

export interface WaitlistHandle {
  /** Back to an empty form; a sign-up in flight is aborted. */
  reset(): void;
  /** Unmount: aborts requests, terminates workers, stops timers, removes listeners. */
  destroy(): void;
}

let sheet: CSSStyleSheet | undefined;

/**
 * One constructed style sheet shared by every form on the page. Unlike a <style> element, an
 * adopted sheet is not blocked by a page's `style-src` Content Security Policy.
 */
function styleSheet(): CSSStyleSheet {
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
  }
  return sheet;
}

/** Shadow roots this module attached, so it never renders into one a page made for itself. */
const ours = new WeakSet<ShadowRoot>();
const mounted = new WeakMap<Element, WaitlistHandle>();

/**
 * Renders a validated configuration into `host`'s shadow root. `locales`: where the locale files
 * are (the script tag's own folder); default the service's `/widget/locales/`.
 */
export function mountConfig(host: HTMLElement, config: WidgetConfig, locales?: string): WaitlistHandle {
  mounted.get(host)?.destroy();
  const lang = config.lang ?? pageLanguage();
  // None for English (built in), nor when the page gave every text itself. Asked for first, before
  // the shadow root and the style sheet, so the request is on its way while they are made.
  const texts =
    lang === 'en' || Object.keys(en).every((key) => key in config.locale)
      ? undefined
      : loadLocale(`${locales ?? `${config.baseUrl}/widget/locales/`}${lang}.json`, config.fetch);
  let root = host.shadowRoot;
  if (!root) {
    root = host.attachShadow({ mode: 'open' });
    ours.add(root);
  } else if (!ours.has(root)) {
    throw new TypeError('Waitlist widget: the element already has a shadow root of its own.');
  }
  const controls: { reset?: () => void } = {};
  const shadow = root;
  shadow.adoptedStyleSheets = [styleSheet()];
  // The first render waits for the file LOCALE_WAIT_MS at most: one that has come is drawn in at
  // once; else the form is drawn in English and switches when it comes.
  let form: Form | undefined;
  let arrived: { strings: Partial<Locale> | undefined } | undefined;
  const draw = () => {
    if (form || mounted.get(host) !== handle) return;
    const props = { controls, config, host };
    if (!texts) form = new Form({ ...props, lang });
    // A file that could not be used leaves the form in English.
    else if (arrived)
      form = new Form({ ...props, lang: arrived.strings ? lang : 'en', strings: arrived.strings });
    else form = new Form({ ...props, lang, texts });
    form.mountIn(shadow);
  };
  const handle: WaitlistHandle = {
    reset: () => controls.reset?.(),
    destroy: () => {
      if (mounted.get(host) !== handle) return;
      mounted.delete(host);
      form?.unmount();
    },
  };
  mounted.set(host, handle);
  if (texts) {
    void texts.then((strings) => {
      arrived = { strings };
      draw();
    });
    setTimeout(draw, LOCALE_WAIT_MS);
  } else draw();
  return handle;
}

/**
 * Renders the sign-up form into `element` (in a shadow root, so the page's CSS cannot break
 * it). Throws a TypeError naming every problem when the options cannot work; other problems
 * (an unknown theme, a bad locale entry) are reported on the console and the defaults used.
 */
export function mount(element: HTMLElement, options: MountOptions): WaitlistHandle {
  const problems: string[] = [];
  const config = resolveOptions(options, problems);
  if (!config) throw new TypeError(`Waitlist widget: ${problems.join(' ')}`);
  for (const problem of problems) console.error(`Waitlist widget: ${problem}`);
  return mountConfig(element, config);
}
