/**
 * The form's words. English is built in; the other languages are files beside the script
 * (src/locales/<tag>.json, docs/languages.md#the-widget), and a page replaces any text, or all.
 */
export const en = {
  label: 'Email address',
  placeholder: 'you@example.com',
  button: 'Join the waitlist',
  checking: 'Checking…',
  /** `{percent}`: progress of the Challenge wait or the Proof of Work, by tens. */
  verifying: 'Verifying… {percent}%',
  success: "You're on the list!",
  /** Replaces `success` when the waitlist confirms addresses. */
  confirm: 'Check your inbox to confirm your email.',
  share: 'Share your link to move up:',
  copy: 'Copy',
  copied: 'Copied!',
  status: 'See your place in line',
  invalidEmail: 'Please enter a valid email address.',
  invalidRequest: 'This sign-up could not be sent. Please check the address.',
  /** At a field of the waitlist's own (a question) left unanswered, or a required box not ticked. */
  required: 'This field is required.',
  /** At a question whose answer the service refused otherwise. */
  invalidAnswer: 'Please check this answer.',
  /** `{seconds}`: counts down to 0. A locale may give it plural forms. */
  rateLimited: 'Too many attempts. Try again in {seconds} s.',
  geoRestricted: 'Sign-ups are not available in your region.',
  notFound: 'This sign-up form is not set up correctly.',
  serverError: 'The server had a problem. Please try again later.',
  networkError: 'Could not reach the server. Check your connection and try again.',
  tooManyRounds: 'We could not verify this sign-up. Please try again.',
  error: 'Something went wrong. Please try again.',
};

/**
 * A text, or its plural forms (`Intl.PluralRules` categories, `other` required) for the number
 * it shows: `{"one": "in {seconds} second", "other": "in {seconds} seconds"}`.
 */
export type Text = string | ({ other: string } & Partial<Record<Intl.LDMLPluralRule, string>>);
export type LocaleKey = keyof typeof en;
export type Locale = Record<LocaleKey, Text>;

const MAX_TEXT_LENGTH = 500;
const PLURALS = ['zero', 'one', 'two', 'few', 'many', 'other'];

const isText = (value: unknown): value is string =>
  typeof value === 'string' && value.length <= MAX_TEXT_LENGTH;

/** A text, or plural forms: known categories only, each a text, `other` among them. */
export const validText = (value: unknown): value is Text =>
  isText(value) ||
  (typeof value === 'object' &&
    value !== null &&
    isText((value as { other?: unknown }).other) &&
    Object.entries(value).every(([form, text]) => PLURALS.includes(form) && isText(text)));

/**
 * `base` with the overrides that are known keys with texts; the rest is reported (to the console
 * by the caller) and ignored.
 */
export function mergeLocale<T extends Partial<Locale>>(base: T, overrides: unknown, problems: string[]): T {
  const merged = { ...base };
  if (overrides === undefined || overrides === null) return merged;
  if (typeof overrides !== 'object') {
    problems.push('locale must be an object of texts.');
    return merged;
  }
  for (const [key, value] of Object.entries(overrides)) {
    if (!Object.hasOwn(en, key)) problems.push(`locale has an unknown key "${key.slice(0, 40)}".`);
    else if (!validText(value)) {
      problems.push(`locale.${key} must be a text of at most ${MAX_TEXT_LENGTH} characters.`);
    } else merged[key as LocaleKey] = value;
  }
  return merged;
}

/**
 * Fills `{name}` placeholders with numbers written the language's way, choosing the plural form
 * by the first of them.
 */
export function format(text: Text, values: Record<string, number>, lang = 'en'): string {
  const count = Object.values(values)[0] ?? 0;
  const template =
    typeof text === 'string' ? text : (text[new Intl.PluralRules(lang).select(count)] ?? text.other);
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in values ? new Intl.NumberFormat(lang).format(values[name] as number) : whole,
  );
}
