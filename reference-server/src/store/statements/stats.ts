/**
 * The day aggregates (docs/insights.md#stats): read by range, and a view counted. Sign-ups,
 * confirmations, credits and admissions are counted by the schema's triggers, with the write
 * that makes them; views have no row of their own, so they are counted here.
 */
import type { Db } from '../db.js';
import type { DayCounts, Stats } from '../stats.js';

// sum() of PostgreSQL's bigints is a numeric, which its driver hands over as text.
const DAYS = `SELECT day, sum(views) AS views, sum(signups) AS signups, sum(confirmed) AS confirmed,
  sum(referred) AS referred, sum(credits) AS credits, sum(admitted) AS admitted
  FROM daily_counts WHERE waitlist_id = ? AND day BETWEEN ? AND ? GROUP BY day ORDER BY day`;

// A channel whose sign-ups all moved to `referral` (credited later) and that had no views is no
// channel of the range.
const CHANNELS = `SELECT channel, sum(views) AS views, sum(signups) AS signups
  FROM daily_counts WHERE waitlist_id = ? AND day BETWEEN ? AND ?
  GROUP BY channel HAVING sum(views) + sum(signups) > 0
  ORDER BY sum(signups) DESC, sum(views) DESC, channel LIMIT ?`;

const COUNT_VIEW = `INSERT INTO daily_counts AS c (waitlist_id, day, channel, views) VALUES (?, ?, ?, 1)
  ON CONFLICT (waitlist_id, day, channel) DO UPDATE SET views = c.views + 1`;

type Numeric = number | string;
type DayRow = Record<Exclude<keyof DayCounts, 'day'>, Numeric> & { day: Numeric };

export function statsOn(db: Db): Stats {
  return {
    async days(waitlistId, fromDay, toDay) {
      const rows = await db.all<DayRow>(DAYS, [waitlistId, fromDay, toDay]);
      return rows.map((r) => ({
        day: Number(r.day),
        views: Number(r.views),
        signups: Number(r.signups),
        confirmed: Number(r.confirmed),
        referred: Number(r.referred),
        credits: Number(r.credits),
        admitted: Number(r.admitted),
      }));
    },
    async channels(waitlistId, fromDay, toDay, limit) {
      const rows = await db.all<{ channel: string; views: Numeric; signups: Numeric }>(CHANNELS, [
        waitlistId,
        fromDay,
        toDay,
        limit,
      ]);
      return rows.map((r) => ({ channel: r.channel, views: Number(r.views), signups: Number(r.signups) }));
    },
    async countView(waitlistId, day, channel) {
      await db.run(COUNT_VIEW, [waitlistId, day, channel]);
    },
  };
}
