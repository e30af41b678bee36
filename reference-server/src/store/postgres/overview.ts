/**
 * What the overview of a waitlist counts: the line's size, sign-ups in ranges of join times, and
 * the top referrers, each from a range of an index, as in the SQLite adapter.
 */
import type { ListedSubscriber } from '../../domain/records.js';
import type { WaitlistSettings } from '../../domain/settings.js';
import { countEach } from '../range-counts.js';
import type { Connection } from './connection.js';
import { subscribersByIds } from './line.js';

/** Waiting and admitted, from the waitlist's counters: no row is counted. */
export async function lineCounts(
  db: Connection,
  waitlistId: string,
): Promise<{ waiting: number; admitted: number }> {
  const row = await db.get<{ waiting: number; admitted: number }>(
    `SELECT last_seq - admitted_count - erased_count AS waiting, admitted_count AS admitted
       FROM waitlists WHERE id = $1`,
    [waitlistId],
  );
  return { waiting: row?.waiting ?? 0, admitted: row?.admitted ?? 0 };
}

/** For each range [bounds[i], bounds[i + 1]) of join times, how many of the waitlist's subscribers joined in it. */
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
        `SELECT count(*) FROM subscribers
           WHERE waitlist_id = $1 AND joined_us >= $${i + 2} AND joined_us < $${i + 3}`,
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
    `SELECT id FROM subscribers
      WHERE waitlist_id = $1 AND referral_count > 0 ORDER BY referral_count DESC, seq LIMIT $2`,
    [waitlistId, limit],
  );
  return subscribersByIds(
    db,
    waitlistId,
    settings,
    rows.map((r) => r.id),
  );
}
