/**
 * The outbox's tables (contract §14), as in the SQLite adapter: events recorded in the
 * transaction of the change that caused them, deliveries made from them per endpoint, and every
 * attempt. Several servers share them: an event becomes deliveries once (createDeliveries marks
 * it first, and a second marker finds it marked), and a due delivery is claimed by one worker
 * (`FOR UPDATE SKIP LOCKED`, then a lease), so each attempt is made by one process.
 */
import { randomBytes } from 'node:crypto';
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

/**
 * The ids the SQLite adapter's triggers give the rows they write (a sign-up's created event, a
 * confirmation mail and its message): a prefix and lower-case hex. Mail's Message-ID is made of
 * the message id, so both adapters send the same shape.
 */
export const triggerId = (prefix: 'msg' | 'dlv', bytes: number) =>
  `${prefix}_${randomBytes(bytes).toString('hex')}`;

export async function addEvent(db: Connection, event: NewEvent, now: number): Promise<void> {
  await db.run(
    `INSERT INTO events (message_id, tenant_id, waitlist_id, type, subject_id, data, at)
     SELECT $1, $2, $3, $4, $5, $6, $7 WHERE EXISTS (
       SELECT 1 FROM webhook_endpoints WHERE tenant_id = $2 AND state = 'active')`,
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

/**
 * Queues the confirmation mail of a subscriber (contract §15). SQLite does it in a trigger, as its
 * grouped sign-ups have no transaction around them; here every sign-up is one transaction, and
 * the statement modules queue it where they write the row.
 */
export async function queueConfirmationMail(
  db: Connection,
  subscriber: { id: string; tenantId: string },
  atUs: number,
): Promise<void> {
  const at = Math.floor(atUs / 1000);
  await db.run(
    `INSERT INTO deliveries (id, channel, tenant_id, message_id, event_type, body, state, next_at, created_at, subscriber_id)
     VALUES ($1, 'mail', $2, $3, 'confirmation', $4, 'pending', $5, $5, $6)`,
    [
      triggerId('dlv', 8),
      subscriber.tenantId,
      triggerId('msg', 12),
      JSON.stringify({ subscriber_id: subscriber.id }),
      at,
      subscriber.id,
    ],
  );
}

/** Events not yet made into deliveries, oldest first. */
export function pendingEvents(db: Connection, limit: number): Promise<StoredEvent[]> {
  return db.all<StoredEvent>(
    `SELECT seq, message_id, tenant_id, waitlist_id, type, subject_id, data, at
       FROM events WHERE NOT dispatched ORDER BY seq LIMIT $1`,
    [limit],
  );
}

/**
 * Marks the events dispatched, then writes the deliveries of those this call marked: a worker
 * of another process marking the same events waits for this transaction, then finds them marked
 * and writes none. An endpoint deleted meanwhile gets none either (its row is read FOR SHARE, so
 * a deletion waits for this transaction or is seen by it).
 */
export async function createDeliveries(
  db: Connection,
  deliveries: readonly NewDelivery[],
  dispatched: readonly number[],
): Promise<void> {
  const marked =
    dispatched.length === 0
      ? []
      : (
          await db.all<{ seq: number }>(
            'UPDATE events SET dispatched = true WHERE seq = ANY ($1::bigint[]) AND NOT dispatched RETURNING seq',
            [dispatched],
          )
        ).map((r) => r.seq);
  const mine = new Set(marked);
  const rows = deliveries.filter((d) => mine.has(d.eventSeq));
  if (rows.length === 0) return;
  await db.run(
    `INSERT INTO deliveries (id, channel, event_seq, endpoint_id, tenant_id, message_id, event_type, body, state, attempts, next_at, created_at, subscriber_id)
     SELECT d.id, 'webhook', d.event_seq, d.endpoint_id, d.tenant_id, d.message_id, d.event_type, d.body, 'pending', 0, d.at, d.at, d.subscriber_id
       FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::bigint[], $9::text[])
            AS d (id, event_seq, endpoint_id, tenant_id, message_id, event_type, body, at, subscriber_id)
      WHERE EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.id = d.endpoint_id AND e.state = 'active' FOR SHARE)`,
    [
      rows.map((d) => d.id),
      rows.map((d) => d.eventSeq),
      rows.map((d) => d.endpointId),
      rows.map((d) => d.tenantId),
      rows.map((d) => d.messageId),
      rows.map((d) => d.type),
      rows.map((d) => d.body),
      rows.map((d) => d.at),
      rows.map((d) => d.subscriberId),
    ],
  );
}

/**
 * Due deliveries, oldest first: of each live destination (an endpoint, or `mail` for all mail),
 * the first few found on the index, as many as `perEndpoint` less those under way there (its
 * `room`), never the whole backlog. Rows another worker is claiming right now are skipped, not
 * waited for; those read here stay locked until this write commits, so the claim that follows
 * finds them as they were.
 */
const DUE_DELIVERIES = `SELECT d.id, d.channel, d.tenant_id
    FROM (SELECT a.target, $3::int - coalesce(u.n::int, 0) AS room
            FROM (SELECT id AS target FROM webhook_endpoints WHERE state = 'active' UNION ALL SELECT 'mail') AS a
            LEFT JOIN jsonb_each_text($2::jsonb) AS u (target, n) ON u.target = a.target) AS t
    CROSS JOIN LATERAL (
      SELECT id, channel, tenant_id, next_at FROM deliveries
       WHERE coalesce(endpoint_id, channel) = t.target AND state = 'pending' AND next_at <= $1
         AND (lease_until IS NULL OR lease_until <= $1)
       ORDER BY next_at LIMIT greatest(t.room, 0)
       FOR UPDATE SKIP LOCKED) AS d
   ORDER BY d.next_at, d.id`;

export function dueDeliveries(
  db: Connection,
  now: number,
  underWay: Readonly<Record<string, number>>,
  perEndpoint: number,
): Promise<DueDelivery[]> {
  return db.all<DueDelivery>(DUE_DELIVERIES, [now, JSON.stringify(underWay), perEndpoint]);
}

const CLAIM_DELIVERIES = `UPDATE deliveries SET lease_until = $2::bigint + $3::bigint
    WHERE id = ANY ($1::text[]) AND state = 'pending' AND (lease_until IS NULL OR lease_until <= $2)
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
  return db.all<ClaimedDelivery>(CLAIM_DELIVERIES, [ids, now, leaseMs]);
}

/** How many mails wait to be sent: what a server without SMTP owes (contract §15). */
export async function waitingMail(db: Connection): Promise<number> {
  const row = await db.get<{ n: number }>(
    `SELECT count(*) AS n FROM deliveries WHERE coalesce(endpoint_id, channel) = 'mail' AND state = 'pending'`,
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
     SELECT $1::text, $2::bigint, $3::bigint, $4::text, $5::bigint WHERE EXISTS (SELECT 1 FROM deliveries WHERE id = $1)`,
    [attempt.deliveryId, attempt.at, attempt.status, attempt.error, attempt.durationMs],
  );
  await db.run(
    "UPDATE deliveries SET state = $1, attempts = attempts + 1, next_at = $2, lease_until = NULL WHERE id = $3 AND state = 'pending'",
    [next.state, next.nextAt, attempt.deliveryId],
  );
}

