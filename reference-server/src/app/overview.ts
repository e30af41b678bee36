/**
 * The overview of a waitlist for its operators: sign-ups per UTC day over the last 30 days, the
 * size of the line and of the admitted list, and the top referrers. Read in one snapshot, so the
 * numbers on one page agree with each other.
 */
import type { Clock } from '../adapters/clock.js';
import { type DayCount, dayCounts, lastDays } from '../domain/days.js';
import type { ListedSubscriber, Waitlist } from '../domain/records.js';
import type { Store } from '../store/store.js';

export const OVERVIEW_DAYS = 30;
export const TOP_REFERRERS = 10;

export interface WaitlistOverview {
  waitlist: Waitlist;
  /** Oldest first, today last; erased subscribers are not counted (nothing of them is kept). */
  days: DayCount[];
  waiting: number;
  admitted: number;
  topReferrers: ListedSubscriber[];
}

/** The overview of a waitlist of the tenant; undefined when it is missing or another tenant's. */
export function waitlistOverview(
  ctx: { store: Store; clock: Clock },
  tenantId: string,
  waitlistId: string,
): Promise<WaitlistOverview | undefined> {
  const range = lastDays(ctx.clock.now(), OVERVIEW_DAYS);
  return ctx.store.read(async (tx) => {
    const waitlist = await tx.waitlists.get(waitlistId);
    if (!waitlist || waitlist.tenant_id !== tenantId) return undefined;
    // One after another: a snapshot is one connection, which runs one query at a time anyway
    // (node-postgres deprecates queueing them).
    const counts = await tx.subscribers.counts(waitlist.id);
    const joined = await tx.subscribers.joinedBetween(waitlist.id, range.bounds);
    const topReferrers = await tx.subscribers.topReferrers(waitlist.id, waitlist.settings, TOP_REFERRERS);
    return { waitlist, days: dayCounts(range, joined), ...counts, topReferrers };
  });
}
