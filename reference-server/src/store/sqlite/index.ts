/**
 * The SQLite adapter of the store (`../store.ts`): one file in WAL mode, every write through the
 * group committer, single reads on a shared reader connection, snapshots on connections of their
 * own. The repositories bind the statement modules beside this file to a connection.
 */
import { memoryLimiters } from '../memory-limiter.js';
import { repositoriesOver } from '../repositories.js';
import type { Repositories, Store } from '../store.js';
import type { Connection } from './connection.js';
import { type Database, openDatabase } from './database.js';
import * as statements from './statements.js';
import { type FreshSignup, insertOrMatchMany } from './subscribers.js';

/** A busy checkpoint is tried again this often, this many times (a reader's snapshot lasts milliseconds). */
const SCRUB_ATTEMPTS = 50;
const SCRUB_RETRY_MS = 10;

const repositories = repositoriesOver<Connection>(statements);

/** Repositories are plain closures over a connection; each connection gets one set. */
const bound = new WeakMap<Connection, Repositories>();
function on(db: Connection): Repositories {
  let repos = bound.get(db);
  if (!repos) {
    repos = repositories(db);
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

export function storeOver(db: Database, { nowMicros }: Pick<SqliteStoreOptions, 'nowMicros'>): Store {
  // Fresh sign-ups waiting for the writer share one statement (see insertOrMatchMany).
  const fresh = (tx: Connection, inputs: readonly FreshSignup[]) =>
    insertOrMatchMany(tx, inputs, nowMicros());
  return {
    reads: on(db.reader),
    read: (fn) => db.snapshot((tx) => fn(on(tx))),
    write: (fn) => db.writer.submit((tx) => fn(on(tx))),
    signUpFresh: (input) => db.writer.joinGroup(fresh, input),
    // Throttle counters stay in memory, not in the file: see memory-limiter.ts for why.
    limiter: memoryLimiters(),
    // The WAL still holds pages from before the erasure: copy them back and empty it. It runs
    // alone, outside a transaction, as a checkpoint must; it reports busy (and leaves the WAL)
    // while a reader holds an older snapshot, so it is tried again.
    scrub: async () => {
      for (let attempt = 0; attempt < SCRUB_ATTEMPTS; attempt++) {
        const result = await db.writer.submit(
          (tx) => tx.get<{ busy: number }>('PRAGMA wal_checkpoint(TRUNCATE)'),
          { savepoint: false, alone: true },
        );
        if (result?.busy === 0) return;
        await new Promise((resolve) => setTimeout(resolve, SCRUB_RETRY_MS));
      }
    },
    close: () => db.close(),
  };
}

export async function openSqliteStore(path: string, options: SqliteStoreOptions): Promise<Store> {
  const db = await openDatabase(path, { separateReader: options.separateReader ?? true });
  return storeOver(db, options);
}
