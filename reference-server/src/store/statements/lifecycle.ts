/**
 * Letting people in and erasing them (docs/subscribers.md#lifecycle), inside the caller's write and, where
 * writers run at once, under the waitlist's row lock (the one a sign-up takes): two admissions,
 * in one process or two, are applied one after the other, never the same person twice, and
 * admission times strictly increase.
 */
import type { Admission, ListedSubscriber } from '../../domain/records.js';
import type { WaitlistSettings } from '../../domain/settings.js';
import type { Db } from '../db.js';
import { type Dialect, perDialect } from '../dialect.js';
import { forgetAnswersNaming } from './idempotency.js';
import { type LineEngine, subscribersByIds } from './line.js';
import { LINE_ORDER } from './line-rows.js';
import { lockRow } from './locks.js';
import { forgetDeliveriesNaming } from './outbox.js';

const FIRST_WAITING = perDialect(
  (d) => `SELECT id FROM subscribers${d.indexedBy('subscribers_line')}
  WHERE waitlist_id = ? AND admitted_us IS NULL ${LINE_ORDER} LIMIT ?`,
);

/**
 * The waiting among these ids, in line order (parameters: the waitlist, the ids), looked up by
 * primary key and sorted, not found by walking the waitlist's whole line in order.
 */
export const WAITING_BY_IDS = perDialect(
  (d) => `SELECT id FROM subscribers
  WHERE ${d.unindexed('waitlist_id')} = ? AND admitted_us IS NULL AND ${d.anyOf('id')} ${LINE_ORDER}`,
);

/** Each id's admission time is `?1` plus its place among them. */
const ADMIT = perDialect(
  (d) => `UPDATE subscribers SET admitted_us = CAST(? AS BIGINT) + j.n
  FROM ${d.rows('j', { id: 'text', n: 'bigint' })} WHERE subscribers.id = j.id`,
);

/** Admits the first `count` waiting subscribers by position, or the waiting ones among `subscriberIds`. */
export async function admit<C extends Db>(
  db: C,
  d: Dialect,
  line: LineEngine<C>,
  waitlistId: string,
  settings: WaitlistSettings,
  admission: Admission,
  nowUs: number,
): Promise<ListedSubscriber[]> {
  await lockRow(db, d, 'waitlists', waitlistId);
  const chosen =
    'count' in admission
      ? await db.all<{ id: string }>(FIRST_WAITING(d), [waitlistId, admission.count])
      : await db.all<{ id: string }>(WAITING_BY_IDS(d), [waitlistId, admission.subscriberIds]);
  if (chosen.length === 0) return [];
  const ids = chosen.map((r) => r.id);
  // Admission times strictly increase, in line order: "newest admission first" is well defined.
  const last = await db.get<{ us: number | null }>(
    'SELECT max(admitted_us) AS us FROM subscribers WHERE waitlist_id = ? AND admitted_us IS NOT NULL',
    [waitlistId],
  );
  const start = Math.max(nowUs, (last?.us ?? 0) + 1);
  await db.run(ADMIT(d), [start, JSON.stringify(ids.map((id, i) => [id, i]))]);
  await db.run('UPDATE waitlists SET admitted_count = admitted_count + ? WHERE id = ?', [
    ids.length,
    waitlistId,
  ]);
  return subscribersByIds(db, d, line, waitlistId, settings, ids);
}

/**
 * Erases a subscriber of the waitlist: the row goes, with its email, codes and tokens; its seq
 * stays behind as a bare number so join numbers are never given again; whoever it referred
 * keeps their place, whoever referred it keeps the credit. False when there is no such row.
 */
export async function erase(db: Db, d: Dialect, waitlistId: string, id: string): Promise<boolean> {
  await lockRow(db, d, 'waitlists', waitlistId);
  const row = await db.get<{ seq: number; admitted_us: number | null }>(
    'SELECT seq, admitted_us FROM subscribers WHERE id = ? AND waitlist_id = ?',
    [id, waitlistId],
  );
  if (!row) return false;
  await db.run('UPDATE subscribers SET referred_by = NULL WHERE referred_by = ?', [id]);
  await db.run('DELETE FROM subscribers WHERE id = ?', [id]);
  await forgetAnswersNaming(db, d, id);
  await forgetDeliveriesNaming(db, id);
  await db.run('INSERT INTO erased_seqs (waitlist_id, seq) VALUES (?, ?)', [waitlistId, row.seq]);
  await db.run(
    'UPDATE waitlists SET erased_count = erased_count + 1, admitted_count = admitted_count - ? WHERE id = ?',
    [row.admitted_us === null ? 0 : 1, waitlistId],
  );
  return true;
}
