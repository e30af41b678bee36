/**
 * The server's connections to PostgreSQL: one pool, shared by every process's requests. Unlike
 * SQLite there is no single writer to order the writes: several `serve` processes may write at
 * once, so each write is a transaction that orders itself against the others with row locks
 * (see subscribers.ts: the waitlist row), unique indexes and `ON CONFLICT`.
 *
 * Isolation: writes run READ COMMITTED. Each statement sees what committed before it started,
 * so a statement run after taking a lock sees the work of whoever held it, which is what the
 * locks are for; SERIALIZABLE would instead fail and retry every pair of sign-ups of one
 * waitlist. A deadlock (or a serialization failure, should a statement raise one) rolls the
 * transaction back, and it runs again. Snapshots (`read`) are REPEATABLE READ READ ONLY: every
 * statement of one answer sees one committed state.
 */
import type pg from 'pg';
import { Connection, openPool, RETRYABLE, type Statement, sqlState, translated } from './connection.js';
import { migrate } from './migrations.js';

export interface Database {
  /** Single statements, each on any free connection. */
  reader: Connection;
  write<T>(fn: (db: Connection) => Promise<T>): Promise<T>;
  /**
   * A write whose COMMIT does not wait for its WAL record to reach the disk (`synchronous_commit
   * = off`): it is visible to others at once, but a crash of the database within a fraction of a
   * second may undo it. Only for state that may be forgotten: the throttles' counts (throttles.ts).
   */
  writeUnflushed<T>(fn: (db: Connection) => Promise<T>): Promise<T>;
  /**
   * A write in as few round trips as it allows (groups.ts's writers): `opening` travels with its
   * BEGIN and the `closing` that `fn` answers with its COMMIT, each as one text (`Connection.batch`);
   * `fn` gets the rows of each opening statement. `flushed: false` commits as `writeUnflushed`.
   */
  writeFramed<T>(
    opening: readonly Statement[],
    fn: (db: Connection, opened: unknown[][]) => Promise<Framed<T>>,
    options?: { flushed?: boolean },
  ): Promise<T>;
  snapshot<T>(fn: (db: Connection) => Promise<T>): Promise<T>;
  pool: pg.Pool;
  close(): Promise<void>;
}

/** What a framed write's function answers: its value, and the statements to send with its COMMIT. */
export interface Framed<T> {
  value: T;
  closing?: readonly Statement[];
}

const READ_COMMITTED: readonly Statement[] = [['BEGIN ISOLATION LEVEL READ COMMITTED']];
const UNFLUSHED: readonly Statement[] = [...READ_COMMITTED, ['SET LOCAL synchronous_commit = off']];

/** How often a write that lost a race (a deadlock) runs again before its error is the answer. */
const ATTEMPTS = 5;

export async function openDatabase(url: string, { connections = 10 } = {}): Promise<Database> {
  const pool = openPool(url, connections);
  try {
    await migrate(pool);
  } catch (error) {
    await pool.end();
    // The first thing a server or command does with the URL: say which database failed, never
    // with the password.
    const { hostname, port, pathname } = new URL(url);
    throw new Error(
      `PostgreSQL at ${hostname || 'localhost'}${port ? `:${port}` : ''}${pathname}: ${(error as Error).message}`,
    );
  }

  async function transaction<T>(
    begin: readonly Statement[],
    opening: readonly Statement[],
    fn: (db: Connection, opened: unknown[][]) => Promise<Framed<T>>,
  ): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const client = await pool.connect().catch((error: unknown) => {
        throw translated(error);
      });
      let broken: Error | undefined;
      // The pool listens for a connection's death only while it is idle. One that dies while it
      // is ours (the server restarted, the network went) reports it as an 'error' event of its
      // client: heard here, it fails the transaction and the client is discarded; unheard, it
      // would end the process.
      const died = (error: Error) => {
        broken = error;
      };
      client.on('error', died);
      try {
        const tx = new Connection(client, pool);
        const opened = (await tx.batch([...begin, ...opening])).slice(begin.length);
        const { value, closing = [] } = await fn(tx, opened);
        // Only a COMMIT that answered is a commit: one whose answer was lost may or may not have
        // happened, and is reported as a failure (a 503), never as done.
        await tx.batch([...closing, ['COMMIT']]);
        return value;
      } catch (error) {
        if (!broken)
          await client.query('ROLLBACK').catch((e: Error) => {
            broken = e;
          });
        if (attempt < ATTEMPTS && RETRYABLE.has(sqlState(error) ?? '')) continue;
        throw translated(error);
      } finally {
        client.off('error', died);
        // A connection that died, or could not even roll back, is discarded, not handed to the
        // next caller.
        client.release(broken);
      }
    }
  }

  return {
    reader: new Connection(pool),
    write: (fn) => transaction(READ_COMMITTED, [], plain(fn)),
    writeUnflushed: (fn) => transaction(UNFLUSHED, [], plain(fn)),
    writeFramed: (opening, fn, { flushed = true } = {}) =>
      transaction(flushed ? READ_COMMITTED : UNFLUSHED, opening, fn),
    snapshot: (fn) => transaction([['BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY']], [], plain(fn)),
    pool,
    close: () => pool.end(),
  };
}

/** A transaction's function that sends nothing with its COMMIT. */
const plain =
  <T>(fn: (db: Connection) => Promise<T>) =>
  async (db: Connection): Promise<Framed<T>> => ({ value: await fn(db) });
