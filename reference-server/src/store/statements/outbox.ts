/**
 * The outbox's tables (docs/webhooks.md#the-outbox): events recorded in the transaction of the change that
 * caused them, deliveries made from them per endpoint, and every attempt. Several servers may
 * share them: an event becomes deliveries once (createDeliveries marks it first, and a second
 * marker finds it marked), and a due delivery is taken by one worker at a time through a lease,
 * so each attempt is made once.
 */
import type { Db } from '../db.js';
import { type Dialect, perDialect } from '../dialect.js';
import type { ClaimedDelivery, DeliveryRow, DueDelivery, NewEvent, Outbox, StoredEvent } from '../outbox.js';
import { isoNow } from '../time.js';

/**
 * Only an event a live endpoint wants is written, by the rule of domain/webhook-routing.ts: for
 * the others nothing is (the sign-up's own event is the schema's trigger, by the same rule).
 * `instr` is SQLite's; the PostgreSQL schema defines it too.
 */
const ADD = `INSERT INTO events (message_id, tenant_id, waitlist_id, type, subject_id, data, at)
  SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7 WHERE EXISTS (
    SELECT 1 FROM webhook_endpoints WHERE tenant_id = ?2 AND state = 'active'
       AND (waitlist_id IS NULL OR waitlist_id = ?3)
       AND (events = '[]' OR instr(events, '"' || CAST(?4 AS TEXT) || '"') > 0))`;

export async function addEvent(db: Db, event: NewEvent, now: number): Promise<void> {
  await db.run(ADD, [
    event.messageId,
    event.tenantId,
    event.waitlistId,
    event.type,
    event.subjectId,
    event.data ? JSON.stringify(event.data) : null,
    now,
  ]);
}

const PENDING = perDialect(
  (d) => `SELECT seq, message_id, tenant_id, waitlist_id, type, subject_id, data, at
  FROM events WHERE dispatched = ${d.false} ORDER BY seq LIMIT ?`,
);

const MARK = perDialect(
  (d) => `UPDATE events SET dispatched = ${d.true}
  WHERE ${d.anyOf('seq', 'bigint')} AND dispatched = ${d.false} RETURNING seq`,
);

/**
 * An endpoint deleted meanwhile gets none (on PostgreSQL its row is read FOR SHARE, so a
 * deletion waits for this write or is seen by it).
 */
const DELIVER = perDialect(
  (
    d,
  ) => `INSERT INTO deliveries (id, channel, event_seq, endpoint_id, tenant_id, message_id, event_type, body,
    state, attempts, next_at, created_at, subscriber_id)
  SELECT n.id, 'webhook', n.event_seq, n.endpoint_id, n.tenant_id, n.message_id, n.event_type, n.body,
         'pending', 0, n.at, n.at, n.subscriber_id
    FROM ${d.rows('n', {
      id: 'text',
      event_seq: 'bigint',
      endpoint_id: 'text',
      tenant_id: 'text',
      message_id: 'text',
      event_type: 'text',
      body: 'text',
      at: 'bigint',
      subscriber_id: 'text',
    })}
   WHERE EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.id = n.endpoint_id AND e.state = 'active'${d.lock('SHARE')})`,
);

export const CLAIM_DELIVERIES = perDialect(
  (d) => `UPDATE deliveries SET lease_until = CAST(?2 AS BIGINT) + CAST(?3 AS BIGINT)
  WHERE ${d.anyOf('id', 'text', '?1')} AND state = 'pending' AND (lease_until IS NULL OR lease_until <= ?2)
  RETURNING id, channel, endpoint_id, tenant_id, message_id, body, attempts,
    (SELECT url FROM webhook_endpoints WHERE id = endpoint_id) AS url,
    (SELECT secret FROM webhook_endpoints WHERE id = endpoint_id) AS secret`,
);

