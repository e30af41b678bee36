/**
 * The outbox worker inside `serve` (docs/webhooks.md#the-outbox): it turns recorded events into deliveries,
 * one per endpoint that wants them, and delivers them after the commit that recorded them, with
 * the contract's retries. Nothing is lost to a crash: events and deliveries are rows, written in
 * transactions, and a delivery is leased, not removed, while it is attempted (a crash mid-attempt
 * means one more attempt later: at least once). A slow or dead endpoint holds at most a few
 * deliveries at a time, never the others', and never a request's answer; a tenant holds at most
 * its share of the attempts under way (domain/fair-share.ts), never the other tenants' or the mail's.
 *
 * Mail (docs/subscribers.md#email-confirmation, docs/messages.md) is the second channel: a mail is a delivery queued
 * with the row that needs it, read and written out only when its turn comes, so a mail for an address
 * confirmed or erased meanwhile is dropped, not sent. A server without SMTP leaves mail pending
 * (nothing is lost; it goes out once a server with SMTP runs) and says so in its log.
 */
import type { Clock } from '../adapters/clock.js';
import type { Logger } from '../adapters/logger.js';
import type { Mailer } from '../adapters/mailer.js';
import type { Sender } from '../adapters/webhook-sender.js';
import { shareSlots } from '../domain/fair-share.js';
import { newId } from '../domain/ids.js';
import { nextAttemptAt } from '../domain/retry-schedule.js';
import { wants } from '../domain/webhook-routing.js';
import { signWebhook } from '../domain/webhook-signature.js';
import type {
  ClaimedDelivery,
  DeliveryState,
  FinishedAttempt,
  NewDelivery,
  StoredEvent,
} from '../store/outbox.js';
import type { Store } from '../store/store.js';
import type { DatabaseHealth } from './database-health.js';
import { bodiesOf } from './event-bodies.js';
import { mailContent } from './mail-content.js';
import { type Claim, OutboxClaims } from './outbox-claims.js';

export interface OutboxOptions {
  /** Waits after each failed attempt, in ms (domain/retry-schedule.ts). */
  schedule: readonly number[];
  pollMs?: number;
  timeoutMs?: number;
  /** How long a claimed delivery is this worker's: longer than an attempt may take. */
  leaseMs?: number;
  perEndpoint?: number;
  /** Attempts under way at once, shared among tenants and the mail (domain/fair-share.ts). */
  total?: number;
  /** A server without SMTP counts waiting mail this often, and says so at most once per `mailWarningMs`. */
  mailCheckMs?: number;
  mailWarningMs?: number;
}

export interface MailChannel {
  mailer: Mailer;
  /** WAITLIST_MAIL_FROM. */
  from: string;
  appUrl: string;
}

/** What became of one attempt: the answer, and whether it is done, to be retried, failed for good, or moot. */
interface Attempted {
  status: number | null;
  error: string | null;
  result: 'ok' | 'retry' | 'fail' | 'drop';
}

const MAIL = 'mail';

/**
 * The subscriber whose data an event's body carries, so erasing them finds it by index: the
 * subject (the referrer, for referral.credited), but nobody for subscriber.deleted, whose body
 * is the erased id alone and must still go out.
 */
const carries = (event: StoredEvent) => (event.type === 'subscriber.deleted' ? null : event.subject_id);

/** Whose share of the slots a delivery takes: its tenant's, or the mail's (all mail is one group). */
const groupOf = (d: { channel: 'webhook' | 'mail'; tenant_id: string }) =>
  d.channel === 'mail' ? MAIL : d.tenant_id;

type Held = Claim & { delivery: ClaimedDelivery };

export class OutboxWorker {
  private readonly claims: OutboxClaims<Held>;
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;
  private again = false;
  /** Set by the poll: the next tick reads new events too (see wake). */
  private dispatchDue = true;
  private stopping = false;
  /** Attempts made and not yet recorded: written with the next claim. */
  private finished: FinishedAttempt[] = [];
  private readonly attempts = new Set<Promise<void>>();
  private readonly o: Required<OutboxOptions>;

  private checkedAt = Number.NEGATIVE_INFINITY;
  private warnedAt = Number.NEGATIVE_INFINITY;
  constructor(
    private readonly deps: {
      store: Store;
      clock: Clock;
      log: Logger;
      health?: Pick<DatabaseHealth, 'down' | 'observe'>;
    },
    private readonly channels: { webhook: Sender; mail: MailChannel | undefined },
    options: OutboxOptions,
  ) {
    this.o = {
      pollMs: 100,
      timeoutMs: 15_000,
      leaseMs: 60_000,
      perEndpoint: 4,
      total: 32,
      mailCheckMs: 2_000,
      mailWarningMs: 60_000,
      ...options,
    };
    // Claims ahead as far as the lease allows: a waiting claim starts within its lease even when
    // every attempt before it at its endpoint takes its whole budget (3 with 60 s and 15 s).
    const { perEndpoint, total, leaseMs, timeoutMs } = this.o;
    const ahead = Math.max(1, Math.floor(leaseMs / timeoutMs) - 1);
    this.claims = new OutboxClaims({ perEndpoint, total, ahead, leaseMs, attemptMs: timeoutMs });
  }

