/**
 * Options of the form, from code (`mount`) or from attributes (custom element, script tag), and
 * their validation. Nothing here throws or touches the DOM: problems come back as sentences for
 * the console, and only a missing or invalid waitlist id or base URL stops the form.
 */
import { type Language, matchLanguage } from '@waitlistkit/protocol';
import { parseBaseUrl } from '../core/url.js';
import { en, type Locale, type LocaleKey, mergeLocale } from './locale.js';

export type Theme = 'auto' | 'light' | 'dark';
/** When the gates are passed ahead of the submit (docs/gates.md#gates-before-the-submit). */
export type Prepare = 'focus' | 'visible';

export interface MountOptions {
  /** `wl_…`, from the waitlist's setup page. */
  waitlistId: string;
  /** The waitlist service's address, `https://…`. */
  baseUrl: string;
  /** Light or dark; `auto` (default) follows `prefers-color-scheme`. */
  theme?: Theme;
  /** Query parameter of referral links, read on load and written into share links; default `ref`. */
  refParam?: string;
  /**
   * The language (docs/languages.md): a tag such as `de` or `pt-BR`. Default: the page's
   * `<html lang>`, else the browser's languages, else English.
   */
  lang?: string;
  /** Texts replacing the language's; any subset of `en`'s keys. Every key given: no locale file fetched. */
  locale?: Partial<Locale>;
  /**
   * `focus` (default): pass the gates from the email field's first focus, so pages where nobody
   * signs up never pay for them. `visible`: from when the form first scrolls into view, for
   * pages whose visitors come to sign up (a second more of solving; a phone's battery too).
   */
  prepare?: Prepare;
  /**
   * `true` (default): send where the sign-up came from, the page's `utm_*` parameters, referrer
   * and address, the pages as origin + path (docs/subscribers.md#attribution). `false`: none.
   */
  attribution?: boolean;
  /** Passed to `subscribe()`. */
  fetch?: typeof fetch;
  /** Passed to `subscribe()`. */
  workers?: number;
}

export interface WidgetConfig {
  waitlistId: string;
  baseUrl: string;
  theme: Theme;
  refParam: string;
  /** The language the page asked for; undefined: the page's or the browser's. */
  lang?: Language | undefined;
  /** The page's texts, winning over the language's. */
  locale: Partial<Locale>;
  prepare: Prepare;
  attribution: boolean;
  fetch?: typeof fetch;
  workers?: number;
}

const THEMES: readonly Theme[] = ['auto', 'light', 'dark'];
const PREPARES: readonly Prepare[] = ['focus', 'visible'];
/** The option takes a boolean, the attribute on or off; either word is understood in either place. */
const SWITCH: readonly (boolean | string)[] = [true, false, 'on', 'off'];
const WAITLIST_ID = /^wl_[A-Za-z0-9_-]{1,64}$/;
const PARAM = /^[A-Za-z0-9_.-]{1,32}$/;

/** A value for a console message: quoted, shortened, never the whole of a huge attribute. */
export const show = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 48 ? `${text.slice(0, 45)}…` : text;
};

export type NameOf = (option: string) => string;

/**
 * The widget's configuration, or `undefined` when it cannot work; `problems` collects what is
 * wrong, each sentence naming the option as the page wrote it (`nameOf`).
 */