const RELEASE = perDialect(
  (d) => `UPDATE deliveries SET lease_until = NULL WHERE ${d.anyOf('id', 'text')} AND state = 'pending'`,
);

const WAITING_MAIL = perDialect(
  (d) => `SELECT count(*) AS n FROM deliveries${d.indexedBy('deliveries_pending')}
  WHERE coalesce(endpoint_id, channel) = 'mail' AND state = 'pending'`,
);

/** Of an attempt at a delivery erased meanwhile, nothing is kept. */
const RECORD = perDialect(
  (d) => `INSERT INTO delivery_attempts (delivery_id, at, status, error, duration_ms)
  SELECT r.id, r.at, r.status, r.error, r.duration_ms
    FROM ${d.rows('r', { id: 'text', at: 'bigint', status: 'bigint', error: 'text', duration_ms: 'bigint' })}
   WHERE EXISTS (SELECT 1 FROM deliveries WHERE id = r.id)`,
);

/**
 * Only a delivery still pending changes: one its endpoint's deletion failed while the attempt was
 * in flight stays failed (its attempt is listed all the same), and one erased meanwhile is gone.
 */
const OUTCOME = perDialect(
  (
    d,
  ) => `UPDATE deliveries SET state = r.state, attempts = attempts + 1, next_at = r.next_at, lease_until = NULL
    FROM ${d.rows('r', { id: 'text', state: 'text', next_at: 'bigint' })}
   WHERE deliveries.id = r.id AND deliveries.state = 'pending'`,
);

/** An endpoint's deliveries, newest first, each with its attempts as a JSON array. */
const LIST = perDialect(
  (d) => `SELECT d.id, d.endpoint_id, d.event_type, d.state, d.created_at,
    ${d.jsonArrayOf(
      { at: 'a.at', status: 'a.status', error: 'a.error', duration_ms: 'a.duration_ms' },
      'delivery_attempts AS a WHERE a.delivery_id = d.id',
      'a.at',
    )} AS attempts
  FROM deliveries d WHERE d.endpoint_id = ?1 AND (CAST(?2 AS TEXT) IS NULL OR d.state = ?2)
  ORDER BY d.created_at DESC, d.id DESC LIMIT ?3`,
);

/** Times are stored as milliseconds and shown as ISO 8601. */
interface ListedRow extends Omit<DeliveryRow, 'attempts' | 'created_at'> {
  created_at: number;
  attempts: string;
}
type AttemptRow = Omit<DeliveryRow['attempts'][number], 'at'> & { at: number };

/**
 * What erasure removes from the outbox, found through indexes (deliveries_subscriber,
 * events_subject), never by reading bodies: the deliveries and events carrying the subscriber's
 * data, with their attempts. Kept: the subscriber.deleted event, and other people's events that
 * name them only by id (a referrer's referral.credited), an id that names nobody any more.
 */
export const FORGET_ATTEMPTS =
  'DELETE FROM delivery_attempts WHERE delivery_id IN (SELECT id FROM deliveries WHERE subscriber_id = ?)';
export const FORGET_DELIVERIES = 'DELETE FROM deliveries WHERE subscriber_id = ?';
export const FORGET_EVENTS = "DELETE FROM events WHERE subject_id = ? AND type <> 'subscriber.deleted'";

export async function forgetDeliveriesNaming(db: Db, id: string): Promise<void> {
  await db.run(FORGET_ATTEMPTS, [id]);
  await db.run(FORGET_DELIVERIES, [id]);
  await db.run(FORGET_EVENTS, [id]);
}

/**
 * Finished deliveries (delivered, failed, dropped) that finished before `before`, oldest first:
 * a finished delivery's next_at is when its last attempt ended. Then their attempts, and the
 * dispatched events of before it.
 */
export const PRUNE_DELIVERIES = `DELETE FROM deliveries WHERE id IN (
    SELECT id FROM deliveries WHERE state <> 'pending' AND next_at < ?1 ORDER BY next_at LIMIT ?2)
  RETURNING id`;