  start(): void {
    this.timer = setInterval(() => this.wake(true), this.o.pollMs);
    this.timer.unref();
  }

  /**
   * Runs a tick now, or right after the one under way: a finished attempt frees a slot, and its
   * endpoint's next delivery should not wait for the poll. Only the poll's ticks read new events:
   * a read per finished attempt was a snapshot's three statements per delivery, on the database.
   */
  private wake(poll = false): void {
    this.dispatchDue ||= poll;
    if (this.stopping) return;
    if (this.ticking) {
      this.again = true;
      return;
    }
    const dispatch = this.dispatchDue;
    this.dispatchDue = false;
    this.ticking = this.tick({ dispatch }).finally(() => {
      this.ticking = undefined;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  /**
   * Stops taking work, waits for the attempts under way (each bounded by its timeout), records
   * them, and gives back the claims not started, so that another server need not wait out their
   * leases.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    clearInterval(this.timer);
    await this.ticking;
    const unstarted = this.claims.takeWaiting().map((c) => c.id);
    await Promise.allSettled([...this.attempts]);
    const records = this.finished.splice(0);
    if (records.length > 0 || unstarted.length > 0)
      await this.deps.store
        .write(async (tx) => {
          await tx.outbox.record(records);
          if (unstarted.length > 0) await tx.outbox.release(unstarted);
        })
        .catch((error: unknown) =>
          this.deps.log.error('could not record delivery attempts', { error: String(error) }),
        );
  }

  async tick({ dispatch = true } = {}): Promise<void> {
    // While the database is away the worker waits; the health probe looks for it, and says in
    // the log when it went and came back (app/database-health.ts).
    if (this.deps.health?.down) return;
    try {
      while (dispatch && (await this.dispatch())) {}
      await this.deliver();
      if (!this.channels.mail) await this.warnOfWaitingMail();
    } catch (error) {
      if (this.deps.health?.observe(error)) return;
      this.deps.log.error('outbox tick failed', {
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }

  /**
   * Makes deliveries of a batch of events; true when there may be more. The bodies are read on
   * a snapshot, off the single writer that every sign-up waits for; the write that follows is two
   * statements, and creates deliveries only for events still pending then (another worker may
   * have taken them, an erasure may have removed them) and endpoints still live.
   */
  private async dispatch(): Promise<boolean> {
    const batch = await this.deps.store.read(async (tx) => {
      const events = await tx.outbox.pendingEvents(200);
      if (events.length === 0) return undefined;
      const endpoints = await tx.webhooks.live([...new Set(events.map((e) => e.tenant_id))]);
      const targeted = events.map((event) => ({
        event,
        targets: endpoints.filter((endpoint) => wants(endpoint, event)),
      }));
      const bodies = await bodiesOf(
        tx,
        targeted.filter((t) => t.targets.length > 0).map((t) => t.event),
      );
      const deliveries: NewDelivery[] = [];
      for (const { event, targets } of targeted) {
        const body = bodies.get(event.seq);
        if (body === undefined) continue;
        for (const endpoint of targets) {
          deliveries.push({
            id: newId('delivery'),
            eventSeq: event.seq,
            endpointId: endpoint.id,
            tenantId: event.tenant_id,
            messageId: event.message_id,
            type: event.type,
            body,
            at: event.at,
            subscriberId: carries(event),
          });
        }
      }
      return { seqs: events.map((e) => e.seq), deliveries };
    });
    if (!batch) return false;
    await this.deps.store.write((tx) => tx.outbox.createDeliveries(batch.deliveries, batch.seqs));
    return batch.seqs.length === 200;
  }

  /**
   * Records the attempts finished since the last tick and claims more deliveries, in one write:
   * the single writer is what sign-ups wait for, so the outbox asks it once per tick, not twice
   * per delivery. It claims ahead of the free slots (outbox-claims.ts): the claims wait here and
   * start as slots free up, without waiting for the next write. A finished attempt not yet
   * recorded still holds its lease, so no other worker takes it meanwhile; if the write fails, the
   * records wait for the next tick. Which due deliveries are claimed is domain/fair-share.ts's
   * rule over the claims held, and which of them start, the same rule over the slots: each
   * tenant, and the mail, a share, so one tenant's slow endpoints cannot hold them all.
   */
  private async deliver(): Promise<void> {
    const records = this.finished.splice(0);
    if (this.claims.room() > 0 || records.length > 0) {
      let now = this.deps.clock.now();
      let claimed: ClaimedDelivery[];
      try {
        claimed = await this.deps.store.write(async (tx) => {
          await tx.outbox.record(records);
          // What is held is read when the write's turn comes, not when it was asked for: the
          // claims held then have mostly been attempted while it waited.
          if (this.claims.room() <= 0) return [];
          const held = this.claims.heldByTarget();
          if (!this.channels.mail) held[MAIL] = this.claims.perTarget();
          now = this.deps.clock.now();
          const due = await tx.outbox.due(now, held, this.claims.perTarget());
          const chosen = shareSlots(
            due.map((d) => ({ id: d.id, group: groupOf(d) })),
            this.claims.heldByGroup(),
            this.claims.claimSlots(),
          );
          return chosen.length > 0 ? tx.outbox.claim(chosen, now, this.o.leaseMs) : [];
        });
      } catch (error) {
        this.finished.unshift(...records);
        throw error;
      }
      this.claims.add(
        claimed.map((delivery) => ({
          id: delivery.id,
          target: delivery.endpoint_id ?? MAIL,
          group: groupOf(delivery),
          claimedAt: now,
          delivery,
        })),
      );
    }
    this.startWaiting();
  }

  /** Starts the claims the slots allow now: after a claim, and as each attempt ends. */
  private startWaiting(): void {
    if (this.stopping) return;
    for (const held of this.claims.next(this.deps.clock.now())) {
      const attempt = this.attempt(held.delivery)
        .catch((error: unknown) => this.attemptFailed(held.delivery, error))
        .finally(() => {
          this.claims.done(held);
          this.attempts.delete(attempt);
          this.startWaiting();
          this.wake();
        });
      this.attempts.add(attempt);
    }
  }

  /**
   * An attempt that could not even be made: the store failed under it (a mail's facts are read
   * when its turn comes, and the database may have gone away meanwhile). Nothing is recorded; the
   * lease runs out and the delivery is attempted again, here or by another worker.
   */
  private attemptFailed(delivery: ClaimedDelivery, error: unknown): void {
    if (this.deps.health?.observe(error)) return;
    this.deps.log.error('delivery attempt failed', {
      delivery_id: delivery.id,
      error: error instanceof Error ? error.message : String(error),
    });
  }

  private async warnOfWaitingMail(): Promise<void> {
    const now = this.deps.clock.now();
    if (now - this.checkedAt < this.o.mailCheckMs || now - this.warnedAt < this.o.mailWarningMs) return;
    this.checkedAt = now;
    const waiting = await this.deps.store.reads.outbox.waitingMail();
    if (waiting === 0) return;
    this.warnedAt = now;
    this.deps.log.error('confirmation mail is waiting: this server has no WAITLIST_SMTP_URL', { waiting });
  }

  private async attempt(d: ClaimedDelivery): Promise<void> {
    const started = this.deps.clock.now();
    const done =
      d.channel === 'mail' ? await this.mailOnce(d, this.channels.mail) : await this.webhookOnce(d, started);
    const at = this.deps.clock.now();
    const retryAt = done.result === 'retry' ? nextAttemptAt(this.o.schedule, d.attempts + 1, at) : undefined;
    const state: DeliveryState =
      done.result === 'ok'
        ? 'delivered'
        : done.result === 'drop'
          ? 'dropped'
          : retryAt === undefined
            ? 'failed'
            : 'pending';
    this.finished.push({
      attempt: { deliveryId: d.id, at, status: done.status, error: done.error, durationMs: at - started },
      next: { state, nextAt: retryAt ?? at },
    });
  }

  private async webhookOnce(d: ClaimedDelivery & { channel: 'webhook' }, now: number): Promise<Attempted> {
    const timestamp = Math.floor(now / 1000);
    const headers = {
      'Content-Type': 'application/json',
      'webhook-id': d.message_id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signWebhook(d.secret, d.message_id, timestamp, d.body),
    };
    const sent = await this.channels.webhook.send(d.url, headers, d.body, this.o.timeoutMs);
    if ('error' in sent) return { status: null, error: sent.error, result: 'retry' };
    const ok = sent.status >= 200 && sent.status < 300;
    return { status: sent.status, error: null, result: ok ? 'ok' : 'retry' };
  }

  private async mailOnce(
    d: ClaimedDelivery & { channel: 'mail' },
    channel?: MailChannel,
  ): Promise<Attempted> {
    // Never so: deliver() claims mail only on a server with a mail channel.
    if (!channel) return { status: null, error: 'not sent: no WAITLIST_SMTP_URL', result: 'retry' };
    const content = await mailContent(this.deps.store, d.body, channel.appUrl);
    if (!content) return { status: null, error: 'not sent: no longer needed', result: 'drop' };
    const domain = channel.from.match(/@([^>\s]+)/)?.[1] ?? 'waitlist.invalid';
    const sent = await channel.mailer.send({
      from: channel.from,
      ...content,
      messageId: `<${d.message_id}@${domain}>`,
    });
    if ('code' in sent) return { status: sent.code, error: null, result: 'ok' };
    return { status: null, error: sent.error, result: sent.permanent ? 'fail' : 'retry' };
  }
}
