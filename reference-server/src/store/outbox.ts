/**
 * The outbox's side of the store (docs/webhooks.md#the-outbox): its repository and the records it
 * reads and writes, implemented once for both stores in statements/outbox.ts.
 */

/** An event for the outbox; `data` left out means "read the subject when it is sent". */
export interface NewEvent {
  messageId: string;
  tenantId: string;
  waitlistId: string;
  type: string;
  subjectId: string;
  data?: object;
}

export interface StoredEvent {
  seq: number;
  message_id: string;
  tenant_id: string;
  waitlist_id: string;
  type: string;
  subject_id: string;
  /** The event's data as recorded, or null when it is to be read at dispatch (a sign-up's subscriber). */
  data: string | null;
  at: number;
}

export interface NewDelivery {
  id: string;
  eventSeq: number;
  endpointId: string;
  tenantId: string;
  messageId: string;
  type: string;
  body: string;
  /** When the event happened: the body's timestamp, and the first attempt is due then. */
  at: number;
  /** The subscriber whose data the body carries, erased with them; null for none (subscriber.deleted). */
  subscriberId: string | null;
}

/** One attempt at a delivery: its HTTP status, or the error that kept it from having one. */
export interface NewAttempt {
  deliveryId: string;
  at: number;
  status: number | null;
  error: string | null;
  durationMs: number;
}

/** An attempt made, and what becomes of its delivery: done, failed, dropped, or due again at `nextAt`. */
export interface FinishedAttempt {
  attempt: NewAttempt;
  next: { state: DeliveryState; nextAt: number };
}

/** 'dropped': a mail no longer needed when its turn came (the address confirmed, or erased). */
export type DeliveryState = 'pending' | 'delivered' | 'failed' | 'dropped';

/** A delivery that could be attempted now, and whose share of the slots it takes (domain/fair-share.ts). */
export interface DueDelivery {
  id: string;
  channel: 'webhook' | 'mail';
  tenant_id: string;
}

export type ClaimedDelivery = DueDelivery & { message_id: string; body: string; attempts: number } & (
    | { channel: 'webhook'; endpoint_id: string; url: string; secret: string }
    | { channel: 'mail'; endpoint_id: null; url: null; secret: null }
  );

export interface DeliveryRow {
  id: string;
  endpoint_id: string;
  event_type: string;
  state: DeliveryState;
  /** When its event happened: a delivery is dated by its event, not by when the worker made it. */
  created_at: string;
  attempts: { at: string; status: number | null; error: string | null; duration_ms: number }[];
}

/**
 * The outbox (docs/webhooks.md#the-outbox): events recorded with the change that caused them, and their
 * deliveries. A subscriber's row brings its own, written by the statement that writes it (the
 * schema's triggers, on both stores): `subscriber.created` when the tenant has a live endpoint,
 * and the confirmation mail. `signUp` records `referral.credited` in the same write; `add`
 * records the rest.
 */
export interface Outbox {
  add(event: NewEvent, now: number): Promise<void>;
  /** Events not yet made into deliveries, oldest first. */
  pendingEvents(limit: number): Promise<StoredEvent[]>;
  /**
   * Marks the events as dispatched and writes their deliveries, but only those of events still
   * pending (not taken by another worker, not erased) to endpoints still live.
   */
  createDeliveries(deliveries: readonly NewDelivery[], dispatched: readonly number[]): Promise<void>;
  /**
   * Due deliveries, oldest first: of each live destination (an endpoint id, or `mail`), as many as
   * `perEndpoint` less those `underWay` there, but none another worker is claiming.
   */
  due(now: number, underWay: Readonly<Record<string, number>>, perEndpoint: number): Promise<DueDelivery[]>;
  /** Takes these deliveries for `leaseMs`, those still due and free: each attempt is made by one worker. */
  claim(ids: readonly string[], now: number, leaseMs: number): Promise<ClaimedDelivery[]>;
  /**
   * Records attempts, and their outcomes where the delivery is still pending (a deletion's failure
   * stands): two statements for any number of attempts.
   */
  record(finished: readonly FinishedAttempt[]): Promise<void>;
  /** Gives back claims not attempted: the deliveries are due again at once, for any worker. */
  release(ids: readonly string[]): Promise<void>;
  /** Mails waiting to be sent. */
  waitingMail(): Promise<number>;
  deliveries(endpointId: string, state?: string): Promise<DeliveryRow[]>;
  endpointOf(deliveryId: string): Promise<string | undefined>;
  /** Makes the delivery due now, with the whole retry schedule ahead of it again. */
  resend(deliveryId: string, now: number): Promise<void>;
  /** Forgets up to `batch` finished deliveries (with attempts) and sent events from before `before`. */
  prune(before: number, batch: number): Promise<{ deliveries: number; events: number }>;
}
