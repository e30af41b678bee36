/**
 * Which language the form speaks when the page does not say (docs/languages.md#the-widget), and
 * which way it is written.
 */
import { type Language, pickLanguage, RTL_LANGUAGES } from '@waitlistkit/protocol';

/** The page's `<html lang>`, then the browser's preferred languages, else English. */
export const pageLanguage = (): Language =>
  pickLanguage([document.documentElement.lang, ...(navigator.languages ?? [])]);

export const direction = (lang: Language): 'rtl' | 'ltr' => (RTL_LANGUAGES.includes(lang) ? 'rtl' : 'ltr');
