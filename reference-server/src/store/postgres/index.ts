/**
 * The PostgreSQL adapter of the store (`../store.ts`): several `serve` processes on one database
 * act as one server. Every write is a transaction on a pooled connection (database.ts), single
 * reads go to any pooled connection, snapshots are REPEATABLE READ transactions. The repositories
 * are the statements both stores share (`../statements/`), which lock rows here where SQLite
 * relies on its single writer, with PostgreSQL's own line (line.ts, subscribers.ts).
 */
import pg from 'pg';
import { storeUnavailable } from '../../domain/errors.js';
import { repositoriesOn } from '../repositories.js';
import type { FreshSignupInput, FreshSignupResult, Repositories, Store } from '../store.js';
import type { Connection } from './connection.js';
import { openDatabase } from './database.js';
import { postgres } from './dialect.js';
import { Groups, type Settled } from './groups.js';
import { openPostgresImport } from './import.js';
import { postgresLine } from './line.js';
import { signUpGroup } from './signup-group.js';
import { postgresLimiter } from './throttles.js';

const repositories = (db: Connection): Repositories => repositoriesOn(db, postgres, postgresLine);

export interface PostgresStoreOptions {
  /** Microseconds since the epoch: join times, read when a write runs. */
  nowMicros: () => number;
  /** Connections in the pool: a server's requests share them; a one-shot command needs few. */
  connections?: number;
}

/** Tables that hold a subscriber's data, and so old versions of an erased one's rows. */
export const HOLDING_SUBSCRIBER_DATA = [
  'subscribers',
  'deliveries',
  'delivery_attempts',
  'events',
  'idempotency',
];

/** A VACUUM reads every index of these tables whole: erasures within a minute share one. */
const SCRUB_SPACING_MS = 60_000;

export async function openPostgresStore(url: string, options: PostgresStoreOptions): Promise<Store> {
  const db = await openDatabase(url, { connections: options.connections ?? 10 });
  const { nowMicros } = options;
  const signUpOf = (waitlistId: string, inputs: readonly FreshSignupInput[]) =>
    signUpGroup(db, waitlistId, inputs, nowMicros);
  // Fresh sign-ups of a waitlist arriving while its last group is written make the next group:
  // one transaction, one lock of its row and one WAL flush for all (signup-group.ts).
  const signUps = new Groups<FreshSignupInput, FreshSignupResult>(async (waitlistId, inputs) => {
    try {
      return (await signUpOf(waitlistId, inputs)).map((value) => ({ ok: true, value }));
    } catch (error) {
      // A statement refused for one sign-up's values fails its whole transaction: each is then
      // signed up alone, so that only its own fails. The database away fails them all at once.
      if (inputs.length === 1 || storeUnavailable(error)) return inputs.map(() => ({ ok: false, error }));
      return Promise.all(
        inputs.map((input) =>
          signUpOf(waitlistId, [input]).then(
            ([value]): Settled<FreshSignupResult> =>
              value ? { ok: true, value } : { ok: false, error: new Error('no answer') },
            (alone: unknown): Settled<FreshSignupResult> => ({ ok: false, error: alone }),
          ),
        ),
      );
    }
  });
  return {
    reads: repositories(db.reader),
    read: (fn) => db.snapshot((tx) => fn(repositories(tx))),
    write: (fn) => db.write((tx) => fn(repositories(tx))),
    signUpFresh: (input) => signUps.join(input.waitlistId, input),
    openImport: (waitlistId) => openPostgresImport(db.pool, waitlistId),
    limiter: (name, rule) => postgresLimiter(db, name, rule),
    // A deleted row stays in its table's and indexes' pages, as a dead version, until VACUUM
    // removes it; INDEX_CLEANUP ON, so that the index entries (the email's among them) go too,
    // however few they are. It visits only the pages changed since the last vacuum (the
    // visibility map), but every index whole. A transaction whose snapshot is older than the
    // erasures still sees their rows, and VACUUM would leave them: while one is open, the
    // attempt does not vacuum and says so, to be tried again. On a connection of its own, not
    // one of the pool the requests share.
    scrub: (since) => scrubOnce(url, since),
    scrubSpacingMs: SCRUB_SPACING_MS,
    close: () => db.close(),
  };
}

/**
 * Open transactions of this database, but this session, that began before `since` (ms) and
 * hold a snapshot or a transaction id: they keep what an erasure since deleted. Sessions of
 * other roles show these columns only to a member of pg_read_all_stats (or a superuser).
 */
const OLDER_TRANSACTIONS = `SELECT count(*)::int AS n FROM pg_stat_activity
  WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'
    AND (backend_xmin IS NOT NULL OR backend_xid IS NOT NULL)
    AND xact_start < to_timestamp($1::float8 / 1000)`;

async function scrubOnce(url: string, since: number): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  // A connection the server ends mid-vacuum fails the attempt, not the process.
  client.on('error', () => undefined);
  await client.connect();
  try {
    const older = await client.query<{ n: number }>(OLDER_TRANSACTIONS, [since]);
    if ((older.rows[0]?.n ?? 0) > 0) return false;
    // A table someone holds locked (another VACUUM, an ALTER) fails this attempt after a few
    // seconds, to be tried again, rather than holding the queue (and a shutdown) until it is free.
    await client.query("SET lock_timeout = '5s'");
    await client.query(`VACUUM (INDEX_CLEANUP ON) ${HOLDING_SUBSCRIBER_DATA.join(', ')}`);
    return true;
  } finally {
    await client.end().catch(() => undefined);
  }
}
