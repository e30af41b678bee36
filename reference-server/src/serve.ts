/**
 * `waitlist-server serve`: opens the database, starts HTTP, optionally seeds the demo, and on
 * SIGINT/SIGTERM stops accepting, lets requests in flight finish, commits what is queued and
 * closes the database.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KEY_RATE_LIMIT_DEFAULT } from '@waitlistkit/protocol';
import { systemClock } from './adapters/clock.js';
import { createLogger, type LogLevel } from './adapters/logger.js';
import { checkSmtpUrl } from './adapters/mailer.js';
import { MxChecker } from './adapters/mx.js';
import { SendingThread } from './adapters/sending-thread.js';
import { DatabaseHealth, probeByWriting } from './app/database-health.js';
import { seedDemo } from './app/demo.js';
import { ErasureCleanup } from './app/erasure-cleanup.js';
import { sweeper, tokenSecret } from './app/housekeeping.js';
import { OutboxWorker } from './app/outbox.js';
import { createContainer, openStore, resolverOf, webhookPolicy } from './container.js';
import { dashboardRouter } from './dashboard/router.js';
import { DomainError } from './domain/errors.js';
import { parseRetrySchedule } from './domain/retry-schedule.js';
import { createApp } from './http/app.js';

export interface ServeOptions {
  db: string;
  port?: number | undefined;
  host?: string | undefined;
  baseUrl?: string | undefined;
  appUrl?: string | undefined;
  trustProxy: boolean;
  demo: boolean;
  env: Record<string, string | undefined>;
  stdout: (text: string) => void;
  /** Resolves when the server should stop; defaults to the first SIGINT or SIGTERM. */
  stopSignal?: Promise<void>;
}

function envInt(
  env: Record<string, string | undefined>,
  name: string,
  min: number,
  max: number,
): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new DomainError(
      'usage_error',
      `${name} must be a whole number from ${min} to ${max}, not ${JSON.stringify(raw)}.`,
    );
  }
  return Number(raw);
}

/** WAITLIST_OUTBOX_RETENTION_DAYS when unset: finished deliveries and sent events are kept 30 days. */
const OUTBOX_RETENTION_DAYS = 30;
const DAY_MS = 86_400_000;

function envUrl(env: Record<string, string | undefined>, name: string): string | undefined {
  const raw = env[name];
  if (!raw) return undefined;
  try {
    const url = new URL(raw);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.href.replace(/\/$/, '');
  } catch {}
  throw new DomainError('usage_error', `${name} must be an http(s) URL, not ${JSON.stringify(raw)}.`);
}

/**
 * Where mail goes (docs/self-hosting.md#mail). Without WAITLIST_SMTP_URL the server still runs: confirmation
 * mail then waits in the outbox, counted in the log, until a server with SMTP sends it; a URL
 * that cannot work, or one without a sender, is refused before anything starts.
 */
function mailSettings(env: Record<string, string | undefined>): { url: string; from: string } | undefined {
  const url = env.WAITLIST_SMTP_URL;
  if (url === undefined || url === '') return undefined;
  const problem = checkSmtpUrl(url);
  if (problem) throw new DomainError('usage_error', problem);
  const from = env.WAITLIST_MAIL_FROM?.trim() ?? '';
  if (!/^[^\s@<>]+@[^\s@<>]+$|^[^<>\r\n]*<[^\s@<>]+@[^\s@<>]+>$/.test(from)) {
    throw new DomainError(
      'usage_error',
      from === ''
        ? 'WAITLIST_MAIL_FROM is required with WAITLIST_SMTP_URL: the address confirmation mail comes from, e.g. "Acme <waitlist@acme.example>".'
        : `WAITLIST_MAIL_FROM must be an address like waitlist@acme.example or "Acme <waitlist@acme.example>", not ${JSON.stringify(from)}.`,
    );
  }
  return { url, from };
}

function logLevel(raw: string | undefined): LogLevel {
  if (raw === undefined || raw === '') return 'requests';
  if (raw === 'requests' || raw === 'quiet') return raw;
  throw new DomainError('usage_error', `WAITLIST_LOG must be requests or quiet, not ${JSON.stringify(raw)}.`);
}

/** The first SIGINT or SIGTERM; later ones are ignored while the shutdown runs its course. */
function signals(): Promise<void> {
  return new Promise((resolve) => {
    process.on('SIGINT', () => resolve());
    process.on('SIGTERM', () => resolve());
  });
}

/**
 * A file-size limit (`ulimit -f`, as a quota or a full disk is staged) kills a process at its
 * first write past it; ignored, that write fails with EFBIG instead, which SQLite reports like a
 * full disk: the server answers 503 until there is room again, and loses nothing.
 */
function surviveFileSizeLimit(): void {
  if (process.platform !== 'win32' && process.listenerCount('SIGXFSZ') === 0)
    process.on('SIGXFSZ', () => undefined);
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server.address() as AddressInfo));
  });
}

