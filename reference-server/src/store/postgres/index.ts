/**
 * The PostgreSQL adapter of the store (`../store.ts`): several `serve` processes on one database
 * act as one server. Every write is a transaction on a pooled connection (database.ts), single
 * reads go to any pooled connection, snapshots are REPEATABLE READ transactions. The statement
 * modules beside this file mirror the SQLite adapter's, one per aggregate; where SQLite relies
 * on its single writer, they say what takes its place.
 */
import { repositoriesOver } from '../repositories.js';
import type { FreshSignupResult, Store } from '../store.js';
import type { Connection } from './connection.js';
import { openDatabase } from './database.js';
import * as statements from './statements.js';
import { insertOrMatchSubscriber } from './subscribers.js';
import { postgresLimiter } from './throttles.js';
import { redeemTokens } from './tokens.js';

const repositories = repositoriesOver<Connection>(statements);

export interface PostgresStoreOptions {
  /** Microseconds since the epoch: join times, read when a write runs. */
  nowMicros: () => number;
  /** Connections in the pool: a server's requests share them; a one-shot command needs few. */
  connections?: number;
}

/** Tables that hold a subscriber's data, and so old versions of an erased one's rows. */
const HOLDING_SUBSCRIBER_DATA = ['subscribers', 'deliveries', 'delivery_attempts', 'events', 'idempotency'];

export async function openPostgresStore(url: string, options: PostgresStoreOptions): Promise<Store> {
  const db = await openDatabase(url, { connections: options.connections ?? 10 });
  const { nowMicros } = options;
  return {
    reads: repositories(db.reader),
    read: (fn) => db.snapshot((tx) => fn(repositories(tx))),
    write: (fn) => db.write((tx) => fn(repositories(tx))),
    // No batching: each sign-up is a transaction of its own, and sign-ups of one waitlist take
    // turns on its row lock whichever way they come; grouping them would save round trips only.
    // Its gate tokens are redeemed in the same transaction: one taken first (by any process)
    // and nobody is signed up. The tokens it did win stay redeemed, as on SQLite.
    signUpFresh: ({ tokens = [], ...input }) =>
      db.write(async (tx): Promise<FreshSignupResult> => {
        const taken = await redeemTokens(tx, tokens);
        if (taken.length > 0) return { outcome: 'tokens_taken', taken };
        return insertOrMatchSubscriber(tx, { ...input, referralCode: undefined }, nowMicros());
      }),
    limiter: (name, rule) => postgresLimiter(db, name, rule),
    // A deleted row stays in its page, as a dead version, until VACUUM prunes it: run it on the
    // tables an erasure deleted from. It visits only pages changed since the last vacuum (the
    // visibility map), so it costs about what the erasure changed. Best effort: a transaction
    // still open may keep old versions, and the WAL keeps them until its segments are recycled.
    scrub: async () => {
      await db.reader.exec(`VACUUM ${HOLDING_SUBSCRIBER_DATA.join(', ')}`);
    },
    close: () => db.close(),
  };
}
