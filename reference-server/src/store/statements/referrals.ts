import type { Credit } from '../../domain/referrals.js';
import type { Db } from '../db.js';
import { type EventSubject, referralCredited } from './events.js';
import { addEvent } from './outbox.js';

/** Credits a referral: the referrer's count and rank move, and the event is recorded with them. */
export async function applyCredit(
  db: Db,
  credit: Credit,
  event: EventSubject & { atMs: number },
): Promise<void> {
  await db.run('UPDATE subscribers SET referral_count = ?, rank_key = ? WHERE id = ?', [
    credit.referralCount,
    credit.rankKey,
    credit.referrerId,
  ]);
  // The referred sign-up's channel is `referral` from now on (docs/subscribers.md#attribution).
  await db.run('UPDATE subscribers SET credited = true WHERE id = ?', [event.subscriberId]);
  await addEvent(db, referralCredited(credit, event), event.atMs);
}