export async function serve(options: ServeOptions): Promise<void> {
  const { env } = options;
  const port = options.port ?? envInt(env, 'PORT', 0, 65_535) ?? 8787;
  const host = options.host ?? env.HOST ?? '127.0.0.1';
  const keyRateLimit = envInt(env, 'WAITLIST_KEY_RATE_LIMIT', 1, 1_000_000) ?? KEY_RATE_LIMIT_DEFAULT;
  const configuredBase = options.baseUrl ?? envUrl(env, 'BASE_URL');
  const configuredApp = options.appUrl ?? envUrl(env, 'APP_URL');
  const log = createLogger(options.stdout, logLevel(env.WAITLIST_LOG));
  if (env.WAITLIST_SECRET !== undefined && env.WAITLIST_SECRET.length < 16) {
    throw new DomainError('usage_error', 'WAITLIST_SECRET must be at least 16 characters.');
  }
  let schedule: number[];
  try {
    schedule = parseRetrySchedule(env.WAITLIST_WEBHOOK_RETRY_SCHEDULE);
  } catch (error) {
    throw new DomainError('usage_error', (error as Error).message);
  }
  const mail = mailSettings(env);
  const resolver = resolverOf(env);
  const retentionDays = envInt(env, 'WAITLIST_OUTBOX_RETENTION_DAYS', 1, 36_500) ?? OUTBOX_RETENTION_DAYS;
  const stop = options.stopSignal ?? signals();

  surviveFileSizeLimit();
  const store = await openStore(options.db);
  const secret = await tokenSecret(store, env.WAITLIST_SECRET);
  const mx = new MxChecker(resolver, (domain, code) =>
    log.info('mx check inconclusive, signup let through', { domain, code }),
  );
  const policy = webhookPolicy(env, resolver);
  const config = {
    baseUrl: '',
    appUrl: '',
    trustProxy: options.trustProxy,
    keyRateLimit,
    sendsMail: mail !== undefined,
  };
  // Erasures answer once committed; the cleanup of the database's files follows in the background.
  const erasureCleanup = new ErasureCleanup(store, log, systemClock);
  const container = createContainer(
    { store, clock: systemClock, secret, config, log, mx, erasureCleanup },
    policy,
  );

  const health = new DatabaseHealth({ clock: systemClock, log, probe: probeByWriting(store, systemClock) });

  let demoWaitlistId: string | undefined;
  const app = createApp(container, {
    health,
    get demoWaitlistId() {
      return demoWaitlistId;
    },
    dashboard: dashboardRouter(container),
  });
  const server = createServer(app);
  server.keepAliveTimeout = 5000;
  const address = await listen(server, port, host);
  const shownHost =
    host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  config.baseUrl = configuredBase ?? `http://${shownHost}:${address.port}`;
  config.appUrl = configuredApp ?? config.baseUrl;

  if (options.demo) {
    const demo = await seedDemo({ ...container, baseUrl: config.baseUrl }, new URL(config.baseUrl).origin);
    demoWaitlistId = demo.waitlistId;
    if (demo.created) options.stdout(demo.announcement);
  }

  // Attempts are made on a thread of their own (docs/webhooks.md#where-deliveries-run); the outbox's
  // reads, leases and decisions stay on this one, beside the store.
  const sending = new SendingThread(
    { allowPrivate: policy.allowPrivate, dnsServers: env.WAITLIST_DNS_SERVERS, smtpUrl: mail?.url },
    log,
  );
  const outbox = new OutboxWorker(
    { store, clock: systemClock, log, health },
    {
      webhook: sending.webhook,
      mail: mail ? { mailer: sending.mailer, from: mail.from, appUrl: config.appUrl } : undefined,
    },
    { schedule },
  );
  // Once at the start too: a server back after a while prunes at once, not a minute later. While
  // the database is away there is nothing to sweep; the health probe looks for it.
  const housekeeping = sweeper(container, { outboxRetentionMs: retentionDays * DAY_MS });
  housekeeping.sweep();
  const sweeping = setInterval(() => {
    if (!health.down) housekeeping.sweep();
  }, 60_000);
  outbox.start();
  sweeping.unref();

  log.info('listening', {
    url: config.baseUrl,
    port: address.port,
    app_url: config.appUrl,
    mail: mail ? 'smtp' : 'none: confirmation mail waits in the outbox',
  });

  await stop;
  log.info('stopping');
  clearInterval(sweeping);
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
    // Requests still running after 10 s are cut off rather than holding the shutdown forever.
    setTimeout(() => server.closeAllConnections(), 10_000).unref();
  });
  await outbox.stop();
  await housekeeping.stop();
  await erasureCleanup.stop();
  await sending.close();
  health.stop();
  mx.cancel();
  await store.close();
  log.info('stopped');
}
