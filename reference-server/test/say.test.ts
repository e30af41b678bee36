/** Words in a language (domain/say.ts, docs/languages.md#pages-and-mails): plurals, numbers, placeholders, the browser's choice. */
import { describe, expect, it } from 'vitest';
import { languageOfHeader, placeholdersOf, sayer } from '../src/domain/say.js';

const texts = {
  ahead: { one: '{count} person ahead', other: '{count} people ahead' },
  hello: 'Hello {name}, {missing} stays',
};

describe('say', () => {
  it('chooses the plural form by the language’s rules and writes the number its way', () => {
    const en = sayer('en', texts);
    expect(en('ahead', { count: 1 })).toBe('1 person ahead');
    expect(en('ahead', { count: 0 })).toBe('0 people ahead');
    expect(en('ahead', { count: 12_345 })).toBe('12,345 people ahead');
    // French: 0 and 1 are singular, and thousands are grouped with a narrow no-break space.
    const fr = sayer('fr', { ahead: { one: '{count} personne devant', other: '{count} personnes devant' } });
    expect(fr('ahead', { count: 0 })).toBe('0 personne devant');
    expect(fr('ahead', { count: 12_345 })).toBe('12\u202f345 personnes devant');
  });

  it('takes `other` for a category the text lacks', () => {
    // Russian has one, few, many and other; a text with only `other` still answers.
    const ru = sayer('ru', { n: { other: '{count} человек' } });
    expect(ru('n', { count: 3 })).toBe('3 человек');
    const full = sayer('ru', {
      n: {
        one: '{count} человек',
        few: '{count} человека',
        many: '{count} человек',
        other: '{count} человека',
      },
    });
    expect([1, 3, 5, 21].map((count) => full('n', { count }))).toEqual([
      '1 человек',
      '3 человека',
      '5 человек',
      '21 человек',
    ]);
  });

  it('fills known placeholders with text as given and leaves unknown ones', () => {
    expect(sayer('en', texts)('hello', { name: '<b>Ada</b>' })).toBe('Hello <b>Ada</b>, {missing} stays');
  });

  it('lists the placeholders of every form', () => {
    expect(placeholdersOf({ one: '{count} x', other: '{count} {waitlist}' })).toEqual(['count', 'waitlist']);
    expect(placeholdersOf('none')).toEqual([]);
  });
});

describe('the language a browser asks for', () => {
  it.each([
    ['de-DE,de;q=0.9,en;q=0.8', 'de'],
    ['en;q=0.5, pt-BR', 'pt'],
    ['tlh, fr;q=0.4', 'fr'],
    ['*', 'en'],
    ['fr;q=0, it', 'it'],
    ['ar-EG;q=0.9, he;q=0.9', 'ar'],
    ['', 'en'],
    [undefined, 'en'],
    ['de;q=abc', 'de'],
    [`${'x,'.repeat(400)}de`, 'en'],
  ])('%s → %s', (header, lang) => {
    expect(languageOfHeader(header)).toBe(lang);
  });
});
