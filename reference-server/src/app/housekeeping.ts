/** What a running server does on its own: its token secret, and forgetting what has expired or is past keeping. */
import { randomBytes } from 'node:crypto';
import type { Store } from '../store/store.js';
import type { Context } from './context.js';

/** The HMAC secret of tokens and nonces: configured, or generated once and kept in the store. */
export function tokenSecret(store: Store, configured: string | undefined): Promise<string> {
  if (configured !== undefined) return Promise.resolve(configured);
  return store.write((tx) => tx.meta.putOnce('token_secret', randomBytes(32).toString('base64url')));
}

/** Outbox rows forgotten per write: a few milliseconds of the single writer that sign-ups wait for. */
export const PRUNE_BATCH = 500;

/**
 * Forgets the finished deliveries (with their attempts) and dispatched events of before
 * `before`, a batch per write, so sign-ups queued behind one batch go before the next, until
 * none is left or `going` says to stop; resolves to how many of each went.
 */
export async function pruneOutbox(
  store: Store,
  before: number,
  { batch = PRUNE_BATCH, going = (): boolean => true } = {},
): Promise<{ deliveries: number; events: number }> {
  const total = { deliveries: 0, events: 0 };
  while (going()) {
    const gone = await store.write((tx) => tx.outbox.prune(before, batch));
    total.deliveries += gone.deliveries;
    total.events += gone.events;
    if (gone.deliveries < batch && gone.events < batch) break;
  }
  return total;
}

export interface SweepOptions {
  /** WAITLIST_OUTBOX_RETENTION_DAYS, in ms: how long finished deliveries and sent events are kept. */
  outboxRetentionMs: number;
}

/**
 * The periodic sweep: drops idle throttle state, redeemed tokens, sessions, kept answers and
 * reveals past their time, and the outbox's rows past their retention. A prune still going when the next
 * sweep comes (a first one on a large backlog) is left to finish, not started twice; `stop`
 * ends it after its current batch, before the store closes.
 */
export function sweeper(ctx: Context, options: SweepOptions): { sweep(): void; stop(): Promise<void> } {
  let pruning: Promise<void> | undefined;
  let stopped = false;
  return {
    sweep() {
      const now = ctx.clock.now();
      for (const limiter of Object.values(ctx.limiters)) limiter.sweep(now).catch(() => undefined);
      ctx.store.write((tx) => tx.tokens.forgetExpired(now)).catch(() => undefined);
      ctx.store.write((tx) => tx.sessions.deleteExpired(now)).catch(() => undefined);
      ctx.store.write((tx) => tx.idempotency.forgetExpired(now)).catch(() => undefined);
      ctx.store.write((tx) => tx.reveals.forgetExpired(now)).catch(() => undefined);
      if (pruning || stopped) return;
      pruning = pruneOutbox(ctx.store, now - options.outboxRetentionMs, { going: () => !stopped })
        .then(
          (gone) => {
            if (gone.deliveries + gone.events > 0) ctx.log.info('outbox pruned', gone);
          },
          (error: unknown) => ctx.log.error('outbox prune failed', { error: String(error) }),
        )
        .finally(() => {
          pruning = undefined;
        });
    },
    async stop() {
      stopped = true;
      await pruning;
    },
  };
}
