/**
 * Builds what the doors use: the store on the configured database, the adapters, and the use
 * cases over them. `serve` builds one for the server's lifetime; a command builds one per run.
 */
import { type Clock, systemClock } from './adapters/clock.js';
import { resolveHost } from './adapters/resolver.js';
import { ApiRequests } from './app/api.js';
import { type Context, throttles } from './app/context.js';
import { Operators, type WebhookPolicy } from './app/operators.js';
import { Sessions } from './app/sessions.js';
import { PublicSignups } from './app/signup.js';
import { type Backup, backupDatabase } from './store/sqlite/backup.js';
import { openSqliteStore } from './store/sqlite/index.js';
import type { Store } from './store/store.js';

export interface Container extends Context {
  operators: Operators;
  sessions: Sessions;
  signups: PublicSignups;
  api: ApiRequests;
}

/** The store on `path`; `oneShot` for a command that runs alone and briefly (one connection). */
export function openStore(
  path: string,
  { oneShot = false, clock = systemClock }: { oneShot?: boolean; clock?: Clock } = {},
): Promise<Store> {
  return openSqliteStore(path, { nowMicros: () => clock.nowMicros(), separateReader: !oneShot });
}

/** A consistent copy of the database at `path` in the new file `to`, while it is in use. */
export function backup(path: string, to: string): Promise<Backup> {
  return backupDatabase(path, to);
}

/** Where webhooks may go, from the environment: WAITLIST_WEBHOOK_ALLOW_PRIVATE=1 for self-hosted targets. */
export function webhookPolicy(env: Record<string, string | undefined>): WebhookPolicy {
  return { allowPrivate: env.WAITLIST_WEBHOOK_ALLOW_PRIVATE === '1', resolve: resolveHost };
}

export function createContainer(
  parts: Omit<Context, keyof ReturnType<typeof throttles>>,
  policy: WebhookPolicy,
): Container {
  const ctx: Context = { ...parts, ...throttles(parts.store, parts.config.keyRateLimit) };
  const operators = new Operators(ctx.store, ctx.clock, policy);
  return {
    ...ctx,
    operators,
    sessions: new Sessions(ctx, operators),
    signups: new PublicSignups(ctx),
    api: new ApiRequests(ctx),
  };
}
