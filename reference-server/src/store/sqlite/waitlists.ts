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
    'INSERT INTO waitlists (id, tenant_id, name, archived, settings, created_at, updated_at) VALUES (?, ?, ?, 0, ?, ?, ?)',
    [waitlist.id, tenantId, name, JSON.stringify(settings), waitlist.created_at, waitlist.updated_at],
  );
  return waitlist;
}

export async function getWaitlist(db: Connection, id: string): Promise<Waitlist | undefined> {
  const row = await db.get<WaitlistRow>(`SELECT ${WAITLIST_COLUMNS} FROM waitlists WHERE id = ?`, [id]);
  return row && waitlistFromRow(row);
}

export async function listWaitlists(db: Connection, tenantId: string): Promise<Waitlist[]> {
  const rows = await db.all<WaitlistRow>(
    `SELECT ${WAITLIST_COLUMNS} FROM waitlists WHERE tenant_id = ? ORDER BY created_at`,
    [tenantId],
  );
  return rows.map(waitlistFromRow);
}

/** Writes name and settings; when the boost changes, re-ranks the referrers in the same transaction. */
export async function saveWaitlist(
  db: Connection,
  before: Waitlist,
  after: { name: string; settings: WaitlistSettings; archived: boolean },
  now: number,
): Promise<Waitlist> {
  const at = isoNow(now);
  const saved = await db.get<{ version: number }>(
    'UPDATE waitlists SET name = ?, settings = ?, archived = ?, updated_at = ?, version = version + 1 WHERE id = ? RETURNING version',
    [after.name, JSON.stringify(after.settings), after.archived ? 1 : 0, at, before.id],
  );
  if (after.settings.referral_boost !== before.settings.referral_boost) {
    // Only referrers' rank keys depend on the boost (everyone else's is their seq); the domain
    // computes them, the statement only stores them.
    const referrers = await db.all<{ id: string; seq: number; referral_count: number }>(
      'SELECT id, seq, referral_count FROM subscribers WHERE waitlist_id = ? AND referral_count > 0',
      [before.id],
    );
    const keys = referrers.map((r) => [
      r.id,
      rankKey(r.seq, r.referral_count, after.settings.referral_boost),
    ]);
    await db.run(
      `UPDATE subscribers SET rank_key = k.value ->> 1 FROM json_each(?) AS k WHERE subscribers.id = k.value ->> 0`,
      [JSON.stringify(keys)],
    );
  }
  return { ...before, ...after, updated_at: at, version: saved?.version ?? before.version + 1 };
}
