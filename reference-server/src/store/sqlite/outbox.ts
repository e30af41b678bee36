/**
 * The outbox's tables (contract §14): events recorded in the transaction of the change that
 * caused them, deliveries made from them per endpoint, and every attempt. A delivery is taken by
 * one worker at a time through a lease: the worker that claimed it holds it until the lease
 * ends, so several servers on one store make each attempt once.
 */
import { type AttemptRow, deliveryFromRow, type ListedDeliveryRow } from '../delivery-rows.js';
import type {
  ClaimedDelivery,
  DeliveryRow,
  DeliveryState,
  DueDelivery,
  NewAttempt,
  NewDelivery,
  NewEvent,
  StoredEvent,
} from '../store.js';
import type { Connection } from './connection.js';

export async function addEvent(db: Connection, event: NewEvent, now: number): Promise<void> {
  await db.run(
    `INSERT INTO events (message_id, tenant_id, waitlist_id, type, subject_id, data, at)
     SELECT ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (
       SELECT 1 FROM webhook_endpoints WHERE tenant_id = ?2 AND state = 'active')`,
    [
      event.messageId,
      event.tenantId,
      event.waitlistId,
      event.type,
      event.subjectId,
      event.data ? JSON.stringify(event.data) : null,
      now,
    ],
  );
}

/** Events not yet made into deliveries, oldest first. */
export function pendingEvents(db: Connection, limit: number): Promise<StoredEvent[]> {
  return db.all<StoredEvent>(
    `SELECT seq, message_id, tenant_id, waitlist_id, type, subject_id, data, at
       FROM events WHERE dispatched = 0 ORDER BY seq LIMIT ?`,
    [limit],
  );
}

