/**
 * The locks a write takes where several writers run at once (PostgreSQL, any number of processes
 * on one database), each held until its transaction ends, so that writes touching one thing take
 * turns and each sees what the previous one committed. SQLite's single writer already applies
 * the writes one after another: there these take nothing, and answer false.
 */
import type { Db } from '../db.js';
import type { Dialect } from '../dialect.js';

/** NO KEY: rows that merely refer to the locked one (a subscriber to its waitlist) are not held up. */
const LOCK_ROW = {
  tenants: 'SELECT 1 FROM tenants WHERE id = ? FOR NO KEY UPDATE',
  waitlists: 'SELECT 1 FROM waitlists WHERE id = ? FOR NO KEY UPDATE',
} as const;

/** Locks the row; true when it did, so that what was read before it may be read again under it. */
export async function lockRow(
  db: Db,
  d: Dialect,
  table: keyof typeof LOCK_ROW,
  id: string,
): Promise<boolean> {
  if (!d.concurrentWriters) return false;
  await db.run(LOCK_ROW[table], [id]);
  return true;
}

/** Locks a pair of names that has no row yet (a request's API key and Idempotency-Key). */
export async function lockPair(db: Db, d: Dialect, first: string, second: string): Promise<void> {
  if (!d.concurrentWriters) return;
  await db.run(
    'SELECT pg_advisory_xact_lock(hashtextextended(CAST(? AS TEXT) || chr(10) || CAST(? AS TEXT), 0))',
    [first, second],
  );
}