export async function listDeliveries(
  db: Connection,
  endpointId: string,
  state: string | undefined,
  limit = 100,
): Promise<DeliveryRow[]> {
  const rows = await db.all<ListedDeliveryRow & { attempts: AttemptRow[] }>(
    `SELECT d.id, d.endpoint_id, d.event_type, d.state, d.created_at,
            coalesce((SELECT json_agg(json_build_object('at', a.at, 'status', a.status, 'error', a.error,
                                                        'duration_ms', a.duration_ms) ORDER BY a.at)
                        FROM delivery_attempts a WHERE a.delivery_id = d.id), '[]') AS attempts
       FROM deliveries d WHERE d.endpoint_id = $1 AND ($2::text IS NULL OR d.state = $2)
      ORDER BY d.created_at DESC, d.id DESC LIMIT $3`,
    [endpointId, state ?? null, limit],
  );
  return rows.map((r) => deliveryFromRow(r, r.attempts));
}

export async function deliveryEndpoint(db: Connection, deliveryId: string): Promise<string | undefined> {
  return (await db.get<{ e: string }>('SELECT endpoint_id AS e FROM deliveries WHERE id = $1', [deliveryId]))
    ?.e;
}

/** Sends a delivery again from now on, whatever became of it, with the whole retry schedule ahead of it. */
export async function resendDelivery(db: Connection, deliveryId: string, now: number): Promise<void> {
  await db.run(
    "UPDATE deliveries SET state = 'pending', attempts = 0, next_at = $1, lease_until = NULL WHERE id = $2",
    [now, deliveryId],
  );
}

/**
 * What erasure removes from the outbox, found through indexes (deliveries_subscriber,
 * events_subject), never by reading bodies: the deliveries and events carrying the subscriber's
 * data, with their attempts. Kept: the subscriber.deleted event, and other people's events that
 * name them only by id (a referrer's referral.credited), an id that names nobody any more.
 */
export async function forgetDeliveriesNaming(db: Connection, id: string): Promise<void> {
  await db.run(
    'DELETE FROM delivery_attempts WHERE delivery_id IN (SELECT id FROM deliveries WHERE subscriber_id = $1)',
    [id],
  );
  await db.run('DELETE FROM deliveries WHERE subscriber_id = $1', [id]);
  await db.run("DELETE FROM events WHERE subject_id = $1 AND type <> 'subscriber.deleted'", [id]);
}

/**
 * Forgets up to `batch` finished deliveries (delivered, failed, dropped) that finished before
 * `before` (a finished delivery's next_at is when its last attempt ended), with their attempts,
 * and up to `batch` dispatched events of before it, oldest first; says how many of each went.
 */
export async function pruneOutbox(
  db: Connection,
  before: number,
  batch: number,
): Promise<{ deliveries: number; events: number }> {
  const gone = await db.all<{ id: string }>(
    `DELETE FROM deliveries WHERE id IN (
       SELECT id FROM deliveries WHERE state <> 'pending' AND next_at < $1 ORDER BY next_at LIMIT $2)
     RETURNING id`,
    [before, batch],
  );
  if (gone.length > 0)
    await db.run('DELETE FROM delivery_attempts WHERE delivery_id = ANY ($1::text[])', [
      gone.map((d) => d.id),
    ]);
  const events = await db.run(
    `DELETE FROM events WHERE seq IN (
       SELECT seq FROM events WHERE dispatched AND at < $1 ORDER BY at LIMIT $2)`,
    [before, batch],
  );
  return { deliveries: gone.length, events: events.changes };
}
