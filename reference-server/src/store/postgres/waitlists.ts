import { rankKey } from '../../domain/positions.js';
import type { Waitlist } from '../../domain/records.js';
import type { WaitlistSettings } from '../../domain/settings.js';
import { isoNow } from '../time.js';
import { newWaitlist, WAITLIST_COLUMNS, type WaitlistRow, waitlistFromRow } from '../waitlist-rows.js';
import type { Connection } from './connection.js';

export async function insertWaitlist(
  db: Connection,
  tenantId: string,
  name: string,
  settings: WaitlistSettings,
  now: number,
): Promise<Waitlist> {
  const waitlist = newWaitlist(tenantId, name, settings, now);
  await db.run(
    `INSERT INTO waitlists (id, tenant_id, name, archived, settings, created_at, updated_at)
     VALUES ($1, $2, $3, false, $4, $5, $6)`,
    [waitlist.id, tenantId, name, JSON.stringify(settings), waitlist.created_at, waitlist.updated_at],
  );
  return waitlist;
}

export async function getWaitlist(db: Connection, id: string): Promise<Waitlist | undefined> {
  const row = await db.get<WaitlistRow>(`SELECT ${WAITLIST_COLUMNS} FROM waitlists WHERE id = $1`, [id]);
  return row && waitlistFromRow(row);
}

export async function listWaitlists(db: Connection, tenantId: string): Promise<Waitlist[]> {
  const rows = await db.all<WaitlistRow>(
    `SELECT ${WAITLIST_COLUMNS} FROM waitlists WHERE tenant_id = $1 ORDER BY created_at`,
    [tenantId],
  );
  return rows.map(waitlistFromRow);
}

/**
 * Writes name and settings; when the boost changes, re-ranks the referrers in the same
 * transaction. The update locks the waitlist's row first, as a sign-up does: no credit made with
 * the old boost lands after the re-ranking.
 */
export async function saveWaitlist(
  db: Connection,
  before: Waitlist,
  after: { name: string; settings: WaitlistSettings; archived: boolean },
  now: number,
): Promise<Waitlist> {
  const at = isoNow(now);
  const saved = await db.get<{ version: number }>(
    `UPDATE waitlists SET name = $1, settings = $2, archived = $3, updated_at = $4, version = version + 1
      WHERE id = $5 RETURNING version`,
    [after.name, JSON.stringify(after.settings), after.archived, at, before.id],
  );
  if (after.settings.referral_boost !== before.settings.referral_boost) {
    // Only referrers' rank keys depend on the boost (everyone else's is their seq); the domain
    // computes them, the statement only stores them.
    const referrers = await db.all<{ id: string; seq: number; referral_count: number }>(
      'SELECT id, seq, referral_count FROM subscribers WHERE waitlist_id = $1 AND referral_count > 0',
      [before.id],
    );
    await db.run(
      `UPDATE subscribers SET rank_key = k.rank_key
         FROM unnest($1::text[], $2::bigint[]) AS k (id, rank_key) WHERE subscribers.id = k.id`,
      [
        referrers.map((r) => r.id),
        referrers.map((r) => rankKey(r.seq, r.referral_count, after.settings.referral_boost)),
      ],
    );
  }
  return { ...before, ...after, updated_at: at, version: saved?.version ?? before.version + 1 };
}
