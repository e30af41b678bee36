/**
 * The translations (src/locales/<tag>.json, docs/languages.md#adding-a-language): one file for
 * every language but English, each with every text of `en`, the same placeholders, nothing
 * empty, plural forms the language has, and within its 1,000 bytes after gzip -9 as served.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { LANGUAGES } from '@waitlistkit/protocol';
import { describe, expect, it } from 'vitest';
import { en, validText } from '../src/ui/locale.js';

const dir = join(import.meta.dirname, '../src/locales');
const built = join(import.meta.dirname, '../dist/locales');
const BUDGET = 1_000;
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
const read = (path: string) => readFileSync(path, 'utf8');

/** As the budget is stated: gzip -9 where the command exists, else zlib (a little larger). */
function gzip9(bytes: Buffer): number {
  const run = spawnSync('gzip', ['-9', '-c'], { input: bytes });
  return run.status === 0 ? run.stdout.length : gzipSync(bytes, { level: 9 }).length;
}

it('there is a file for every language but English (built in), and no other', () => {
  expect(readdirSync(dir).sort()).toEqual(
    LANGUAGES.filter((tag) => tag !== 'en')
      .map((tag) => `${tag}.json`)
      .sort(),
  );
});

for (const tag of LANGUAGES.filter((t) => t !== 'en')) {
  describe(tag, () => {
    const texts: Record<string, unknown> = JSON.parse(read(join(dir, `${tag}.json`)));

    it('has every text of en, and no other', () => {
      expect(Object.keys(texts)).toEqual(Object.keys(en));
    });

    it('keeps the placeholders of en, writes no empty text, and gives only plural forms the language has', () => {
      const forms = new Intl.PluralRules(tag).resolvedOptions().pluralCategories;
      for (const [key, text] of Object.entries(texts)) {
        const english = placeholders(en[key as keyof typeof en]);
        expect(validText(text), `${tag}.${key} is a text or plural forms`).toBe(true);
        if (typeof text === 'string') {
          expect(text.trim(), `${tag}.${key}`).not.toBe('');
          expect(placeholders(text), `${tag}.${key}`).toEqual(english);
        } else {
          // Plural forms for a text that shows a number; `other` says it, a form for one or two may spell it.
          expect(english, `${tag}.${key} has a number to choose by`).toHaveLength(1);
          for (const [form, variant] of Object.entries(text as Record<string, string>)) {
            expect(forms, `${tag}.${key}.${form}`).toContain(form);
            expect(variant.trim(), `${tag}.${key}.${form}`).not.toBe('');
            expect(english, `${tag}.${key}.${form}`).toEqual(expect.arrayContaining(placeholders(variant)));
          }
          expect(placeholders((text as { other: string }).other), `${tag}.${key}.other`).toEqual(english);
        }
      }
    });

    it(`is served within ${BUDGET} bytes after gzip -9, as built`, () => {
      const served = readFileSync(join(built, `${tag}.json`));
      expect(JSON.parse(served.toString('utf8'))).toEqual(texts);
      const size = gzip9(served);
      expect(size, `dist/locales/${tag}.json is ${size} bytes after gzip -9`).toBeLessThanOrEqual(BUDGET);
    });
  });
}
