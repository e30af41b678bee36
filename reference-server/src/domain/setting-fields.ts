/**
 * The waitlist settings of docs/command-line.md#commands as fields: one definition from which the command
 * line's options and the dashboard's form are both made, so a range or a parser cannot differ
 * between the two doors.
 */
import {
  type FieldDefinition,
  FormDescriptionSchema,
  LANGUAGES,
  POW_MAX_DIFFICULTY,
  POW_MIN_DIFFICULTY,
  parseWith,
  REFERRAL_BOOST_MAX,
} from '@waitlistkit/protocol';
import { parseCountry } from './countries.js';
import { parseOrigin } from './origins.js';
import { DEDUPE_MODES, type WaitlistSettings } from './settings.js';

/** The settings edited as one value each; `fields`, a list of definitions, has its own editor. */
type Key = Exclude<keyof WaitlistSettings, 'fields'>;

export type SettingField = { key: Key; label: string; help: string } & (
  | { kind: 'switch' }
  | { kind: 'int'; min: number; max: number }
  | { kind: 'list'; placeholder: string; item: (value: string) => string }
  /** `placeholder`: what the command line's help shows for the value, when not the values themselves. */
  | { kind: 'choice'; values: readonly string[]; placeholder?: string }
  /** One value, '' for none; `parse` throws a sentence naming what is wrong. */
  | { kind: 'text'; placeholder: string; parse: (value: string) => string }
);

function parseDomain(input: string): string {
  const value = input.trim().toLowerCase();
  if (!/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(value))
    throw new Error(`${JSON.stringify(input)} is not a domain.`);
  return value;
}

/** An https URL as given (`''` clears it): the admitted mail's call to action. */
export function parseAccessUrl(input: string): string {
  const value = input.trim();
  if (value === '') return '';
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url?.protocol !== 'https:' || url.hostname === '' || value.length > 2000)
    throw new Error(`${JSON.stringify(input)} is not an https URL.`);
  return url.href;
}

export const SETTING_FIELDS: readonly SettingField[] = [
  {
    key: 'referrals',
    kind: 'switch',
    label: 'Referrals',
    help: 'referral codes, counts, status tokens and page (default off)',
  },
  {
    key: 'referral_boost',
    kind: 'int',
    min: 0,
    max: REFERRAL_BOOST_MAX,
    label: 'Referral boost',
    help: 'places a referrer moves up per credited referral (default 0)',
  },
  {
    key: 'origins',
    kind: 'list',
    placeholder: '"https://a.example,https://b.example"',
    item: parseOrigin,
    label: 'Allowed origins',
    help: 'origin allowlist of the public endpoint (default empty: public signup refused)',
  },
  { key: 'challenge', kind: 'switch', label: 'Challenge', help: 'Challenge gate (default off)' },
  {
    key: 'challenge_min_age_ms',
    kind: 'int',
    min: 0,
    max: 600_000,
    label: 'Challenge minimum age (ms)',
    help: 'milliseconds a Challenge token must age before it is accepted (default 1500)',
  },
  { key: 'pow', kind: 'switch', label: 'Proof of Work', help: 'Proof of Work gate (default off)' },
  {
    key: 'pow_difficulty',
    kind: 'int',
    min: POW_MIN_DIFFICULTY,
    max: POW_MAX_DIFFICULTY,
    label: 'Proof of Work difficulty (bits)',
    help: 'leading zero bits the Proof of Work needs (default 18)',
  },
  {
    key: 'pow_adaptive',
    kind: 'switch',
    label: 'Adaptive difficulty',
    help: 'raise the difficulty under a surge and for repeat sign-ups from one address (default off)',
  },
  {
    key: 'pow_surge_threshold',
    kind: 'int',
    min: 1,
    max: 1_000_000,
    label: 'Surge threshold (nonces per minute)',
    help: 'nonces issued per minute above which adaptive difficulty rises (default 120)',
  },
  {
    key: 'confirm_email',
    kind: 'switch',
    label: 'Confirm email',
    help: 'double opt-in: mail a confirmation link, count referrals once confirmed (default off)',
  },
  {
    key: 'dedupe',
    kind: 'choice',
    values: DEDUPE_MODES,
    label: 'One person, one place',
    help: 'exact: addresses compared as written; provider: Gmail dots and +tags, and +tags at Outlook, iCloud, Fastmail and Proton, are one person (default exact)',
  },
  {
    key: 'ip_limit',
    kind: 'int',
    min: 1,
    max: 1_000_000,
    label: 'Requests per IP per minute',
    help: 'public requests per IP per minute (default 60)',
  },
  {
    key: 'email_throttle',
    kind: 'switch',
    label: 'Per-email throttle',
    help: 'per-email throttle on both create endpoints (default off)',
  },
  {
    key: 'mx_check',
    kind: 'switch',
    label: 'MX check',
    help: 'MX verification of the email domain (default off)',
  },
  {
    key: 'block_disposable',
    kind: 'switch',
    label: 'Block disposable email',
    help: 'disposable-email blocklist (default off)',
  },
  {
    key: 'disposable_domains',
    kind: 'list',
    placeholder: '"a.example,b.example"',
    item: parseDomain,
    label: 'Extra disposable domains',
    help: "extra domains for this waitlist's disposable blocklist",
  },
  {
    key: 'geo_allow',
    kind: 'list',
    placeholder: '"US,CA"',
    item: parseCountry,
    label: 'Only these countries',
    help: 'only these countries may sign up',
  },
  {
    key: 'geo_deny',
    kind: 'list',
    placeholder: '"RU,KP"',
    item: parseCountry,
    label: 'Not these countries',
    help: 'these countries may not sign up',
  },
  {
    key: 'access_url',
    kind: 'text',
    placeholder: 'https://app.example/welcome',
    parse: parseAccessUrl,
    label: 'Access URL',
    help: "where the admitted mail's {{access_url}} leads: an https URL (default none)",
  },
  {
    key: 'default_lang',
    kind: 'choice',
    values: LANGUAGES,
    placeholder: 'TAG',
    label: 'Default language',
    help: 'language of pages and mails for subscribers who gave none, a tag of docs/languages.md (default en)',
  },
];

/** Splits a list written with commas or line breaks and parses each item; throws on the first bad one. */
export function parseList(field: Extract<SettingField, { kind: 'list' }>, raw: string): string[] {
  const items = raw
    .split(/[,\n]/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
  return [...new Set(items.map(field.item))];
}

/**
 * A waitlist's field definitions (docs/subscribers.md#fields) from parsed JSON, as every door takes
 * them (a file of the command line, the dashboard's editor); throws an error naming the first
 * problem, such as `fields.0.label`.
 */
export function parseFieldDefinitions(input: unknown): FieldDefinition[] {
  // The form description is `{fields}`: parsed as one, a problem is named from `fields` down.
  const parsed = parseWith(FormDescriptionSchema, { fields: input });
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value.fields;
}
