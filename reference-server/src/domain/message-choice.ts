/**
 * Which text of a message a subscriber gets (docs/messages.md#languages). Pure: the outbox, the
 * editor, `message show --lang` and the tests ask this, and nothing else.
 *
 * A waitlist keeps, per kind, its own version (lang '', what the editor shows first and `message
 * set` without `--lang` saves), written in the waitlist's `default_lang`, and versions per
 * language. A subscriber spoken to in `lang` gets the version in `lang` if saved; else, when `lang`
 * is the waitlist's default language, its own version; else our default template in `lang`. An
 * operator's text is used for the language it is written in and ours for the rest: a French
 * reader gets French, never the operator's English. Whether a kind is sent at all is one switch
 * per kind, not per language: a waitlist that sends a welcome sends it to everyone, and versions
 * are only texts.
 */
import type { Language } from '@waitlistkit/protocol';
import type { Message, MessageKind } from './messages.js';
import { CATALOGUES } from './texts/index.js';

/** The language-neutral version's tag: the waitlist's own message, whoever reads it. */
export const NEUTRAL = '';

/** A message's kept versions of one kind, by tag ('' or a language). */
export type Versions = ReadonlyMap<string, Pick<Message, 'subject' | 'body' | 'enabled'>>;

/** Where the chosen text came from: a version in the language, the waitlist's own, or ours. */
export type TextFrom = 'language' | 'waitlist' | 'default';

export interface ChosenText {
  subject: string;
  body: string;
  from: TextFrom;
}

/** Our template of a kind in a language: every supported language has all three (domain/texts). */
export function defaultTemplate(kind: MessageKind, lang: Language): { subject: string; body: string } {
  const texts = CATALOGUES[lang];
  return { subject: String(texts[`${kind}Subject`]), body: String(texts[`${kind}Body`]) };
}

/** The text a subscriber spoken to in `lang` gets of one kind, on a waitlist whose default language is `defaultLang`. */
export function chooseText(
  kind: MessageKind,
  lang: Language,
  versions: Versions,
  defaultLang: Language,
): ChosenText {
  const own = versions.get(lang);
  if (own) return { subject: own.subject, body: own.body, from: 'language' };
  const neutral = lang === defaultLang ? versions.get(NEUTRAL) : undefined;
  if (neutral) return { subject: neutral.subject, body: neutral.body, from: 'waitlist' };
  return { ...defaultTemplate(kind, lang), from: 'default' };
}

/** Whether a kind is sent: its one switch, kept alike on every version (none saved: off). */
export const isOn = (versions: Versions): boolean => [...versions.values()].some((v) => v.enabled);
