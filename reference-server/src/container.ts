/**
 * Builds what the doors use: the store on the configured database, the adapters, and the use
 * cases over them. `serve` builds one for the server's lifetime; a command builds one per run.
 */

import type { Resolver } from 'node:dns/promises';
import { type Clock, systemClock } from './adapters/clock.js';
import { createLogger } from './adapters/logger.js';
import { dnsResolver, hostAddresses, parseDnsServers } from './adapters/resolver.js';
import { ActivityLog } from './app/activity.js';
import { ApiRequests } from './app/api.js';
import { type Context, throttles } from './app/context.js';
import { ErasureCleanup } from './app/erasure-cleanup.js';
import { Keys } from './app/keys.js';
import { MessageTests } from './app/message-tests.js';
import { Messages } from './app/messages.js';
import { Sessions } from './app/sessions.js';
import { PublicSignups } from './app/signup.js';
import { Insights } from './app/stats.js';
import { Subscribers } from './app/subscribers.js';
import { Tenants } from './app/tenants.js';
import { PublicViews } from './app/views.js';
import { Waitlists } from './app/waitlists.js';
import { type WebhookPolicy, Webhooks } from './app/webhooks.js';
import { DomainError } from './domain/errors.js';
import { openPostgresStore } from './store/postgres/index.js';
import { type Backup, backupDatabase } from './store/sqlite/backup.js';
import { openSqliteStore } from './store/sqlite/index.js';
import type { Store } from './store/store.js';

/** What operators do, one service per concern, each over the guard (app/guard.ts). */
export interface OperatorServices {
  tenants: Tenants;
  waitlists: Waitlists;
  keys: Keys;
  activity: ActivityLog;
  subscribers: Subscribers;
  webhooks: Webhooks;
  insights: Insights;
  messages: Messages;
}

export interface Container extends Context, OperatorServices {
  sessions: Sessions;
  signups: PublicSignups;
  views: PublicViews;
  api: ApiRequests;
  /** Test mails of messages: the server's, since they need its SMTP and throttles. */
  messageTests: MessageTests;
}

/** Where the data is: a SQLite file, or a PostgreSQL database that several servers may share. */
export type StoreLocation = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };

/**
 * What `--db` (or WAITLIST_DB) names: a `postgres://` or `postgresql://` URL, or else a file
 * path. Any other `scheme://` is refused rather than taken for a folder named after the scheme.
 */
export function storeLocation(value: string): StoreLocation {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(value)?.[1]?.toLowerCase();
  if (scheme === undefined) return { kind: 'sqlite', path: value };
  if (scheme === 'postgres' || scheme === 'postgresql') return { kind: 'postgres', url: value };
  throw new DomainError(
    'usage_error',
    `--db ${JSON.stringify(value.replace(/\/\/[^/@]*@/, '//…@'))}: a ${scheme}:// address is not a database this server can use; give a SQLite file path or a postgres:// URL.`,
  );
}

/** The store at `location`; `oneShot` for a command that runs alone and briefly (one connection). */
export function openStore(
  location: string,
  { oneShot = false, clock = systemClock }: { oneShot?: boolean; clock?: Clock } = {},
): Promise<Store> {
  const nowMicros = () => clock.nowMicros();
  const where = storeLocation(location);
  return where.kind === 'postgres'
    ? openPostgresStore(where.url, { nowMicros, connections: oneShot ? 2 : 10 })
    : openSqliteStore(where.path, { nowMicros, separateReader: !oneShot });
}

/** A consistent copy of the database at `path` in the new file `to`, while it is in use. */
export function backup(path: string, to: string): Promise<Backup> {
  return backupDatabase(path, to);
}

/** The server's one resolver (WAITLIST_DNS_SERVERS): MX checks, and webhook destinations checked and called. */
export function resolverOf(env: Record<string, string | undefined>): Resolver {
  return dnsResolver(parseDnsServers(env.WAITLIST_DNS_SERVERS));
}

/**
 * Where webhooks may go, from the environment: WAITLIST_WEBHOOK_ALLOW_PRIVATE=1 for self-hosted
 * targets; names resolved by `resolver`, made on first use when none is given (a command).
 */
export function webhookPolicy(env: Record<string, string | undefined>, resolver?: Resolver): WebhookPolicy {
  let own = resolver;
  return {
    allowPrivate: env.WAITLIST_WEBHOOK_ALLOW_PRIVATE === '1',
    resolve: (host) => {
      own ??= resolverOf(env);
      return hostAddresses(own, host);
    },
  };
}

/**
 * The services of operators on `store`. Without a queue for erasures' cleanup (a command of the
 * command line, which exits when done), an erasure waits for its cleanup, saying on stderr when
 * it is late; without a policy, webhooks go to public destinations only, and no name resolves.
 */
export function operatorServices(
  store: Store,
  clock: Clock,
  {
    policy = { allowPrivate: false, resolve: async () => [] },
    erasureCleanup = new ErasureCleanup(
      store,
      createLogger((line) => process.stderr.write(line), 'quiet'),
      clock,
      true,
    ),
    urls = { appUrl: 'http://localhost:3000' },
  }: {
    policy?: WebhookPolicy;
    erasureCleanup?: ErasureCleanup;
    /** Read when used: `serve` knows its address only once it listens. */
    urls?: { readonly appUrl: string };
  } = {},
): OperatorServices {
  const base = { store, clock };
  return {
    tenants: new Tenants(base),
    waitlists: new Waitlists(base),
    keys: new Keys(base),
    activity: new ActivityLog(base),
    subscribers: new Subscribers({ ...base, erasureCleanup }),
    webhooks: new Webhooks(base, policy),
    insights: new Insights(base),
    messages: new Messages({ ...base, urls }),
  };
}

export function createContainer(
  parts: Omit<Context, keyof ReturnType<typeof throttles>>,
  policy: WebhookPolicy,
): Container {
  const ctx: Context = { ...parts, ...throttles(parts.store, parts.config.keyRateLimit) };
  return {
    ...ctx,
    ...operatorServices(ctx.store, ctx.clock, {
      policy,
      erasureCleanup: ctx.erasureCleanup,
      urls: ctx.config,
    }),
    sessions: new Sessions(ctx),
    signups: new PublicSignups(ctx),
    views: new PublicViews(ctx),
    api: new ApiRequests(ctx),
    messageTests: new MessageTests(ctx),
  };
}
