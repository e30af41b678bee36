/**
 * The SQLite adapter of the store (`../store.ts`): one file in WAL mode, every write through the
 * group committer, single reads on a shared reader connection, snapshots on connections of their
 * own. The repositories are the shared statements (`../statements/`) on a connection, with
 * SQLite's own line (line.ts, subscribers.ts).
 */
import { memoryLimiters } from '../memory-limiter.js';
import { repositoriesOn } from '../repositories.js';
import type { Repositories, Store } from '../store.js';
import type { Connection } from './connection.js';
import { type Database, openDatabase } from './database.js';
import { sqlite } from './dialect.js';
import { openSqliteImport } from './import.js';
import { sqliteLine } from './line.js';
import { type DraftedSignup, drafted, insertOrMatchMany } from './subscribers.js';

/** A checkpoint costs a copy of the WAL's pages and two fsyncs: erasures within a second share one. */
const SCRUB_SPACING_MS = 1_000;

/** Repositories are plain closures over a connection; each connection gets one set. */
const bound = new WeakMap<Connection, Repositories>();
function on(db: Connection): Repositories {
  let repos = bound.get(db);
  if (!repos) {
    repos = repositoriesOn(db, sqlite, sqliteLine);
    bound.set(db, repos);
  }
  return repos;
}

export interface SqliteStoreOptions {
  /** Microseconds since the epoch: join times, read when a write runs. */
  nowMicros: () => number;
  /** False for one-shot commands: one connection does everything. */
  separateReader?: boolean;
}

export function storeOver(
  db: Database,
  { nowMicros, path }: Pick<SqliteStoreOptions, 'nowMicros'> & { path?: string },
): Store {
  // Fresh sign-ups waiting for the writer share one statement (see insertOrMatchMany), each
  // drafted as it arrives, not by the writer's job.
  const fresh = (tx: Connection, signups: readonly DraftedSignup[]) =>
    insertOrMatchMany(tx, signups, nowMicros());
  return {
    reads: on(db.reader),
    read: (fn) => db.snapshot((tx) => fn(on(tx))),
    write: (fn) => db.writer.submit((tx) => fn(on(tx))),
    signUpFresh: (input) => db.writer.joinGroup(fresh, drafted(input)),
    // An import stages on a connection of its own, so it needs the file, not a connection to it.
    openImport: (waitlistId) =>
      path === undefined || path === ':memory:'
        ? Promise.reject(new Error('An import needs a database file.'))
        : openSqliteImport(path, waitlistId),
    // Throttle counters stay in memory, not in the file: see memory-limiter.ts for why.
    limiter: memoryLimiters(),
    // The WAL still holds pages from before the erasure: copy them back and empty it. It runs
    // alone, outside a transaction, as a checkpoint must. While a reader (a backup, an export)
    // holds a snapshot from before, it cannot finish: it reports busy and leaves the WAL, and
    // the cleanup queue tries again later. Without a busy timeout for this one statement: with
    // the connection's 10 s it would wait that long for the reader, holding the writer and every
    // write queued behind it.
    scrub: async () => {
      const result = await db.writer.submit(
        async (tx) => {
          const busyTimeout = (await tx.get<{ timeout: number }>('PRAGMA busy_timeout'))?.timeout ?? 0;
          await tx.exec('PRAGMA busy_timeout = 0');
          try {
            return await tx.get<{ busy: number }>('PRAGMA wal_checkpoint(TRUNCATE)');
          } finally {
            await tx.exec(`PRAGMA busy_timeout = ${Number(busyTimeout)}`);
          }
        },
        { savepoint: false, alone: true },
      );
      return result?.busy === 0;
    },
    scrubSpacingMs: SCRUB_SPACING_MS,
    close: () => db.close(),
  };
}

export async function openSqliteStore(path: string, options: SqliteStoreOptions): Promise<Store> {
  const db = await openDatabase(path, { separateReader: options.separateReader ?? true });
  return storeOver(db, { ...options, path });
}
