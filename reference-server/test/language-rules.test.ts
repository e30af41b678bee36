/** The language a subscriber is spoken to in (domain/language-of.ts), without a store. */
import { LANGUAGES } from '@waitlistkit/protocol';
import { describe, expect, it } from 'vitest';
import { languageOf } from '../src/domain/language-of.js';
import { DEFAULT_SETTINGS, settingsFromJson } from '../src/domain/settings.js';

describe('the language of a subscriber', () => {
  it('is the one recorded at the sign-up, whatever the waitlist’s default', () => {
    expect(languageOf({ lang: 'pt' }, { default_lang: 'de' })).toBe('pt');
    expect(languageOf({ lang: 'zh-Hant' }, { default_lang: 'en' })).toBe('zh-Hant');
    for (const lang of LANGUAGES) expect(languageOf({ lang }, { default_lang: 'fr' })).toBe(lang);
  });

  it('is the waitlist’s default for a subscriber who gave none (from before, or an import without one)', () => {
    expect(languageOf({ lang: null }, { default_lang: 'de' })).toBe('de');
    expect(languageOf({ lang: null }, { default_lang: 'he' })).toBe('he');
  });

  it('is the default for a stored tag we do not speak: never a tag without its strings', () => {
    for (const lang of ['', 'pt-BR', 'EN', 'sw', '__proto__', 'x'.repeat(10_000)])
      expect(languageOf({ lang }, { default_lang: 'nl' })).toBe('nl');
  });

  it('is English for a waitlist that never set its default, saved before the setting existed', () => {
    expect(DEFAULT_SETTINGS.default_lang).toBe('en');
    expect(languageOf({ lang: null }, settingsFromJson('{"referrals": true}'))).toBe('en');
  });
});
