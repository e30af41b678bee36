/** What a running server does on its own: its token secret, and forgetting what has expired. */
import { randomBytes } from 'node:crypto';
import type { Store } from '../store/store.js';
import type { Context } from './context.js';

/** The HMAC secret of tokens and nonces: configured, or generated once and kept in the store. */
export function tokenSecret(store: Store, configured: string | undefined): Promise<string> {
  if (configured !== undefined) return Promise.resolve(configured);
  return store.write((tx) => tx.meta.putOnce('token_secret', randomBytes(32).toString('base64url')));
}

/** Drops idle throttle state, and redeemed tokens, sessions, kept answers and reveals past their time. */
export function sweep(ctx: Context): void {
  const now = ctx.clock.now();
  for (const limiter of Object.values(ctx.limiters)) limiter.sweep(now).catch(() => undefined);
  ctx.store.write((tx) => tx.tokens.forgetExpired(now)).catch(() => undefined);
  ctx.store.write((tx) => tx.sessions.deleteExpired(now)).catch(() => undefined);
  ctx.store.write((tx) => tx.idempotency.forgetExpired(now)).catch(() => undefined);
  ctx.store.write((tx) => tx.reveals.forgetExpired(now)).catch(() => undefined);
}
