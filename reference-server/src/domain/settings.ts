/** Waitlist settings (docs/command-line.md#commands), their defaults and the rules for changing them. */
import {
  CHALLENGE_DEFAULT_MIN_AGE_MS,
  type FieldDefinition,
  IP_RATE_LIMIT_DEFAULT,
  type Language,
  POW_DEFAULT_DIFFICULTY,
} from '@waitlistkit/protocol';
import { conflict, invalid } from './errors.js';
import { POW_SURGE_THRESHOLD_DEFAULT } from './pow-difficulty.js';

export interface WaitlistSettings {
  referrals: boolean;
  origins: string[];
  challenge: boolean;
  challenge_min_age_ms: number;
  pow: boolean;
  pow_difficulty: number;
  pow_adaptive: boolean;
  pow_surge_threshold: number;
  ip_limit: number;
  referral_boost: number;
  email_throttle: boolean;
  mx_check: boolean;
  block_disposable: boolean;
  disposable_domains: string[];
  geo_allow: string[];
  geo_deny: string[];
  confirm_email: boolean;
  /** What the form asks besides the address (docs/subscribers.md#fields), in order. */
  fields: FieldDefinition[];
  /** How two addresses are one person (docs/subscribers.md#address-variants). */
  dedupe: Dedupe;
  /** Where an admitted subscriber goes in (docs/messages.md#the-three-messages): https, or '' for none. */
  access_url: string;
  /** The language of pages and mails for a subscriber who gave none (docs/languages.md#what-a-sign-up-records). */
  default_lang: Language;
}

export const DEDUPE_MODES = ['exact', 'provider'] as const;
export type Dedupe = (typeof DEDUPE_MODES)[number];

export const DEFAULT_SETTINGS: Readonly<WaitlistSettings> = Object.freeze({
  referrals: false,
  origins: [],
  challenge: false,
  challenge_min_age_ms: CHALLENGE_DEFAULT_MIN_AGE_MS,
  pow: false,
  pow_difficulty: POW_DEFAULT_DIFFICULTY,
  pow_adaptive: false,
  pow_surge_threshold: POW_SURGE_THRESHOLD_DEFAULT,
  ip_limit: IP_RATE_LIMIT_DEFAULT,
  referral_boost: 0,
  email_throttle: false,
  mx_check: false,
  block_disposable: false,
  disposable_domains: [],
  geo_allow: [],
  geo_deny: [],
  confirm_email: false,
  fields: [],
  dedupe: 'exact',
  access_url: '',
  default_lang: 'en',
});

export type SettingsPatch = Partial<WaitlistSettings>;

export const SETTING_KEYS = Object.keys(DEFAULT_SETTINGS) as (keyof WaitlistSettings)[];

/** Applies a patch; geo rules are an allow list or a deny list, never both. */
export function applySettings(current: WaitlistSettings, patch: SettingsPatch): WaitlistSettings {
  if ((patch.geo_allow?.length ?? 0) > 0 && (patch.geo_deny?.length ?? 0) > 0) {
    throw invalid('Geo rules are an allow list or a deny list, not both: give one of the two.', 'geo_deny');
  }
  const next: WaitlistSettings = { ...current };
  for (const key of SETTING_KEYS) {
    if (patch[key] !== undefined) (next as unknown as Record<string, unknown>)[key] = patch[key];
  }
  if (next.geo_allow.length > 0 && next.geo_deny.length > 0) {
    const kept = patch.geo_allow !== undefined ? 'deny' : 'allow';
    throw conflict(
      `This waitlist already has a geo ${kept} list; clear it first or set the same kind.`,
      `geo_${kept}`,
      '',
    );
  }
  return next;
}

/** Settings read back from storage: unknown keys dropped, missing ones defaulted (older rows). */
export function settingsFromJson(text: string): WaitlistSettings {
  const stored = JSON.parse(text) as Record<string, unknown>;
  const settings = { ...DEFAULT_SETTINGS } as WaitlistSettings;
  for (const key of SETTING_KEYS) {
    if (stored[key] !== undefined) (settings as unknown as Record<string, unknown>)[key] = stored[key];
  }
  return settings;
}
