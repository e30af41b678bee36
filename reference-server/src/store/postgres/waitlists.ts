import { newId } from '../../domain/ids.js';
import { rankKey } from '../../domain/positions.js';
import type { Waitlist } from '../../domain/records.js';
import { settingsFromJson, type WaitlistSettings } from '../../domain/settings.js';
import { isoNow } from '../time.js';
import type { Connection } from './connection.js';

interface Row {
  id: string;
  tenant_id: string;
  name: string;
  archived: boolean;
  settings: string;
  created_at: string;
  updated_at: string;
}

const COLUMNS = 'id, tenant_id, name, archived, settings, created_at, updated_at';

const fromRow = (row: Row): Waitlist => ({ ...row, settings: settingsFromJson(row.settings) });

export async function insertWaitlist(
  db: Connection,
  tenantId: string,
  name: string,
  settings: WaitlistSettings,
  now: number,
): Promise<Waitlist> {
  const at = isoNow(now);
  const waitlist: Waitlist = {
    id: newId('waitlist'),
    tenant_id: tenantId,
    name,
    archived: false,
    settings,
    created_at: at,
    updated_at: at,
  };
  await db.run(
    `INSERT INTO waitlists (id, tenant_id, name, archived, settings, created_at, updated_at)
     VALUES ($1, $2, $3, false, $4, $5, $6)`,
    [waitlist.id, tenantId, name, JSON.stringify(settings), at, at],
  );
  return waitlist;
}

export async function getWaitlist(db: Connection, id: string): Promise<Waitlist | undefined> {
  const row = await db.get<Row>(`SELECT ${COLUMNS} FROM waitlists WHERE id = $1`, [id]);
  return row && fromRow(row);
}

export async function listWaitlists(db: Connection, tenantId: string): Promise<Waitlist[]> {
  const rows = await db.all<Row>(
    `SELECT ${COLUMNS} FROM waitlists WHERE tenant_id = $1 ORDER BY created_at`,
    [tenantId],
  );
  return rows.map(fromRow);
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
  await db.run(
    'UPDATE waitlists SET name = $1, settings = $2, archived = $3, updated_at = $4 WHERE id = $5',
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
  return { ...before, ...after, updated_at: at };
}
