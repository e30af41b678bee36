/**
 * The subscribers' repository on a connection: what each store writes its own way comes from its
 * `LineEngine` (sign-up, the line's size and positions, pages and search), the rest is written
 * once here and in line.ts and lifecycle.ts. And the dashboard's reads of referrals, each a range
 * of an index, so the cost follows what is shown, not the size of the waitlist.
 */
import type { Db } from '../db.js';
import { type Dialect, perDialect } from '../dialect.js';
import type { Subscribers } from '../store.js';
import { admit, erase } from './lifecycle.js';
import { findByStatusToken, getSubscriber, type LineEngine, listPage, subscribersByIds } from './line.js';

const TOP_REFERRERS = perDialect(
  (d) => `SELECT id FROM subscribers${d.indexedBy('subscribers_top_referrers')}
  WHERE waitlist_id = ? AND referral_count > 0 ORDER BY referral_count DESC, seq LIMIT ?`,
);

// By the referrer alone: a referrer's id names one waitlist, and leaving waitlist_id out keeps the
// count inside the index. Credited only: a referee awaiting confirmation has not counted yet.
const REFERRED_BY = perDialect(
  (d) => `SELECT id FROM subscribers${d.indexedBy('subscribers_referred_by')}
  WHERE referred_by = ? AND credited = ${d.true} ORDER BY seq DESC LIMIT ?`,
);
const REFERRED_COUNT = perDialect(
  (d) => `SELECT count(*) AS n FROM subscribers${d.indexedBy('subscribers_referred_by')}
  WHERE referred_by = ? AND credited = ${d.true}`,
);

export function subscribersOn<C extends Db>(db: C, d: Dialect, line: LineEngine<C>): Subscribers {
  return {
    signUp: (input, nowUs) => line.signUp(db, input, nowUs),
    list: (waitlistId, settings, query) => listPage(db, d, line, waitlistId, settings, query),
    get: (waitlistId, settings, id) => getSubscriber(db, line, waitlistId, settings, id),
    byIds: (waitlistId, settings, ids) => subscribersByIds(db, d, line, waitlistId, settings, ids),
    idByEmail: async (waitlistId, emailNorm) =>
      (
        await db.get<{ id: string }>('SELECT id FROM subscribers WHERE waitlist_id = ? AND email_norm = ?', [
          waitlistId,
          emailNorm,
        ])
      )?.id,
    async referrerEmails(waitlistId, ids) {
      const rows = await db.all<{ id: string; email: string }>(
        `SELECT s.id, r.email FROM subscribers AS s JOIN subscribers AS r ON r.id = s.referred_by
          WHERE s.waitlist_id = ? AND ${d.anyOf('s.id')}`,
        [waitlistId, ids],
      );
      return new Map(rows.map((r) => [r.id, r.email]));
    },
    byStatusToken: (token) => findByStatusToken(db, line, token),
    admit: (waitlistId, settings, admission, nowUs) =>
      admit(db, d, line, waitlistId, settings, admission, nowUs),
    erase: (waitlistId, id) => erase(db, d, waitlistId, id),
    // From the join numbers and the waitlist's counters: no row is counted.
    async counts(waitlistId) {
      const size = await line.size(db, waitlistId);
      return { waiting: size.joined - size.removed, admitted: size.admitted };
    },
    async topReferrers(waitlistId, settings, limit) {
      const rows = await db.all<{ id: string }>(TOP_REFERRERS(d), [waitlistId, limit]);
      return subscribersByIds(
        db,
        d,
        line,
        waitlistId,
        settings,
        rows.map((r) => r.id),
      );
    },
    async referredBy(waitlistId, settings, referrerId, limit) {
      const rows = await db.all<{ id: string }>(REFERRED_BY(d), [referrerId, limit]);
      const counted = await db.get<{ n: number | string }>(REFERRED_COUNT(d), [referrerId]);
      const ids = rows.map((r) => r.id);
      return {
        items: await subscribersByIds(db, d, line, waitlistId, settings, ids),
        total: Number(counted?.n ?? 0),
      };
    },
  };
}
