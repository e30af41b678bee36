/**
 * Where a sign-up came from (docs/subscribers.md#attribution): the `source` both create endpoints
 * take, the page addresses kept as origin and path only, and the `channel` derived from it. The
 * widget trims what it sends with the same function the server keeps it with, so a query string
 * (which may carry an address or a token) never leaves the visitor's page.
 */
import * as z from 'zod/mini';

export const SOURCE_KEYS = [
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
  'referrer',
  'landing',
] as const;
export type SourceKey = (typeof SOURCE_KEYS)[number];
export const SOURCE_VALUE_MAX = 200;

/** Only the keys present; each at most 200 characters. */
export type Source = Partial<Record<SourceKey, string>>;

const value = z.optional(z.string().check(z.maxLength(SOURCE_VALUE_MAX)));
const page = z.optional(
  z.string().check(
    z.maxLength(SOURCE_VALUE_MAX),
    z.refine((url) => pageAddress(url) !== undefined, 'must be an http or https URL'),
  ),
);

export const SourceSchema = z.strictObject({
  utm_source: value,
  utm_medium: value,
  utm_campaign: value,
  utm_term: value,
  utm_content: value,
  referrer: page,
  landing: page,
});

/** An http(s) address as origin + path (query, fragment and credentials dropped); else undefined. */
export function pageAddress(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return undefined;
  return parsed.origin + parsed.pathname;
}

/** `source` as it is kept: its page addresses as origin + path, empty values left out. */
export function keptSource(source: Source): Source {
  const kept: Source = {};
  for (const key of SOURCE_KEYS) {
    const given = source[key];
    const value = given && (key === 'referrer' || key === 'landing' ? pageAddress(given) : given);
    if (value) kept[key] = value;
  }
  return kept;
}

/** The host of an http(s) address; parsed once, as a sign-up's hot path derives its channel. */
function hostOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.host : undefined;
}

/**
 * The channel of a sign-up: `referral` when a referrer was credited, else its `utm_source`, else
 * the referring page's host when it is not the landing page's own, else `direct`.
 */
export function channelOf(source: Source, credited: boolean): string {
  if (credited) return 'referral';
  if (source.utm_source) return source.utm_source;
  const referrer = hostOf(source.referrer);
  const landing = hostOf(source.landing);
  return referrer !== undefined && referrer !== landing ? referrer : 'direct';
}
