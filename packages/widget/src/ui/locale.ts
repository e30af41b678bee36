/** The form's words. English is built in; a page replaces any of them, or all (a locale). */
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
  /** `{seconds}`: counts down to 0. */
  rateLimited: 'Too many attempts. Try again in {seconds} s.',
  geoRestricted: 'Sign-ups are not available in your region.',
  notFound: 'This sign-up form is not set up correctly.',
  serverError: 'The server had a problem. Please try again later.',
  networkError: 'Could not reach the server. Check your connection and try again.',
  tooManyRounds: 'We could not verify this sign-up. Please try again.',
  error: 'Something went wrong. Please try again.',
};

export type Locale = typeof en;
export type LocaleKey = keyof Locale;

const MAX_TEXT_LENGTH = 500;

/**
 * `base` with the overrides that are known keys with text values; the rest is reported (to
 * the console by the caller) and ignored.
 */
export function mergeLocale(base: Locale, overrides: unknown, problems: string[]): Locale {
  const merged = { ...base };
  if (overrides === undefined || overrides === null) return merged;
  if (typeof overrides !== 'object') {
    problems.push('locale must be an object of texts.');
    return merged;
  }
  for (const [key, value] of Object.entries(overrides)) {
    if (!Object.hasOwn(base, key)) problems.push(`locale has an unknown key "${key.slice(0, 40)}".`);
    else if (typeof value !== 'string' || value.length > MAX_TEXT_LENGTH) {
      problems.push(`locale.${key} must be a text of at most ${MAX_TEXT_LENGTH} characters.`);
    } else merged[key as LocaleKey] = value;
  }
  return merged;
}

/** Fills `{name}` placeholders. */
export function format(template: string, values: Record<string, number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}
