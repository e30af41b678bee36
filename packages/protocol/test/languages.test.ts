import { describe, expect, it } from 'vitest';
import { isLanguage, LANGUAGES, matchLanguage, pickLanguage, RTL_LANGUAGES } from '../src/index.js';

describe('the languages', () => {
  it('are at least thirty, English first, with the right-to-left ar, he and fa among them', () => {
    expect(LANGUAGES.length).toBeGreaterThanOrEqual(30);
    expect(LANGUAGES[0]).toBe('en');
    expect(new Set(LANGUAGES).size).toBe(LANGUAGES.length);
    expect([...RTL_LANGUAGES].sort()).toEqual(['ar', 'fa', 'he']);
  });

  it('each match themselves, in any case', () => {
    for (const lang of LANGUAGES) {
      expect(matchLanguage(lang)).toBe(lang);
      expect(matchLanguage(lang.toUpperCase())).toBe(lang);
    }
  });
});

describe('matching a tag', () => {
  it.each([
    ['pt-BR', 'pt'],
    ['de-AT', 'de'],
    ['en-GB', 'en'],
    ['sr-Latn-RS', undefined],
    ['es-419', 'es'],
    ['fr_CA', 'fr'],
    [' it ', 'it'],
    ['zh-CN', 'zh'],
    ['zh-Hans-CN', 'zh'],
    ['zh-TW', 'zh-Hant'],
    ['zh-Hant-HK', 'zh-Hant'],
    ['zh-HK', 'zh-Hant'],
    ['iw', 'he'],
    ['in-ID', 'id'],
    ['no', 'nb'],
    ['nn-NO', 'nb'],
    ['nb-NO', 'nb'],
  ])('%s → %s', (tag, lang) => {
    expect(matchLanguage(tag)).toBe(lang);
  });

  it.each([
    ['an empty tag', ''],
    ['garbage', '<script>'],
    ['a language we lack', 'tlh'],
    ['10 KB', 'de-'.repeat(3_400)],
    ['a number', '42'],
    ['a wildcard', '*'],
    ['a trailing hyphen', 'de-'],
    ['a subtag of nine letters', 'de-abcdefghi'],
    ['a prototype key', '__proto__'],
    ['constructor', 'constructor'],
  ])('finds nothing for %s', (_, tag) => {
    expect(matchLanguage(tag)).toBeUndefined();
  });

  it('isLanguage takes only the exact tags', () => {
    expect(isLanguage('pt')).toBe(true);
    expect(isLanguage('zh-Hant')).toBe(true);
    expect(isLanguage('pt-BR')).toBe(false);
    expect(isLanguage('EN')).toBe(false);
    expect(isLanguage(undefined)).toBe(false);
  });
});

describe('picking a language', () => {
  it('takes the first tag we speak, skipping the missing and empty ones', () => {
    expect(pickLanguage([undefined, '', 'tlh', 'fr-CA', 'de'])).toBe('fr');
    expect(pickLanguage([null, 'ar-EG'])).toBe('ar');
  });

  it('falls back to English', () => {
    expect(pickLanguage([])).toBe('en');
    expect(pickLanguage(['tlh', 'x'.repeat(10_000), ''])).toBe('en');
  });
});
