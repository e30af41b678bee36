/**
 * The launch's figures (docs/insights.md#stats): a range of UTC days read from the day aggregates
 * in one snapshot, every day of the range present (0 where nothing was counted), and the totals
 * domain/stats.ts makes of them. The API, the command line and the dashboard answer with this.
 */
import type { Stats } from '@waitlistkit/protocol';
import { MAX_STATS_CHANNELS, type StatsRange, statsRange, statsTotals } from '../domain/stats.js';
import type { Repositories, Store } from '../store/store.js';
import { type Base, own, type Scope } from './guard.js';
import { invalid, notFound, ok, type Result, refuse } from './refusal.js';

const DAY_MS = 86_400_000;

/** The figures of `range` on the waitlist, read in one snapshot so days, channels and totals agree. */
export function readStats(store: Store, waitlistId: string, range: StatsRange): Promise<Stats> {
  return store.read((tx) => statsIn(tx, waitlistId, range));
}

/** The figures as `readStats` makes them, inside a snapshot the caller holds (the dashboard's overview). */
export async function statsIn(
  tx: Pick<Repositories, 'stats'>,
  waitlistId: string,
  range: StatsRange,
): Promise<Stats> {
  const first = range.startMs / DAY_MS;
  const last = range.endMs / DAY_MS - 1;
  const counted = await tx.stats.days(waitlistId, first, last);
  const channels = await tx.stats.channels(waitlistId, first, last, MAX_STATS_CHANNELS);
  const byDay = new Map(counted.map((d) => [d.day, d]));
  const days = range.days.map((date, i) => {
    const d = byDay.get(first + i);
    return {
      date,
      views: d?.views ?? 0,
      signups: d?.signups ?? 0,
      confirmed: d?.confirmed ?? 0,
      referred: d?.referred ?? 0,
      admitted: d?.admitted ?? 0,
    };
  });
  const credits = counted.reduce((n, d) => n + d.credits, 0);
  return { days, channels, totals: statsTotals(days, credits) };
}

/** The figures as operators ask for them: a waitlist of their tenant, archived ones included. */
export class Insights {
  constructor(private readonly ctx: Base) {}

  async stats(
    scope: Scope,
    waitlistId: string,
    asked: { from?: string | undefined; to?: string | undefined },
  ): Promise<Result<Stats>> {
    const waitlist = own(scope, await this.ctx.store.reads.waitlists.get(waitlistId));
    if (!waitlist) return refuse(notFound('waitlist', waitlistId));
    const range = statsRange(asked.from, asked.to, this.ctx.clock.now());
    if (!range.ok) return refuse(invalid(range.reason, range.field));
    return ok(await readStats(this.ctx.store, waitlist.id, range.value));
  }
}
