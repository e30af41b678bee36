/**
 * The outbox worker inside `serve` (contract §14): it turns recorded events into deliveries,
 * one per endpoint that wants them, and delivers them after the commit that recorded them, with
 * the contract's retries. Nothing is lost to a crash: events and deliveries are rows, written in
 * transactions, and a delivery is leased, not removed, while it is attempted (a crash mid-attempt
 * means one more attempt later: at least once). A slow or dead endpoint holds at most a few
 * deliveries at a time, never the others', and never a request's answer.
 */
import type { Clock } from '../adapters/clock.js';
import type { Logger } from '../adapters/logger.js';
import type { Sender } from '../adapters/webhook-sender.js';
import { newId } from '../domain/ids.js';
import { nextAttemptAt } from '../domain/retry-schedule.js';
import { wants } from '../domain/webhook-routing.js';
import { signWebhook } from '../domain/webhook-signature.js';
import type { NewDelivery, Repositories, Store, StoredEvent } from '../store/store.js';

export interface OutboxOptions {
  /** Waits after each failed attempt, in ms (domain/retry-schedule.ts). */
  schedule: readonly number[];
  pollMs?: number;
  timeoutMs?: number;
  /** How long a claimed delivery is this worker's: longer than an attempt may take. */
  leaseMs?: number;
  perEndpoint?: number;
  total?: number;
}

/** The event's body as sent: the data as recorded, or the subscriber as it is now when it was left to read. */
async function bodyOf(tx: Repositories, event: StoredEvent): Promise<string | undefined> {
  const subscriber = async (id: string) => {
    const waitlist = await tx.waitlists.get(event.waitlist_id);
    const found = waitlist && (await tx.subscribers.get(waitlist.id, waitlist.settings, id));
    return found ? { ...found, waitlist_id: event.waitlist_id } : undefined;
  };
  let data: unknown;
  if (event.type === 'subscriber.created') data = await subscriber(event.subject_id);
  else if (event.type === 'referral.credited') {
    const referrer = await subscriber(event.subject_id);
    const recorded = JSON.parse(event.data ?? '{}') as { subscriber_id?: string };
    data = referrer && { referrer, subscriber_id: recorded.subscriber_id };
  } else
    data =
      event.data === null ? { id: event.subject_id, waitlist_id: event.waitlist_id } : JSON.parse(event.data);
  // A subscriber erased before the event went out: nothing about them is sent but their deletion.
  if (data === undefined) return undefined;
  return JSON.stringify({ type: event.type, timestamp: new Date(event.at).toISOString(), data });
}

export class OutboxWorker {
  private readonly inFlight = new Map<string, number>();
  private running = 0;
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;
  private readonly attempts = new Set<Promise<void>>();
  private readonly o: Required<OutboxOptions>;

  constructor(
    private readonly deps: { store: Store; clock: Clock; log: Logger },
    private readonly sender: Sender,
    options: OutboxOptions,
  ) {
    this.o = { pollMs: 100, timeoutMs: 15_000, leaseMs: 60_000, perEndpoint: 4, total: 32, ...options };
  }

  start(): void {
    this.timer = setInterval(() => {
      this.ticking ??= this.tick().finally(() => {
        this.ticking = undefined;
      });
    }, this.o.pollMs);
    this.timer.unref();
  }

  /** Stops taking work and waits for the attempts under way (each bounded by its timeout). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.ticking;
    await Promise.allSettled([...this.attempts]);
  }

  async tick(): Promise<void> {
    try {
      while (await this.dispatch()) {}
      await this.deliver();
    } catch (error) {
      this.deps.log.error('outbox tick failed', {
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }

  /** Makes deliveries of a batch of events; true when there may be more. */
  private dispatch(): Promise<boolean> {
    return this.deps.store.write(async (tx) => {
      const events = await tx.outbox.takeEvents(200);
      if (events.length === 0) return false;
      const endpoints = await tx.webhooks.live([...new Set(events.map((e) => e.tenant_id))]);
      const deliveries: NewDelivery[] = [];
      for (const event of events) {
        const targets = endpoints.filter((endpoint) => wants(endpoint, event));
        const body = targets.length > 0 ? await bodyOf(tx, event) : undefined;
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
          });
        }
      }
      await tx.outbox.createDeliveries(
        deliveries,
        events.map((e) => e.seq),
      );
      return events.length === 200;
    });
  }

  private async deliver(): Promise<void> {
    const free = this.o.total - this.running;
    if (free <= 0) return;
    const busy = [...this.inFlight].filter(([, n]) => n >= this.o.perEndpoint).map(([id]) => id);
    const now = this.deps.clock.now();
    const claimed = await this.deps.store.write((tx) =>
      tx.outbox.claim(now, this.o.leaseMs, free, busy, this.o.perEndpoint),
    );
    for (const delivery of claimed) {
      const endpoint = delivery.endpoint_id;
      this.inFlight.set(endpoint, (this.inFlight.get(endpoint) ?? 0) + 1);
      this.running++;
      const attempt = this.attempt(delivery).finally(() => {
        this.running--;
        const left = (this.inFlight.get(endpoint) ?? 1) - 1;
        if (left === 0) this.inFlight.delete(endpoint);
        else this.inFlight.set(endpoint, left);
        this.attempts.delete(attempt);
      });
      this.attempts.add(attempt);
    }
  }

  private async attempt(d: Awaited<ReturnType<Repositories['outbox']['claim']>>[number]): Promise<void> {
    const started = this.deps.clock.now();
    const timestamp = Math.floor(started / 1000);
    const headers = {
      'Content-Type': 'application/json',
      'webhook-id': d.message_id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signWebhook(d.secret, d.message_id, timestamp, d.body),
    };
    const result = await this.sender.send(d.url, headers, d.body, this.o.timeoutMs);
    const at = this.deps.clock.now();
    const ok = 'status' in result && result.status >= 200 && result.status < 300;
    const retryAt = ok ? undefined : nextAttemptAt(this.o.schedule, d.attempts + 1, at);
    const next = ok
      ? { state: 'delivered' as const, nextAt: at }
      : retryAt === undefined
        ? { state: 'failed' as const, nextAt: at }
        : { state: 'pending' as const, nextAt: retryAt };
    await this.deps.store
      .write((tx) =>
        tx.outbox.record(
          {
            deliveryId: d.id,
            at,
            status: 'status' in result ? result.status : null,
            error: 'error' in result ? result.error : null,
            durationMs: at - started,
          },
          next,
        ),
      )
      .catch((error: unknown) =>
        this.deps.log.error('could not record a delivery attempt', { error: String(error) }),
      );
  }
}
