/**
 * Letting people in and erasing them (contract §12), inside the caller's transaction and under
 * the waitlist's row lock (subscribers.ts), so two admissions, in one process or two, are
 * applied one after the other: never the same person twice, admission times strictly increasing.
 */
import type { Admission, ListedSubscriber } from '../../domain/records.js';
import type { WaitlistSettings } from '../../domain/settings.js';
import type { Connection } from './connection.js';
import { forgetAnswersNaming } from './idempotency.js';
import { subscribersByIds } from './line.js';
import { forgetDeliveriesNaming } from './outbox.js';
import { lockWaitlist } from './subscribers.js';

const ORDER = 'ORDER BY rank_key, referral_count DESC, seq';

/** Admits the first `count` waiting subscribers by position, or the waiting ones among `subscriberIds`. */
export async function admit(
  db: Connection,
  waitlistId: string,
  settings: WaitlistSettings,
  admission: Admission,
  nowUs: number,
): Promise<ListedSubscriber[]> {
  await lockWaitlist(db, waitlistId);
  const chosen =
    'count' in admission
      ? await db.all<{ id: string }>(
          `SELECT id FROM subscribers WHERE waitlist_id = $1 AND admitted_us IS NULL ${ORDER} LIMIT $2`,
          [waitlistId, admission.count],
        )
      : await db.all<{ id: string }>(
          `SELECT id FROM subscribers
            WHERE waitlist_id = $1 AND admitted_us IS NULL AND id = ANY ($2::text[]) ${ORDER}`,
          [waitlistId, admission.subscriberIds],
        );
  if (chosen.length === 0) return [];
  const ids = chosen.map((r) => r.id);
  // Admission times strictly increase, in line order: "newest admission first" is well defined.
  const last = await db.get<{ us: number | null }>(
    'SELECT max(admitted_us) AS us FROM subscribers WHERE waitlist_id = $1 AND admitted_us IS NOT NULL',
    [waitlistId],
  );
  const start = Math.max(nowUs, (last?.us ?? 0) + 1);
  await db.run(
    `UPDATE subscribers SET admitted_us = $2::bigint + j.n - 1
       FROM unnest($1::text[]) WITH ORDINALITY AS j (id, n) WHERE subscribers.id = j.id`,
    [ids, start],
  );
  await db.run('UPDATE waitlists SET admitted_count = admitted_count + $1 WHERE id = $2', [
    ids.length,
    waitlistId,
  ]);
  return subscribersByIds(db, waitlistId, settings, ids);
}

/**
 * Erases a subscriber of the waitlist: the row goes, with its email, codes and tokens; its seq
 * stays behind as a bare number so join numbers are never given again; whoever it referred
 * keeps their place, whoever referred it keeps the credit. False when there is no such row.
 */
export async function erase(db: Connection, waitlistId: string, id: string): Promise<boolean> {
  await lockWaitlist(db, waitlistId);
  const row = await db.get<{ seq: number; admitted_us: number | null }>(
    'SELECT seq, admitted_us FROM subscribers WHERE id = $1 AND waitlist_id = $2',
    [id, waitlistId],
  );
  if (!row) return false;
  await db.run('UPDATE subscribers SET referred_by = NULL WHERE referred_by = $1', [id]);
  await db.run('DELETE FROM subscribers WHERE id = $1', [id]);
  await forgetAnswersNaming(db, id);
  await forgetDeliveriesNaming(db, id);
  await db.run('INSERT INTO erased_seqs (waitlist_id, seq) VALUES ($1, $2)', [waitlistId, row.seq]);
  await db.run(
    'UPDATE waitlists SET erased_count = erased_count + 1, admitted_count = admitted_count - $1 WHERE id = $2',
    [row.admitted_us === null ? 0 : 1, waitlistId],
  );
  return true;
}
