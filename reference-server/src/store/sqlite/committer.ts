/**
 * Group commit. Write jobs queue up while a transaction is being committed; the next
 * transaction runs every queued job in order, each inside its own savepoint (a failing job
 * leaves nothing behind and does not disturb the others), then commits once. No job's promise
 * settles before that commit has returned, so with `synchronous = FULL` every answer the server
 * sends about a write is durable, and concurrent signups share one fsync instead of paying one
 * each. Inputs of the same kind can also share one job (`joinGroup`), so that one statement
 * writes them all.
 */
import { storeUnavailable } from '../../domain/errors.js';
import type { Connection } from './connection.js';
import { configure } from './migrations.js';

export type Job<T> = (db: Connection) => Promise<T>;

/** A job over many inputs at once: answers one output per input, in order. */
export type GroupJob<I, O> = (db: Connection, inputs: readonly I[]) => Promise<O[]>;

interface OpenGroup<I, O> {
  inputs: I[];
  waiters: { resolve: (value: O) => void; reject: (error: unknown) => void }[];
}

interface Queued {
  job: Job<unknown>;
  savepoint: boolean;
  autocommit: boolean;
  alone: boolean;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export interface JobOptions {
  /** False for jobs that are a single statement: a statement is atomic by itself. */
  savepoint?: boolean;
  /**
   * True for jobs whose statements may each commit on their own (no statement depends on an
   * earlier one's effect being undone with it). Such a job, alone in its batch, runs without an
   * enclosing transaction: one round trip to the driver instead of three, each statement
   * committed (and fsynced) before the next, all before the job's promise settles.
   */
  autocommit?: boolean;
  /**
   * True for a job that SQLite refuses inside any transaction (a WAL checkpoint). It gets a
   * batch of its own, never shared with jobs queued before or after it; implies `autocommit`.
   */
  alone?: boolean;
}

/** How often a writer that found its file read-only opens it again to see whether it may write. */
const REOPEN_EVERY_MS = 1_000;

export class Committer {
  private queue: Queued[] = [];
  private reopenedAt = Number.NEGATIVE_INFINITY;
  private running: Promise<void> | undefined;
  private closed = false;
  private readonly groups = new Map<GroupJob<never, unknown>, OpenGroup<unknown, unknown>>();

  constructor(
    readonly db: Connection,
    private readonly maxBatch = 512,
  ) {}

  submit<T>(
    job: Job<T>,
    { savepoint = true, autocommit = false, alone = false }: JobOptions = {},
  ): Promise<T> {
    if (this.closed) return Promise.reject(new Error('the database is closing'));
    return new Promise<T>((resolve, reject) => {
      const resolveAny = resolve as (value: unknown) => void;
      this.queue.push({
        job,
        savepoint,
        autocommit: autocommit || alone,
        alone,
        resolve: resolveAny,
        reject,
      });
      this.running ??= this.drain();
    });
  }

  /**
   * Adds `input` to the open group of `run`: every input that arrives before the committer
   * reaches the group is handled by one call of `run`. `run` must be an `autocommit` job: the
   * inputs are independent, and a statement of it may commit without the others. The point is the
   * statements: a group job can write many rows with one statement where separate jobs need one
   * round trip to the driver each, on the serial path that bounds write throughput.
   */
  joinGroup<I, O>(run: GroupJob<I, O>, input: I): Promise<O> {
    if (this.closed) return Promise.reject(new Error('the database is closing'));
    const key = run as GroupJob<never, unknown>;
    const open = this.groups.get(key) as OpenGroup<I, O> | undefined;
    const group: OpenGroup<I, O> = open ?? { inputs: [], waiters: [] };
    const answer = new Promise<O>((resolve, reject) => {
      group.inputs.push(input);
      group.waiters.push({ resolve, reject });
    });
    // Submitted only once the first input is in: an idle committer starts the job at once.
    if (!open) {
      this.groups.set(key, group as OpenGroup<unknown, unknown>);
      this.submit(
        async (db) => {
          this.groups.delete(key);
          return run(db, group.inputs);
        },
        { savepoint: false, autocommit: true },
      ).then(
        (outputs) => {
          for (const [i, w] of group.waiters.entries()) w.resolve(outputs[i] as O);
        },
        (error: unknown) => {
          // A batch that never began (its BEGIN refused, the file found read-only) fails its jobs
          // without running them: the group must close here too, or every later input would join
          // a group that no job will ever run.
          if (this.groups.get(key) === group) this.groups.delete(key);
          for (const w of group.waiters) w.reject(error);
        },
      );
    }
    return answer;
  }

  /** Waits for queued jobs, then refuses new ones. */
  async close(): Promise<void> {
    this.closed = true;
    await this.running;
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) await this.commit(this.nextBatch());
    } finally {
      this.running = undefined;
    }
  }

  /** Up to `maxBatch` queued jobs in order, ending before a job that must run alone. */
  private nextBatch(): Queued[] {
    if (this.queue[0]?.alone) return this.queue.splice(0, 1);
    const end = this.queue.findIndex((item, i) => item.alone || i === this.maxBatch);
    return this.queue.splice(0, end === -1 ? this.queue.length : end);
  }

  private async commit(batch: Queued[]): Promise<void> {
    // Checked before awaiting anything: an idle writer starts a lone job at once (joinGroup).
    if (this.db.foundReadOnly) {
      try {
        await this.reopenIfReadOnly();
      } catch (error) {
        for (const item of batch) item.reject(error);
        return;
      }
    }
    const [only] = batch;
    if (batch.length === 1 && only?.autocommit) {
      await only.job(this.db).then(only.resolve, only.reject);
      return;
    }
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
        // A full disk, an I/O error or a read-only file fails every job after this one too, and
        // SQLite may already have rolled the whole transaction back: the jobs after it would then
        // run outside any transaction, each committed on its own and then reported as failed.
        // The batch ends here instead, all of it undone and failed.
        if (storeUnavailable(error) || !(await this.undo(item))) return this.abandon(batch, error);
        results.push({ ok: false, value: error });
      }
    }
    try {
      await this.db.run('COMMIT');
    } catch (error) {
      return this.abandon(batch, error);
    }
    batch.forEach((item, i) => {
      const result = results[i] as { ok: boolean; value: unknown };
      if (result.ok) item.resolve(result.value);
      else item.reject(result.value);
    });
  }

  /** Undoes a failed job's work; false when that was not possible (no transaction left to undo in). */
  private async undo(item: Queued): Promise<boolean> {
    if (!item.savepoint) return true;
    try {
      await this.db.run('ROLLBACK TO job');
      await this.db.run('RELEASE job');
      return true;
    } catch {
      return false;
    }
  }

  /** Rolls back what the batch did, if SQLite has not already, and fails every job of it. */
  private async abandon(batch: Queued[], error: unknown): Promise<void> {
    await this.db.run('ROLLBACK').catch(() => undefined);
    for (const item of batch) item.reject(error);
  }

  /**
   * A file that was read-only when the writer opened it stays read-only to it (see
   * `foundReadOnly`): once a write found it so, the writer opens it again, at most once a
   * second, so the server writes again as soon as the file may be written, with no restart.
   */
  private async reopenIfReadOnly(): Promise<void> {
    if (Date.now() - this.reopenedAt < REOPEN_EVERY_MS) return;
    this.reopenedAt = Date.now();
    await this.db.reopen();
    await configure(this.db, { writer: true });
  }
}