export async function createDeliveries(
  db: Connection,
  deliveries: readonly NewDelivery[],
  dispatched: readonly number[],
): Promise<void> {
  if (deliveries.length > 0) {
    await db.run(
      `INSERT INTO deliveries (id, channel, event_seq, endpoint_id, tenant_id, message_id, event_type, body, state, attempts, next_at, created_at, subscriber_id)
       SELECT value ->> 0, 'webhook', value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5, value ->> 6, 'pending', 0, value ->> 7, value ->> 7, value ->> 8
         FROM json_each(?)
        WHERE EXISTS (SELECT 1 FROM events WHERE seq = value ->> 1 AND dispatched = 0)
          AND EXISTS (SELECT 1 FROM webhook_endpoints WHERE id = value ->> 2 AND state = 'active')`,
      [
        JSON.stringify(
          deliveries.map((d) => [
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
      ],
    );
  }
  if (dispatched.length > 0) {
    await db.run('UPDATE events SET dispatched = 1 WHERE seq IN (SELECT value FROM json_each(?))', [
      JSON.stringify(dispatched),
    ]);
  }
}

// `+t.target`: a plain value, without the union column's affinity, is what lets SQLite look
// each destination up in the expression index instead of scanning it. A destination's first
// `perEndpoint` are read by index, then cut to what it may still take (its `room`): SQLite's
// LIMIT cannot read a column of the outer query.
export const DUE_DELIVERIES = `SELECT id, channel, tenant_id FROM (
        SELECT d.id, d.channel, d.tenant_id, d.next_at, ?3 - coalesce(u.value, 0) AS room,
               row_number() OVER (PARTITION BY t.target ORDER BY d.next_at, d.id) AS n
          FROM (SELECT id AS target FROM webhook_endpoints WHERE state = 'active' UNION ALL SELECT 'mail') AS t
          LEFT JOIN json_each(?2) AS u ON u.key = t.target
          JOIN deliveries AS d ON d.id IN (
            SELECT id FROM deliveries INDEXED BY deliveries_pending
             WHERE coalesce(endpoint_id, channel) = +t.target AND state = 'pending' AND next_at <= ?1
               AND (lease_until IS NULL OR lease_until <= ?1)
             ORDER BY next_at LIMIT ?3)
         WHERE coalesce(u.value, 0) < ?3)
      WHERE n <= room ORDER BY next_at, id`;

/**
 * Due deliveries, oldest first: of each live destination (an endpoint, or `mail` for all mail),
 * its first few, as many as `perEndpoint` less those `underWay` there (by destination).
 */
export function dueDeliveries(
  db: Connection,
  now: number,
  underWay: Readonly<Record<string, number>>,
  perEndpoint: number,
): Promise<DueDelivery[]> {
  return db.all<DueDelivery>(DUE_DELIVERIES, [now, JSON.stringify(underWay), perEndpoint]);
}

export const CLAIM_DELIVERIES = `UPDATE deliveries SET lease_until = ?2 + ?3
      WHERE id IN (SELECT value FROM json_each(?1)) AND state = 'pending'
        AND (lease_until IS NULL OR lease_until <= ?2)
      RETURNING id, channel, endpoint_id, tenant_id, message_id, body, attempts,
        (SELECT url FROM webhook_endpoints WHERE id = endpoint_id) AS url,
        (SELECT secret FROM webhook_endpoints WHERE id = endpoint_id) AS secret`;

/** Takes these deliveries for `leaseMs`, those still pending and free: each attempt is made by one worker. */
export function claimDeliveries(
  db: Connection,
  ids: readonly string[],
  now: number,
  leaseMs: number,
): Promise<ClaimedDelivery[]> {
  return db.all<ClaimedDelivery>(CLAIM_DELIVERIES, [JSON.stringify(ids), now, leaseMs]);
}

/** How many mails wait to be sent: what a server without SMTP owes (contract §15). */
export async function waitingMail(db: Connection): Promise<number> {
  const row = await db.get<{ n: number }>(
    `SELECT count(*) AS n FROM deliveries INDEXED BY deliveries_pending
      WHERE coalesce(endpoint_id, channel) = 'mail' AND state = 'pending'`,
  );
  return row?.n ?? 0;
}

/**
 * Records an attempt and what follows from it: delivered, due again at `nextAt`, or failed. Only
 * a delivery still pending changes: one its endpoint's deletion failed while the attempt was in
 * flight stays failed (its attempt is listed all the same), and one erased meanwhile is gone.
 */
export async function recordAttempt(
  db: Connection,
  attempt: NewAttempt,
  next: { state: DeliveryState; nextAt: number },
): Promise<void> {
  await db.run(
    `INSERT INTO delivery_attempts (delivery_id, at, status, error, duration_ms)
     SELECT ?1, ?2, ?3, ?4, ?5 WHERE EXISTS (SELECT 1 FROM deliveries WHERE id = ?1)`,
    [attempt.deliveryId, attempt.at, attempt.status, attempt.error, attempt.durationMs],
  );
  await db.run(
    "UPDATE deliveries SET state = ?, attempts = attempts + 1, next_at = ?, lease_until = NULL WHERE id = ? AND state = 'pending'",
    [next.state, next.nextAt, attempt.deliveryId],
  );
}

export async function listDeliveries(
  db: Connection,
  endpointId: string,
  state: string | undefined,
  limit = 100,
): Promise<DeliveryRow[]> {
  const rows = await db.all<ListedDeliveryRow & { attempts: string }>(
    `SELECT d.id, d.endpoint_id, d.event_type, d.state, d.created_at,
            (SELECT json_group_array(json_object('at', a.at, 'status', a.status, 'error', a.error, 'duration_ms', a.duration_ms))
               FROM (SELECT * FROM delivery_attempts WHERE delivery_id = d.id ORDER BY at) AS a) AS attempts
       FROM deliveries d WHERE d.endpoint_id = ?1 AND (?2 IS NULL OR d.state = ?2)
      ORDER BY d.created_at DESC, d.id DESC LIMIT ?3`,
    [endpointId, state ?? null, limit],
  );
  return rows.map((r) => deliveryFromRow(r, JSON.parse(r.attempts) as AttemptRow[]));
}

export async function deliveryEndpoint(db: Connection, deliveryId: string): Promise<string | undefined> {
  return (await db.get<{ e: string }>('SELECT endpoint_id AS e FROM deliveries WHERE id = ?', [deliveryId]))
    ?.e;
}

/** Sends a delivery again from now on, whatever became of it, with the whole retry schedule ahead of it. */
export async function resendDelivery(db: Connection, deliveryId: string, now: number): Promise<void> {
  await db.run(
    "UPDATE deliveries SET state = 'pending', attempts = 0, next_at = ?, lease_until = NULL WHERE id = ?",
    [now, deliveryId],
  );
}

/**
 * What erasure removes from the outbox, found through indexes (deliveries_subscriber,
 * events_subject), never by reading bodies: the deliveries and events carrying the subscriber's
 * data, with their attempts. Kept: the subscriber.deleted event, and other people's events that
 * name them only by id (a referrer's referral.credited), an id that names nobody any more.
 */
export const FORGET_ATTEMPTS =
  'DELETE FROM delivery_attempts WHERE delivery_id IN (SELECT id FROM deliveries WHERE subscriber_id = ?)';
export const FORGET_DELIVERIES = 'DELETE FROM deliveries WHERE subscriber_id = ?';
export const FORGET_EVENTS = "DELETE FROM events WHERE subject_id = ? AND type != 'subscriber.deleted'";

export async function forgetDeliveriesNaming(db: Connection, id: string): Promise<void> {
  await db.run(FORGET_ATTEMPTS, [id]);
  await db.run(FORGET_DELIVERIES, [id]);
  await db.run(FORGET_EVENTS, [id]);
}

/**
 * Finished deliveries (delivered, failed, dropped) that finished before `before`, oldest first:
 * a finished delivery's next_at is when its last attempt ended.
 */
export const PRUNE_DELIVERIES = `DELETE FROM deliveries WHERE id IN (
    SELECT id FROM deliveries WHERE state <> 'pending' AND next_at < ?1 ORDER BY next_at LIMIT ?2)
  RETURNING id`;
export const PRUNE_ATTEMPTS =
  'DELETE FROM delivery_attempts WHERE delivery_id IN (SELECT value FROM json_each(?))';
export const PRUNE_EVENTS = `DELETE FROM events WHERE seq IN (
    SELECT seq FROM events WHERE dispatched = 1 AND at < ?1 ORDER BY at LIMIT ?2)`;

/**
 * Forgets up to `batch` finished deliveries (with their attempts) and up to `batch` dispatched
 * events, of before `before`; says how many of each went.
 */
export async function pruneOutbox(
  db: Connection,
  before: number,
  batch: number,
): Promise<{ deliveries: number; events: number }> {
  const gone = await db.all<{ id: string }>(PRUNE_DELIVERIES, [before, batch]);
  if (gone.length > 0) await db.run(PRUNE_ATTEMPTS, [JSON.stringify(gone.map((d) => d.id))]);
  const events = await db.run(PRUNE_EVENTS, [before, batch]);
  return { deliveries: gone.length, events: events.changes };
}
