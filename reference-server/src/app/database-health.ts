/**
 * The database's health in a running server (the rule: domain/outage.ts). Every door and loop
 * that meets a store failure hands it to `observe`: an outage is logged when it begins and when
 * it ends, once each, and meanwhile the server answers 503 with Retry-After, /healthz says so,
 * and the background loops pause while a probe looks for the database, sooner then less often.
 * Requests are never held back: each one still tries the database, so the first after its
 * return succeeds.
 */
import { randomBytes } from 'node:crypto';
import type { Clock } from '../adapters/clock.js';
import type { Logger } from '../adapters/logger.js';
import { type DatabaseFailure, storeUnavailable } from '../domain/errors.js';
import { failed, type Health, probeDelayMs, probed, retryAfterSeconds, UP } from '../domain/outage.js';
import type { Store } from '../store/store.js';

/**
 * A write that must reach the disk, and leaves nothing: a token recorded as redeemed, already
 * expired, then forgotten with the other expired ones (the sweeper's work). A read would not do:
 * SQLite on a full disk or a read-only file still reads; nor would a write that changes nothing,
 * which writes nothing.
 */
export function probeByWriting(store: Store, clock: Clock): () => Promise<void> {
  return () =>
    store.write(async (tx) => {
      await tx.tokens.redeem([{ id: `probe_${randomBytes(12).toString('base64url')}`, expiresAt: 0 }]);
      await tx.tokens.forgetExpired(clock.now());
    });
}

export class DatabaseHealth {
  private health: Health = UP;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly deps: { clock: Clock; log: Logger; probe: () => Promise<void> }) {}

  /** True from an outage's first failure until a probe wrote again. */
  get down(): boolean {
    return !this.health.up;
  }

  /** What /healthz says while down: since when, and the driver's word for it. */
  get outage(): { since: number; code: string } | undefined {
    return this.health.up ? undefined : { since: this.health.since, code: this.health.code };
  }

  /**
   * Whether `error` is the store unable to work now (then the caller answers 503 and logs
   * nothing itself); an outage's first failure begins it. A busy database is no outage.
   */
  observe(error: unknown): error is DatabaseFailure {
    if (!storeUnavailable(error)) return false;
    if (error.code === 'database_unavailable') this.fail(error);
    return true;
  }

  /** Retry-After, in seconds, for a failure `observe` accepted, or for the outage under way. */
  retryAfter(error?: DatabaseFailure): number {
    return retryAfterSeconds(error?.code === 'database_busy' ? 'busy' : 'unavailable');
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private fail(error: DatabaseFailure): void {
    const { health, began } = failed(this.health, this.deps.clock.now(), error.reason);
    this.health = health;
    if (!began) return;
    this.deps.log.error('database unavailable', { code: error.reason, error: error.message });
    this.schedule();
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.probe(), probeDelayMs(this.health));
    this.timer.unref();
  }

  private async probe(): Promise<void> {
    const wrote = await this.deps.probe().then(
      () => true,
      () => false,
    );
    const { health, ended } = probed(this.health, this.deps.clock.now(), wrote);
    this.health = health;
    if (ended) this.deps.log.info('database available again', { code: ended.code, down_ms: ended.downMs });
    else this.schedule();
  }
}
