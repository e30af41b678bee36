/**
 * The language pages and mails speak to a subscriber (docs/languages.md#what-a-sign-up-records):
 * the one recorded at their first sign-up, else their waitlist's `default_lang`. Pure: the status,
 * confirmation and unsubscribe pages and the outbox's mails each ask this, and nothing else.
 */
import { isLanguage, type Language } from '@waitlistkit/protocol';
import type { WaitlistSettings } from './settings.js';

export function languageOf(
  subscriber: { lang: string | null },
  settings: Pick<WaitlistSettings, 'default_lang'>,
): Language {
  // A stored tag is one we spoke when it was recorded; the default stands in for one we no longer do.
  return isLanguage(subscriber.lang) ? subscriber.lang : settings.default_lang;
}