export const PRUNE_ATTEMPTS = perDialect(
  (d) => `DELETE FROM delivery_attempts WHERE ${d.anyOf('delivery_id')}`,
);
export const PRUNE_EVENTS = perDialect(
  (d) => `DELETE FROM events WHERE seq IN (
    SELECT seq FROM events WHERE dispatched = ${d.true} AND at < ?1 ORDER BY at LIMIT ?2)`,
);

export function outboxOn(db: Db, d: Dialect): Outbox {
  return {
    add: (event, now) => addEvent(db, event, now),
    pendingEvents: (limit) => db.all<StoredEvent>(PENDING(d), [limit]),
    // The events are marked first, and only those this call marked get deliveries: a worker of
    // another process marking the same events waits for this write, then finds them marked.
    async createDeliveries(deliveries, dispatched) {
      if (dispatched.length === 0) return;
      const marked = await db.all<{ seq: number }>(MARK(d), [dispatched]);
      const mine = new Set(marked.map((r) => r.seq));
      const rows = deliveries.filter((d) => mine.has(d.eventSeq));
      if (rows.length === 0) return;
      await db.run(DELIVER(d), [
        JSON.stringify(
          rows.map((d) => [
            d.id,
            d.eventSeq,
            d.endpointId,
            d.tenantId,
            d.messageId,
            d.type,
            d.body,
            d.at,
            d.subscriberId,
          ]),
        ),
      ]);
    },
    due: (now, underWay, perEndpoint) =>
      db.all<DueDelivery>(d.dueDeliveries, [now, JSON.stringify(underWay), perEndpoint]),
    claim: (ids, now, leaseMs) => db.all<ClaimedDelivery>(CLAIM_DELIVERIES(d), [ids, now, leaseMs]),
    async record(finished) {
      if (finished.length === 0) return;
      const attempts = finished.map(({ attempt: a }) => [
        a.deliveryId,
        a.at,
        a.status,
        a.error,
        a.durationMs,
      ]);
      await db.run(RECORD(d), [JSON.stringify(attempts)]);
      const outcomes = finished.map(({ attempt, next }) => [attempt.deliveryId, next.state, next.nextAt]);
      await db.run(OUTCOME(d), [JSON.stringify(outcomes)]);
    },
    async release(ids) {
      await db.run(RELEASE(d), [ids]);
    },
    // What a server without SMTP owes (docs/self-hosting.md#mail).
    waitingMail: async () => (await db.get<{ n: number }>(WAITING_MAIL(d)))?.n ?? 0,
    async deliveries(endpointId, state) {
      const rows = await db.all<ListedRow>(LIST(d), [endpointId, state ?? null, 100]);
      return rows.map((row) => ({
        ...row,
        created_at: isoNow(row.created_at),
        attempts: (JSON.parse(row.attempts) as AttemptRow[]).map((a) => ({ ...a, at: isoNow(a.at) })),
      }));
    },
    endpointOf: async (deliveryId) =>
      (await db.get<{ e: string }>('SELECT endpoint_id AS e FROM deliveries WHERE id = ?', [deliveryId]))?.e,
    // Whatever became of it, with the whole retry schedule ahead of it.
    async resend(deliveryId, now) {
      await db.run(
        "UPDATE deliveries SET state = 'pending', attempts = 0, next_at = ?, lease_until = NULL WHERE id = ?",
        [now, deliveryId],
      );
    },
    async prune(before, batch) {
      const gone = await db.all<{ id: string }>(PRUNE_DELIVERIES, [before, batch]);
      if (gone.length > 0) await db.run(PRUNE_ATTEMPTS(d), [gone.map((d) => d.id)]);
      const events = await db.run(PRUNE_EVENTS(d), [before, batch]);
      return { deliveries: gone.length, events: events.changes };
    },
  };
}
