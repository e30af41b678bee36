/** What the store keeps of the launch's figures (docs/insights.md#stats): counters per waitlist, UTC day and channel. */

/** One UTC day's counters (days since 1970-01-01), summed over its channels. */
export interface DayCounts {
  day: number;
  views: number;
  signups: number;
  confirmed: number;
  referred: number;
  credits: number;
  admitted: number;
}

/** The day aggregates of docs/insights.md#stats; the days are UTC days since 1970-01-01, both bounds included. */
export interface Stats {
  /** The days of the range that counted anything, oldest first. */
  days(waitlistId: string, fromDay: number, toDay: number): Promise<DayCounts[]>;
  /** Views and sign-ups per channel over the range, the `limit` with most sign-ups, most first. */
  channels(
    waitlistId: string,
    fromDay: number,
    toDay: number,
    limit: number,
  ): Promise<{ channel: string; views: number; signups: number }[]>;
  countView(waitlistId: string, day: number, channel: string): Promise<void>;
}
