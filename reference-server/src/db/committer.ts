/**
 * Group commit. Write jobs queue up while a transaction is being committed; the next
 * transaction runs every queued job in order, each inside its own savepoint (a failing job
 * leaves nothing behind and does not disturb the others), then commits once. No job's promise
 * settles before that commit has returned, so with `synchronous = FULL` every answer the server
 * sends about a write is durable, and concurrent signups share one fsync instead of paying one
 * each.
 */
import type { Connection } from './sqlite.js';

export type Job<T> = (db: Connection) => Promise<T>;

interface Queued {
  job: Job<unknown>;
  savepoint: boolean;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export interface JobOptions {
  /** False for jobs that are a single statement: a statement is atomic by itself. */
  savepoint?: boolean;
}

export class Committer {
  private queue: Queued[] = [];
  private running: Promise<void> | undefined;
  private closed = false;

  constructor(
    readonly db: Connection,
    private readonly maxBatch = 512,
  ) {}

  submit<T>(job: Job<T>, { savepoint = true }: JobOptions = {}): Promise<T> {
    if (this.closed) return Promise.reject(new Error('the database is closing'));
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ job, savepoint, resolve: resolve as (value: unknown) => void, reject });
      this.running ??= this.drain();
    });
  }

  /** Waits for queued jobs, then refuses new ones. */
  async close(): Promise<void> {
    this.closed = true;
    await this.running;
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.maxBatch);
        await this.commit(batch);
      }
    } finally {
      this.running = undefined;
    }
  }

  private async commit(batch: Queued[]): Promise<void> {
    const results: { ok: boolean; value: unknown }[] = [];
    try {
      await this.db.run('BEGIN IMMEDIATE');
    } catch (error) {
      for (const item of batch) item.reject(error);
      return;
    }
    for (const item of batch) {
      try {
        if (item.savepoint) await this.db.run('SAVEPOINT job');
        const value = await item.job(this.db);
        if (item.savepoint) await this.db.run('RELEASE job');
        results.push({ ok: true, value });
      } catch (error) {
        if (item.savepoint) {
          await this.db.run('ROLLBACK TO job').catch(() => undefined);
          await this.db.run('RELEASE job').catch(() => undefined);
        }
        results.push({ ok: false, value: error });
      }
    }
    try {
      await this.db.run('COMMIT');
    } catch (error) {
      await this.db.run('ROLLBACK').catch(() => undefined);
      for (const item of batch) item.reject(error);
      return;
    }
    batch.forEach((item, i) => {
      const result = results[i] as { ok: boolean; value: unknown };
      if (result.ok) item.resolve(result.value);
      else item.reject(result.value);
    });
  }
}