export function resolveOptions(
  input: MountOptions,
  problems: string[],
  nameOf: NameOf = (o) => o,
): WidgetConfig | undefined {
  const { waitlistId, theme = 'auto', refParam = 'ref', prepare = 'focus', attribution = true } = input;
  /** `value` when it is one of `values`, else the first of them, with the problem reported. */
  const oneOf = <T>(option: string, value: T, values: readonly T[]): T => {
    if (values.includes(value)) return value;
    problems.push(`${nameOf(option)} ${show(value)} is not one of ${values.join(', ')}; using ${values[0]}.`);
    return values[0] as T;
  };
  const localeProblems: string[] = [];
  const locale = mergeLocale({}, input.locale, localeProblems);
  for (const problem of localeProblems) problems.push(problem.replace(/^locale/, nameOf('locale')));
  const config: WidgetConfig = {
    waitlistId,
    baseUrl: parseBaseUrl(input.baseUrl) ?? '',
    theme: oneOf('theme', theme, THEMES),
    refParam: typeof refParam === 'string' && PARAM.test(refParam) ? refParam : 'ref',
    lang: typeof input.lang === 'string' ? matchLanguage(input.lang) : undefined,
    locale,
    prepare: oneOf('prepare', prepare, PREPARES),
    attribution: !['off', false].includes(oneOf<boolean | string>('attribution', attribution, SWITCH)),
    fetch: input.fetch,
    workers: input.workers,
  };
  if (config.refParam !== refParam) {
    problems.push(
      `${nameOf('refParam')} ${show(refParam)} is not a query parameter name (letters, digits, _ . -); using ref.`,
    );
  }
  // A tag we do not speak (garbage, one we lack, an empty one) falls to the page's or browser's.
  if (input.lang != null && !config.lang) {
    problems.push(
      `${nameOf('lang')} ${show(input.lang)} is not a language the widget speaks; using the page's or the browser's.`,
    );
  }
  let usable = true;
  if (!waitlistId) {
    problems.push(`${nameOf('waitlistId')} is missing: give the waitlist's id (wl_…) from its setup page.`);
    usable = false;
  } else if (typeof waitlistId !== 'string' || !WAITLIST_ID.test(waitlistId)) {
    problems.push(
      `${nameOf('waitlistId')} ${show(waitlistId)} is not a waitlist id (wl_ and letters or digits).`,
    );
    usable = false;
  }
  if (!config.baseUrl) {
    problems.push(
      input.baseUrl
        ? `${nameOf('baseUrl')} ${show(input.baseUrl)} is not an http(s) address.`
        : `${nameOf('baseUrl')} is missing: give the waitlist service's address (https://…).`,
    );
    usable = false;
  }
  return usable ? config : undefined;
}

/** `invalidEmail` → `invalid-email`. */
const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
/** `text-` and a key for each text: `text-invalid-email`. */
const TEXTS = Object.keys(en).map((key) => [key as LocaleKey, `text-${kebab(key)}`] as const);
/** The first texts, named before there were `text-` attributes: they still work. */
const TEXT_ATTRIBUTES = ['label', 'button', 'placeholder', 'success'] as const;

/** Attributes of `<waitlist-form>`; the script tag takes the same with `data-`. */
export const ATTRIBUTES = [
  'waitlist-id',
  'base-url',
  'theme',
  'ref-param',
  'prepare',
  'attribution',
  'lang',
  'locale',
  ...TEXT_ATTRIBUTES,
  ...TEXTS.map(([, attribute]) => attribute),
];

/** Options from attributes (`read` returns an attribute's value or null). */
export function optionsFromAttributes(
  read: (name: string) => string | null,
  problems: string[],
  nameOf: NameOf,
): MountOptions {
  let locale: Record<string, unknown> = {};
  const json = read('locale');
  if (json) {
    try {
      const parsed: unknown = JSON.parse(json);
      // Spread, not Object.assign: a "__proto__" key stays a plain (reported) key.
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) locale = { ...parsed };
      else problems.push(`${nameOf('locale')} must be a JSON object of texts.`);
    } catch {
      problems.push(`${nameOf('locale')} is not valid JSON.`);
    }
  }
  for (const key of TEXT_ATTRIBUTES) {
    const value = read(key);
    if (value !== null) locale[key] = value;
  }
  for (const [key, attribute] of TEXTS) {
    const value = read(attribute);
    if (value !== null) locale[key] = value;
  }
  return {
    waitlistId: read('waitlist-id') ?? '',
    baseUrl: read('base-url') ?? '',
    theme: (read('theme') ?? undefined) as Theme | undefined,
    refParam: read('ref-param') ?? undefined,
    lang: read('lang') ?? undefined,
    prepare: (read('prepare') ?? undefined) as Prepare | undefined,
    attribution: (read('attribution') ?? undefined) as boolean | undefined,
    locale: locale as Partial<Locale>,
  };
}

/** `waitlistId` → `waitlist-id`, with the page's prefix (`data-` on the script tag). */
export const attributeName =
  (prefix: string): NameOf =>
  (option) =>
    prefix + kebab(option);
