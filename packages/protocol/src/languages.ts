/**
 * The languages the service speaks (docs/languages.md): the tags a sign-up's `lang` may take, how
 * a tag a browser or a page gives is matched to one of them, and which are written right to left.
 * Pure and small: the widget bundles it, so every byte here is a byte of the script-tag file.
 */

/**
 * Every supported language, English first. A tag is a language subtag, except `zh-Hant`: Chinese
 * is matched by its script, as readers of one do not read the other.
 */
export const LANGUAGES = [
  'en',
  'ar',
  'bg',
  'bn',
  'ca',
  'cs',
  'da',
  'de',
  'el',
  'es',
  'fa',
  'fi',
  'fr',
  'he',
  'hi',
  'hu',
  'id',
  'it',
  'ja',
  'ko',
  'nb',
  'nl',
  'pl',
  'pt',
  'ro',
  'ru',
  'sk',
  'sv',
  'th',
  'tr',
  'uk',
  'vi',
  'zh',
  'zh-Hant',
] as const;

export type Language = (typeof LANGUAGES)[number];

/** Written right to left: the widget and the pages set `dir="rtl"` for these. */
export const RTL_LANGUAGES: readonly Language[] = ['ar', 'fa', 'he'];

// Older or wider tags browsers still send for a language we have.
const ALIASES: Record<string, Language> = { iw: 'he', in: 'id', no: 'nb', nn: 'nb' };
// Chinese written in traditional characters: by script, else by the regions that use them.
const HANT = /^zh-(hant|tw|hk|mo)\b/;

export const isLanguage = (tag: unknown): tag is Language =>
  typeof tag === 'string' && (LANGUAGES as readonly string[]).includes(tag);

/**
 * The supported language a BCP 47 tag asks for: `pt-BR` → `pt`, `zh-TW` → `zh-Hant`, `iw` → `he`;
 * undefined for a language we lack or for what is not a tag (too long, stray characters).
 */
export function matchLanguage(tag: string): Language | undefined {
  const t = tag.trim().toLowerCase().replaceAll('_', '-');
  if (t.length > 35 || !/^[a-z]{2,3}(-[a-z0-9]{1,8})*$/.test(t)) return undefined;
  if (HANT.test(t)) return 'zh-Hant';
  const primary = t.split('-')[0] as string;
  return ALIASES[primary] ?? (isLanguage(primary) ? primary : undefined);
}

/** The first of `tags` (most wanted first; undefined and empty ones skipped) that we speak, else English. */
export function pickLanguage(tags: readonly (string | null | undefined)[]): Language {
  for (const tag of tags) {
    const found = tag ? matchLanguage(tag) : undefined;
    if (found) return found;
  }
  return 'en';
}
