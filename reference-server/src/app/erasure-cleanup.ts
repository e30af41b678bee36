/**
 * The cleanup after erasures, for every door (the API, the dashboard, the command line). An
 * erasure answers once it has committed: the row and everything carrying it are gone for every
 * reader. What is left are old copies in the database's files (SQLite's WAL, PostgreSQL's dead
 * row versions), which the store's `scrub` removes in one attempt that says whether it finished.
 * This queue decides when attempts run (domain/cleanup-schedule.ts): erasures close together
 * share one cleanup, an unfinished one is tried again until it finishes, one at a time, never on
 * a request's path; the log says when each ran, how long it took, and when it was late.
 */
import type { Clock } from '../adapters/clock.js';
import type { Logger } from '../adapters/logger.js';
import { cleanupBeginsAt, LATE_AFTER_MS, retryWait } from '../domain/cleanup-schedule.js';
import type { Store } from '../store/store.js';

/** One cleanup: the erasures it covers, from its first attempt until one finishes. */
interface Round {
  erasures: number;
  /** When the newest erasure it covers was asked for: what a reader must not predate. */
  since: number;
  began: number;
  attempts: number;
  late: boolean;
  lateTimer: ReturnType<typeof setTimeout>;
  errorLogged: boolean;
}

export class ErasureCleanup {
  /** Erasures asked for and not yet in a round: they share the next one. */
  private waiting = 0;
  private newestErasure = 0;
  private round: Round | undefined;
  private lastBegan: number | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running: Promise<void> | undefined;
  private readonly onIdle: (() => void)[] = [];
  private stopped = false;

  /**
   * `inline`: for a one-shot command, `erased` waits until the cleanup has finished, so nothing
   * is left for a process about to exit; a server's queue answers at once.
   */
  constructor(
    private readonly store: Pick<Store, 'scrub' | 'scrubSpacingMs'>,
    private readonly log: Logger,
    private readonly clock: Clock,
    private readonly inline = false,
  ) {}

  /** After an erasure has committed: its cleanup is queued (and, inline, awaited). Never throws. */
  async erased(): Promise<void> {
    if (this.stopped) return;
    this.waiting++;
    this.newestErasure = this.clock.now();
    this.schedule();
    if (this.inline) await this.settled();
  }

  /** Resolves once no cleanup is waiting or running (tests; one-shot commands). */
  settled(): Promise<void> {
    if (this.idle()) return Promise.resolve();
    return new Promise((resolve) => this.onIdle.push(resolve));
  }

  /**
   * At shutdown: no new attempt is scheduled; what is owed gets one more attempt now (the round
   * under way, then the erasures waiting for the spacing), and is said when it could not finish:
   * the next cleanup, of any process on the database, covers it.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
    if (this.round) await this.attempt();
    if (!this.round && this.waiting > 0) await this.attempt();
    if (this.round || this.waiting > 0) {
      this.log.info('erasure cleanup unfinished at shutdown', {
        erasures: (this.round?.erasures ?? 0) + this.waiting,
      });
    }
    if (this.round) clearTimeout(this.round.lateTimer);
    this.round = undefined;
    this.waiting = 0;
    this.wake();
  }

  private idle(): boolean {
    return this.waiting === 0 && this.round === undefined && this.running === undefined;
  }

  private wake(): void {
    for (const resolve of this.onIdle.splice(0)) resolve();
  }

  private schedule(): void {
    if (this.stopped || this.timer || this.running) return;
    if (this.idle()) {
      this.wake();
      return;
    }
    const now = this.clock.now();
    const at = this.round
      ? now + retryWait(this.round.attempts)
      : cleanupBeginsAt(this.lastBegan, now, this.store.scrubSpacingMs);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.running = this.attempt().finally(() => {
        this.running = undefined;
        this.schedule();
      });
    }, at - now);
    // A server's queue must not keep a stopping process alive; a one-shot command awaits it.
    if (!this.inline) this.timer.unref?.();
  }

  /** One attempt of the current round, or of a new one covering every erasure waiting. */
  private async attempt(): Promise<void> {
    const round = this.round ?? this.begin();
    round.attempts++;
    const start = this.clock.now();
    let finished = false;
    try {
      finished = await this.store.scrub(round.since);
    } catch (error) {
      // Said once a round: a database away for an hour would otherwise say it every 5 s.
      if (!round.errorLogged)
        this.log.error('erasure cleanup failed, trying again', { error: String(error) });
      round.errorLogged = true;
    }
    if (!finished) return;
    const end = this.clock.now();
    clearTimeout(round.lateTimer);
    this.round = undefined;
    this.log.info(round.late ? 'erasure cleanup finished late' : 'erasure cleanup finished', {
      erasures: round.erasures,
      attempts: round.attempts,
      took_ms: end - start,
      after_ms: end - round.began,
    });
  }

  private begin(): Round {
    const began = this.clock.now();
    const round: Round = {
      erasures: this.waiting,
      since: this.newestErasure,
      began,
      attempts: 0,
      late: false,
      errorLogged: false,
      lateTimer: setTimeout(() => {
        round.late = true;
        this.log.info('erasure cleanup is late, still waiting', {
          erasures: round.erasures,
          attempts: round.attempts,
          after_ms: this.clock.now() - began,
        });
      }, LATE_AFTER_MS),
    };
    round.lateTimer.unref?.();
    this.waiting = 0;
    this.lastBegan = began;
    this.round = round;
    return round;
  }
}
