/**
 * The catalogues of the service's pages and mails, one file per language (docs/languages.md), and
 * the words for one language: its texts with their plurals and numbers, and its direction.
 */
import { type Language, RTL_LANGUAGES } from '@waitlistkit/protocol';
import { type Say, sayer } from '../say.js';
import { en, type PageTexts } from './en.js';

export type { PageTexts };

export const CATALOGUES: Partial<Record<Language, PageTexts>> = { en };

/** What a page or mail needs to speak to one person. */
export interface Words {
  lang: Language;
  dir: 'ltr' | 'rtl';
  say: Say<PageTexts>;
}

const made = new Map<Language, Words>();

export function wordsFor(lang: Language): Words {
  let words = made.get(lang);
  if (!words) {
    const texts = CATALOGUES[lang];
    words = texts
      ? { lang, dir: RTL_LANGUAGES.includes(lang) ? 'rtl' : 'ltr', say: sayer(lang, texts) }
      : wordsFor('en');
    made.set(lang, words);
  }
  return words;
}
