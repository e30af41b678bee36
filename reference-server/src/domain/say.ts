/**
 * Words for a person in their language (docs/languages.md#pages-and-mails): a catalogue's text
 * filled with its values, a count choosing its plural form by `Intl.PluralRules` and every number
 * written by `Intl.NumberFormat` ("12 345" in French), never by gluing strings. Pure.
 */
import { type Language, pickLanguage } from '@waitlistkit/protocol';

/** A text that depends on `{count}`: one form per plural category the language has, `other` always. */
export type Plural = { other: string } & Partial<Record<Intl.LDMLPluralRule, string>>;
export type Text = string | Plural;

/** `say(key, values)`: the text of `key`, with `{name}` placeholders filled. */
export type Say<T extends Record<string, Text>> = (
  key: keyof T,
  values?: Record<string, string | number>,
) => string;

export function sayer<T extends Record<string, Text>>(lang: Language, texts: T): Say<T> {
  const plural = new Intl.PluralRules(lang);
  const number = new Intl.NumberFormat(lang);
  return (key, values = {}) => {
    const text = texts[key] as Text;
    const template =
      typeof text === 'string' ? text : (text[plural.select(Number(values.count))] ?? text.other);
    return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
      const value = values[name];
      if (value === undefined) return whole;
      return typeof value === 'number' ? number.format(value) : value;
    });
  };
}

/** The placeholders a text uses, in every form: what a translation must keep. */
export function placeholdersOf(text: Text): string[] {
  const forms = typeof text === 'string' ? [text] : Object.values(text);
  return [
    ...new Set(forms.flatMap((form) => [...form.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string))),
  ].sort();
}

/**
 * The language an `Accept-Language` header asks for most, among ours; English without one. For
 * pages that know no subscriber (a link that is not valid): the browser's choice is all there is.
 */
export function languageOfHeader(header: string | undefined): Language {
  if (!header || header.length > 500) return 'en';
  const asked = header
    .split(',')
    .slice(0, 20)
    .map((part, i) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([01](\.\d{0,3})?)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), i };
    })
    .filter((a) => a.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  return pickLanguage(asked.map((a) => a.tag));
}
