/**
 * The catalogues of the pages and mails (docs/languages.md#adding-a-language): one per language,
 * each with every key of English, the same placeholders and merge tags, no empty text, and the
 * plural forms its language needs.
 */
import { LANGUAGES } from '@waitlistkit/protocol';
import { describe, expect, it } from 'vitest';
import { placeholdersOf, type Text } from '../src/domain/say.js';
import { en } from '../src/domain/texts/en.js';
import { CATALOGUES } from '../src/domain/texts/index.js';

const tags = (text: Text) => {
  const forms = typeof text === 'string' ? [text] : Object.values(text);
  return [
    ...new Set(forms.flatMap((f) => [...f.matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)].map((m) => m[1]))),
  ].sort();
};

describe.each(LANGUAGES.map((lang) => [lang]))('the catalogue of %s', (lang) => {
  const texts = CATALOGUES[lang];

  it('exists, with every key of English and no other', () => {
    expect(texts).toBeDefined();
    expect(Object.keys(texts ?? {}).sort()).toEqual(Object.keys(en).sort());
  });

  it('keeps every placeholder and merge tag of English, and has no empty text', () => {
    for (const [key, english] of Object.entries(en) as [keyof typeof en, Text][]) {
      const text = texts?.[key] as Text;
      expect(placeholdersOf(text), `${lang}.${key}`).toEqual(placeholdersOf(english));
      expect(tags(text), `${lang}.${key}`).toEqual(tags(english));
      for (const form of typeof text === 'string' ? [text] : Object.values(text))
        expect(form.trim(), `${lang}.${key}`).not.toBe('');
    }
  });

  it('gives each counted text every plural form the language has', () => {
    const needed = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
    for (const [key, english] of Object.entries(en)) {
      if (typeof english === 'string') continue;
      const forms = texts?.[key as keyof typeof en] as Record<string, string>;
      expect(Object.keys(forms).sort(), `${lang}.${key}`).toEqual([...needed].sort());
    }
  });

  it('keeps a subject on one line', () => {
    for (const key of ['welcomeSubject', 'referralSubject', 'admittedSubject', 'confirmMailSubject'] as const)
      expect(texts?.[key], `${lang}.${key}`).not.toMatch(/[\r\n]/);
  });
});
