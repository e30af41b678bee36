/**
 * The overview of a waitlist for its operators, the launch's cockpit (docs/insights.md#the-cockpit):
 * the figures the stats endpoint answers for a range of days (app/stats.ts, from the day
 * aggregates), the size of the line and of the admitted list, and the top referrers. Read in one
 * snapshot, so the numbers on one page agree with each other.
 */
import type { Stats } from '@waitlistkit/protocol';
import type { ListedSubscriber, Waitlist } from '../domain/records.js';
import { statsRange } from '../domain/stats.js';
import { type Base, own, type Scope } from './guard.js';
import { invalid, notFound, ok, type Result, refuse } from './refusal.js';
import { statsIn } from './stats.js';

export const TOP_REFERRERS = 10;

export interface WaitlistOverview {
  waitlist: Waitlist;
  /** The range's days (oldest first), channels and totals, as `GET …/stats` answers them. */
  stats: Stats;
  waiting: number;
  admitted: number;
  topReferrers: ListedSubscriber[];
}

/**
 * The overview of a waitlist of the scope's tenant over the days asked for (the last 30 UTC days
 * by default); a range the stats endpoint refuses is refused here in its words, naming `from` or `to`.
 */
export async function waitlistOverview(
  ctx: Base,
  scope: Scope,
  waitlistId: string,
  asked: { from?: string | undefined; to?: string | undefined } = {},
): Promise<Result<WaitlistOverview>> {
  const range = statsRange(asked.from, asked.to, ctx.clock.now());
  return ctx.store.read(async (tx) => {
    const waitlist = own(scope, await tx.waitlists.get(waitlistId));
    if (!waitlist) return refuse(notFound('waitlist', waitlistId));
    if (!range.ok) return refuse(invalid(range.reason, range.field));
    // One after another: a snapshot is one connection, which runs one query at a time anyway
    // (node-postgres deprecates queueing them).
    const stats = await statsIn(tx, waitlist.id, range.value);
    const counts = await tx.subscribers.counts(waitlist.id);
    const topReferrers = await tx.subscribers.topReferrers(waitlist.id, waitlist.settings, TOP_REFERRERS);
    return ok({ waitlist, stats, ...counts, topReferrers });
  });
}
