/**
 * Calendar days for the overview's sign-ups per day. A day is a UTC day: the dashboard is read
 * by a team across time zones, and one fixed calendar gives everyone the same bars. Join times
 * are microseconds since the epoch, so the buckets are ranges of them, [start, next start).
 */

const DAY_MS = 86_400_000;

/** The last `count` UTC days up to and including the one of `nowMs`, oldest first. */
export interface DayRange {
  /** `YYYY-MM-DD` of each day. */
  days: string[];
  /**
   * `count + 1` boundaries in microseconds: day `i` holds the join times t with
   * `bounds[i] <= t < bounds[i + 1]`; the last boundary is the start of tomorrow.
   */
  bounds: number[];
}

export function lastDays(nowMs: number, count: number): DayRange {
  if (!Number.isInteger(count) || count < 1) throw new RangeError('count must be a positive integer');
  const tomorrow = Math.floor(nowMs / DAY_MS) * DAY_MS + DAY_MS;
  const first = tomorrow - count * DAY_MS;
  const starts = Array.from({ length: count + 1 }, (_, i) => first + i * DAY_MS);
  return {
    days: starts.slice(0, count).map((ms) => new Date(ms).toISOString().slice(0, 10)),
    bounds: starts.map((ms) => ms * 1000),
  };
}

export interface DayCount {
  day: string;
  count: number;
}

/** Pairs each day with its count; a day the store reported nothing for counts 0. */
export function dayCounts(range: DayRange, counts: readonly number[]): DayCount[] {
  return range.days.map((day, i) => ({ day, count: counts[i] ?? 0 }));
}
