/**
 * The launch's figures (docs/insights.md#stats): the range of days a request asks for, and the
 * totals and ratios made from the day and channel counts. Pure: the stores only count.
 */

const DAY_MS = 86_400_000;
/** The longest range one request may ask for: a year, leap day included. */
export const MAX_STATS_DAYS = 366;
/** The range when none is given: the last 30 UTC days, today included. */
export const DEFAULT_STATS_DAYS = 30;
/**
 * The channels one answer lists, most sign-ups first. `utm_source` is whatever a link says, so a
 * range can hold thousands (a bot's views each naming a new one); the rest stay in the totals.
 */
export const MAX_STATS_CHANNELS = 50;

export type Checked<T> = { ok: true; value: T } | { ok: false; reason: string; field: 'from' | 'to' };

export interface StatsRange {
  /** `YYYY-MM-DD` of each UTC day, oldest first. */
  days: string[];
  /** Milliseconds of the first day's start, and of the day after the last's. */
  startMs: number;
  endMs: number;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A `YYYY-MM-DD` that is a real calendar day, as the start of that UTC day in milliseconds. */
function dayStart(text: string): number | undefined {
  const m = DATE.exec(text);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(y, mo - 1, d);
  const back = new Date(ms);
  // Date.UTC rolls 30 February into March: a day that does not come back as written is not one.
  return back.getUTCFullYear() === y && back.getUTCMonth() === mo - 1 && back.getUTCDate() === d
    ? ms
    : undefined;
}

/**
 * The days from `from` to `to`, both included. Without `to`, today (UTC); without `from`, the
 * 30 days up to `to`. A date that is not `YYYY-MM-DD`, `from` after `to`, or more than 366 days
 * is refused, naming the parameter.
 */
export function statsRange(
  from: string | undefined,
  to: string | undefined,
  nowMs: number,
): Checked<StatsRange> {
  const bad = (field: 'from' | 'to') => ({
    ok: false as const,
    field,
    reason: `\`${field}\` must be a date written YYYY-MM-DD.`,
  });
  const last = to === undefined ? Math.floor(nowMs / DAY_MS) * DAY_MS : dayStart(to);
  if (last === undefined) return bad('to');
  const first = from === undefined ? last - (DEFAULT_STATS_DAYS - 1) * DAY_MS : dayStart(from);
  if (first === undefined) return bad('from');
  if (first > last) return { ok: false, field: 'from', reason: '`from` must not be after `to`.' };
  const count = (last - first) / DAY_MS + 1;
  if (count > MAX_STATS_DAYS)
    return {
      ok: false,
      field: 'from',
      reason: `The range is ${count} days; at most ${MAX_STATS_DAYS} may be asked at once.`,
    };
  const days = Array.from({ length: count }, (_, i) =>
    new Date(first + i * DAY_MS).toISOString().slice(0, 10),
  );
  return { ok: true, value: { days, startMs: first, endMs: last + DAY_MS } };
}

export interface DayFigures {
  date: string;
  views: number;
  signups: number;
  confirmed: number;
  referred: number;
  admitted: number;
}

export interface StatsTotals {
  views: number;
  signups: number;
  /** Sign-ups per view; null without views. */
  conversion: number | null;
  /** The share of sign-ups credited to a referrer; null without sign-ups. */
  referred_share: number | null;
  /** Referrals credited per sign-up in the range; null without sign-ups. */
  k_factor: number | null;
}

const ratio = (part: number, whole: number) => (whole === 0 ? null : part / whole);

/** Sign-ups per view, of the range, a day or a channel alike; null without views. */
export const conversionOf = (signups: number, views: number): number | null => ratio(signups, views);

/**
 * The totals of a range. `referred` of a day counts the sign-ups of that day credited to a
 * referrer, and `credits` the referral credits given that day (a credit can come days after the
 * sign-up, when its address is confirmed), which k-factor divides by the sign-ups.
 */
export function statsTotals(days: readonly DayFigures[], credits: number): StatsTotals {
  const sum = (key: 'views' | 'signups' | 'referred') => days.reduce((n, d) => n + d[key], 0);
  const views = sum('views');
  const signups = sum('signups');
  return {
    views,
    signups,
    conversion: conversionOf(signups, views),
    referred_share: ratio(sum('referred'), signups),
    k_factor: ratio(credits, signups),
  };
}
