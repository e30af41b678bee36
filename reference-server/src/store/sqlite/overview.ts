/**
 * What the overview of a waitlist counts: the line's size, sign-ups in ranges of join times, and
 * the top referrers. Each reads a range of an index (migration 5), so the cost follows the range
 * asked for, not the size of the waitlist.
 */
import type { ListedSubscriber } from '../../domain/records.js';
import type { WaitlistSettings } from '../../domain/settings.js';
import { countEach } from '../range-counts.js';
import type { Connection } from './connection.js';
import { subscribersByIds } from './line.js';
import { lastSeq } from './subscribers.js';

/** Waiting and admitted, from the join numbers and the waitlist's counters: no row is counted. */
export async function lineCounts(
  db: Connection,
  waitlistId: string,
): Promise<{ waiting: number; admitted: number }> {
  const row = await db.get<{ waiting: number; admitted: number }>(
    `SELECT ${lastSeq('?1')} - w.admitted_count - w.erased_count AS waiting, w.admitted_count AS admitted
       FROM waitlists w WHERE w.id = ?1`,
    [waitlistId],
  );
  return { waiting: row?.waiting ?? 0, admitted: row?.admitted ?? 0 };
}

/**
 * For each range [bounds[i], bounds[i + 1]) of join times, how many of the waitlist's subscribers
 * (waiting or admitted; erased ones are gone) joined in it: one statement, one index range each.
 */
export async function joinedBetween(
  db: Connection,
  waitlistId: string,
  bounds: readonly number[],
): Promise<number[]> {
  if (bounds.length < 2) return [];
  return countEach(
    db,
    bounds.slice(1).map(
      (_, i) =>
        `SELECT count(*) FROM subscribers INDEXED BY subscribers_joined
           WHERE waitlist_id = ?1 AND joined_us >= ?${i + 2} AND joined_us < ?${i + 3}`,
    ),
    [waitlistId, ...bounds],
  );
}

/** The `limit` subscribers with the most credited referrals, most first; on a tie, who joined first. */
export async function topReferrers(
  db: Connection,
  waitlistId: string,
  settings: WaitlistSettings,
  limit: number,
): Promise<ListedSubscriber[]> {
  const rows = await db.all<{ id: string }>(
    `SELECT id FROM subscribers INDEXED BY subscribers_top_referrers
      WHERE waitlist_id = ? AND referral_count > 0 ORDER BY referral_count DESC, seq LIMIT ?`,
    [waitlistId, limit],
  );
  return subscribersByIds(
    db,
    waitlistId,
    settings,
    rows.map((r) => r.id),
  );
}
