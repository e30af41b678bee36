/**
 * The catalogues of the service's pages and mails, one file per language (docs/languages.md), and
 * the words for one language: its texts with their plurals and numbers, and its direction.
 */
import { type Language, RTL_LANGUAGES } from '@waitlistkit/protocol';
import { type Say, sayer } from '../say.js';
import { ar } from './ar.js';
import { bg } from './bg.js';
import { bn } from './bn.js';
import { ca } from './ca.js';
import { cs } from './cs.js';
import { da } from './da.js';
import { de } from './de.js';
import { el } from './el.js';
import { en, type PageTexts } from './en.js';
import { es } from './es.js';
import { fa } from './fa.js';
import { fi } from './fi.js';
import { fr } from './fr.js';
import { he } from './he.js';
import { hi } from './hi.js';
import { hu } from './hu.js';
import { id } from './id.js';
import { it } from './it.js';
import { ja } from './ja.js';
import { ko } from './ko.js';
import { nb } from './nb.js';
import { nl } from './nl.js';
import { pl } from './pl.js';
import { pt } from './pt.js';
import { ro } from './ro.js';
import { ru } from './ru.js';
import { sk } from './sk.js';
import { sv } from './sv.js';
import { th } from './th.js';
import { tr } from './tr.js';
import { uk } from './uk.js';
import { vi } from './vi.js';
import { zh } from './zh.js';
import { zhHant } from './zh-hant.js';

export type { PageTexts };

export const CATALOGUES: Record<Language, PageTexts> = {
  en,
  ar,
  bg,
  bn,
  ca,
  cs,
  da,
  de,
  el,
  es,
  fa,
  fi,
  fr,
  he,
  hi,
  hu,
  id,
  it,
  ja,
  ko,
  nb,
  nl,
  pl,
  pt,
  ro,
  ru,
  sk,
  sv,
  th,
  tr,
  uk,
  vi,
  zh,
  'zh-Hant': zhHant,
};

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
    words = { lang, dir: RTL_LANGUAGES.includes(lang) ? 'rtl' : 'ltr', say: sayer(lang, CATALOGUES[lang]) };
    made.set(lang, words);
  }
  return words;
}
