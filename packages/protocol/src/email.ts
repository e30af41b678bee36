/**
 * Email syntax and normalisation, docs/subscribers.md#email-addresses.
 *
 * Accepted: an RFC 5322 addr-spec with a dot-atom or quoted local part (ASCII) and a domain
 * of at least two labels, possibly internationalised. No display names, comments, obsolete
 * forms or domain literals. The domain must also be a valid DNS host name once converted to
 * ASCII (letters, digits, hyphens; labels of 1..63), since no other domain can receive mail.
 * Limits: local part ≤ 64 characters, whole address ≤ 254 in its ASCII form (what SMTP carries).
 *
 * No library: the contract's grammar is a strict subset of RFC 5322 that a general parser would
 * have to be wrapped to enforce, and IDN conversion is already in every runtime via WHATWG URL.
 */

export const EMAIL_MAX_LENGTH = 254;
export const EMAIL_LOCAL_MAX_LENGTH = 64;

export type EmailCheck =
  | {
      ok: true;
      /** Trimmed, case and Unicode preserved: what is stored and shown. */
      email: string;
      /** Trimmed, domain in ASCII (punycode), lower-cased: the key duplicates are found by. */
      normalized: string;
      /** The domain in ASCII, lower-cased: what the MX check and blocklist look at. */
      domain: string;
    }
  | { ok: false; reason: string };

const ATEXT = "A-Za-z0-9!#$%&'*+\\-/=?^_`{|}~";
const DOT_ATOM = new RegExp(`^[${ATEXT}]+(?:\\.[${ATEXT}]+)*$`);
// qtext, white space, or a quoted-pair; the classes are disjoint, so matching stays linear.
const QUOTED_STRING = /^"(?:[\t\x20\x21\x23-\x5b\x5d-\x7e]|\\[\t\x20-\x7e])*"$/;
const ASCII_LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
const RAW_LABEL = /^[\p{L}\p{M}\p{N}-]+$/u;
const NON_ASCII = /[^\p{ASCII}]/u;
const ALL_DIGITS = /^[0-9]+$/;
// Nothing longer can become valid by trimming in a way worth the regex work.
const HARD_INPUT_LIMIT = 1024;

function fail(reason: string): EmailCheck {
  return { ok: false, reason };
}

function domainToAscii(raw: string): string | undefined {
  if (!NON_ASCII.test(raw)) return raw.toLowerCase();
  try {
    // WHATWG URL applies UTS #46 (the browsers' IDNA processing) in every runtime we target.
    return new URL(`http://${raw}/`).hostname;
  } catch {
    return undefined;
  }
}

export function checkEmail(input: unknown): EmailCheck {
  if (typeof input !== 'string') return fail('The email address must be a string.');
  if (input.length > HARD_INPUT_LIMIT * 4) return fail('The email address is too long.');
  const email = input.trim();
  if (email === '') return fail('The email address is empty.');
  if (email.length > HARD_INPUT_LIMIT) return fail('The email address is too long.');
  const at = email.lastIndexOf('@');
  if (at < 0) return fail('The email address has no "@".');
  const local = email.slice(0, at);
  const rawDomain = email.slice(at + 1);
  if (local === '') return fail('The part before "@" is empty.');
  if (!DOT_ATOM.test(local) && !QUOTED_STRING.test(local)) {
    return fail('The part before "@" is not a valid local part.');
  }
  if (local.length > EMAIL_LOCAL_MAX_LENGTH) {
    return fail(`The part before "@" is longer than ${EMAIL_LOCAL_MAX_LENGTH} characters.`);
  }
  const rawLabels = rawDomain.split('.');
  if (rawLabels.length < 2) return fail('The domain needs at least one dot.');
  if (rawLabels.some((label) => !RAW_LABEL.test(label))) {
    return fail('The domain is not a valid host name.');
  }
  const domain = domainToAscii(rawDomain);
  const labels = domain?.split('.');
  if (
    domain === undefined ||
    labels === undefined ||
    labels.length !== rawLabels.length ||
    labels.some((label) => label.length > 63 || !ASCII_LABEL.test(label)) ||
    ALL_DIGITS.test(labels[labels.length - 1] as string)
  ) {
    return fail('The domain is not a valid host name.');
  }
  const normalized = `${local.toLowerCase()}@${domain}`;
  if (normalized.length > EMAIL_MAX_LENGTH) {
    return fail(`The email address is longer than ${EMAIL_MAX_LENGTH} characters.`);
  }
  return { ok: true, email, normalized, domain };
}

export function isValidEmail(input: unknown): boolean {
  return checkEmail(input).ok;
}

/** The normalised form used to find duplicates, or `undefined` when the address is invalid. */
export function normalizeEmail(input: unknown): string | undefined {
  const check = checkEmail(input);
  return check.ok ? check.normalized : undefined;
}
