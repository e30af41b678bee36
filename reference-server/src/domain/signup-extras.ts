/**
 * What a fresh sign-up keeps besides the address (docs/subscribers.md#fields,
 * docs/subscribers.md#attribution, docs/subscribers.md#address-variants), in the form the stores
 * write it; and what a subscriber's row shows of it. Pure: the stores only bind and read.
 */
import {
  channelOf,
  type FieldDefinition,
  type FieldValues,
  keptSource,
  type Language,
  type Source,
} from '@waitlistkit/protocol';
import { variantKey } from './address-variants.js';

export interface SignupExtras {
  /** The answers as JSON text; null when none. */
  fields: string | null;
  /** The kept source as JSON text; null when none. */
  source: string | null;
  /** The channel the source gives when nobody is credited; null for `direct` (the list's channel filter reads it). */
  sourceChannel: string | null;
  /** The address's variant key, written when the waitlist's dedupe is `provider` (the store decides, in its write). */
  variantKey: string | null;
  /** The language the sign-up gave (docs/languages.md#what-a-sign-up-records); null when none. */
  lang: Language | null;
}

const DIRECT = 'direct';

const jsonOrNull = (value: object) => (Object.keys(value).length === 0 ? null : JSON.stringify(value));

export function signupExtras(
  emailNorm: string,
  fields: FieldValues,
  source: Source,
  lang: Language | null,
): SignupExtras {
  const kept = keptSource(source);
  const channel = channelOf(kept, false);
  return {
    fields: jsonOrNull(fields),
    source: jsonOrNull(kept),
    sourceChannel: channel === DIRECT ? null : channel,
    variantKey: variantKey(emailNorm) ?? null,
    lang,
  };
}

/** The stored answers to the fields defined now, in their order: an answer outlives its definition. */
export function shownFields(defined: readonly FieldDefinition[], stored: string | null): FieldValues {
  if (stored === null || defined.length === 0) return {};
  const answers = JSON.parse(stored) as FieldValues;
  const shown: FieldValues = {};
  for (const { key } of defined) {
    const answer = answers[key];
    if (answer !== undefined) shown[key] = answer;
  }
  return shown;
}

/**
 * The source as kept, and the channel derived now: `referral` once a referrer is credited, else
 * the channel the source gives, kept beside it at the sign-up (`sourceChannel` above, NULL for
 * direct) for the list's filter. Read from there, a page shows exactly what the filter matches,
 * and parses no page address per row.
 */
export function shownSource(
  stored: { source: string | null; source_channel: string | null },
  credited: boolean,
): { source: Source; channel: string } {
  const source = stored.source === null ? {} : (JSON.parse(stored.source) as Source);
  return { source, channel: credited ? 'referral' : (stored.source_channel ?? DIRECT) };
}
