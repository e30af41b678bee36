/**
 * Item 4's probe on PostgreSQL: the database work of one public sign-up of 4a, run by the server's
 * own store code (bundled from its source, server-source.ts) on an otherwise idle cluster, its
 * phases timed.
 */
import { join } from 'node:path';
import { importServerSource } from './server-source.js';

/** A statement runner of the server's PostgreSQL store (store/postgres/database.ts's transaction handle). */
interface Tx {
  run(sql: string, params?: readonly unknown[]): Promise<unknown>;
  get(sql: string, params?: readonly unknown[]): Promise<unknown>;
  all(sql: string, params?: readonly unknown[]): Promise<unknown>;
  exec(sql: string): Promise<unknown>;
}

type Write = <T>(fn: (tx: Tx) => Promise<T>) => Promise<T>;

interface PostgresDatabase {
  reader: Pick<Tx, 'get'>;
  write: Write;
  writeUnflushed: Write;
  close(): Promise<void>;
}

interface StoreCode {
  openDatabase(url: string, options: { connections: number }): Promise<PostgresDatabase>;
  signUpGroup(
    tx: Tx,
    waitlistId: string,
    inputs: { waitlistId: string; email: string; emailNorm: string; confirm: false }[],
    nowUs: number,
  ): Promise<{ outcome: string }[]>;
  postgresLimiter(
    db: PostgresDatabase,
    name: string,
    policy: unknown,
  ): { take(key: string, nowMs: number, limit: { capacity: number; windowMs: number }): Promise<unknown> };
  slidingWindow: unknown;
}

const STORE_ENTRY = `
export { openDatabase } from './store/postgres/database.ts';
export { signUpGroup } from './store/postgres/signup-group.ts';
export { postgresLimiter } from './store/postgres/throttles.ts';
export { slidingWindow } from './domain/throttle.ts';
`;

/** When a write's phases happened (performance.now()). */
interface Timed<T> {
  value: T;
  start: number;
  /** The first statement that locks rows (FOR UPDATE, FOR NO KEY UPDATE, an upsert's DO UPDATE) was sent. */
  lock: number;
  /** Its function returned (COMMIT is sent next). */
  fnEnd: number;
  /** COMMIT returned: the WAL flushed and the locks released. */
  end: number;
}

/** A write (`db.write` or `db.writeUnflushed`) whose phases are timed. */
async function timedWrite<T>(write: Write, fn: (tx: Tx) => Promise<T>): Promise<Timed<T>> {
  const start = performance.now();
  let lock = Number.NaN;
  let fnEnd = Number.NaN;
  /** `sql` noted (the time of the first locking statement), then `send()` sends it. */
  const mark = <R>(sql: string, send: () => Promise<R>) => {
    if (Number.isNaN(lock) && /\b(FOR (NO KEY )?UPDATE|DO UPDATE)\b/.test(sql)) lock = performance.now();
    return send();
  };
  const value = await write(async (tx) => {
    const timed: Tx = {
      run: (sql, params) => mark(sql, () => tx.run(sql, params)),
      get: (sql, params) => mark(sql, () => tx.get(sql, params)),
      all: (sql, params) => mark(sql, () => tx.all(sql, params)),
      exec: (sql) => mark(sql, () => tx.exec(sql)),
    };
    const result = await fn(timed);
    fnEnd = performance.now();
    return result;
  });
  return { value, start, lock, fnEnd, end: performance.now() };
}

/** A group's transaction (BEGIN to COMMIT returned), the waitlist row's lock held, and its COMMIT alone. */
export interface GroupTimings {
  whole: number[];
  held: number[];
  commit: number[];
}

/** Milliseconds per phase, one entry per round. */
export interface SignupTimings {
  /** A `SELECT 1` round trip. */
  rtt: number[];
  /** The per-IP throttle's take: its whole transaction, and its row lock held. */
  take: number[];
  takeHeld: number[];
  /** A lone sign-up: a group of one. */
  one: GroupTimings;
  /** A group of `GROUP` sign-ups, as under load. */
  group: GroupTimings;
}

/** The size of the probe's larger group: half of item 4's 50 connections. */
export const GROUP = 25;

/**
 * `n` rounds, each: a round trip (`SELECT 1`), the per-IP throttle's take (a transaction of its
 * own), a sign-up alone and a group of `GROUP` sign-ups, each group one transaction of the
 * server's own code (store/postgres/signup-group.ts). A lock is held from the locking statement
 * sent to COMMIT returned.
 */
export async function timeSignupTransactions({
  tmpDir,
  url,
  waitlistId,
  n,
}: {
  tmpDir: string;
  url: string;
  waitlistId: string;
  n: number;
}): Promise<SignupTimings> {
  const code = await importServerSource<StoreCode>(STORE_ENTRY, join(tmpDir, 'postgres-store.mjs'));
  const db = await code.openDatabase(url, { connections: 2 });
  try {
    // The limiter sees only the database's writes: give it timed ones, each noting its phases.
    let lastTake: Timed<unknown> | undefined;
    const timed =
      (write: Write): Write =>
      async (fn) => {
        const t = await timedWrite(write, fn);
        lastTake = t;
        return t.value;
      };
    const limiter = code.postgresLimiter(
      { ...db, write: timed(db.write), writeUnflushed: timed(db.writeUnflushed) },
      'ip',
      code.slidingWindow,
    );
    const limit = { capacity: 1_000_000, windowMs: 60_000 };
    const phases = (): GroupTimings => ({ whole: [], held: [], commit: [] });
    const out: SignupTimings = { rtt: [], take: [], takeHeld: [], one: phases(), group: phases() };
    let signedUp = 0;
    const signUp = async (size: number, into: GroupTimings) => {
      const inputs = Array.from({ length: size }, () => {
        const email = `probe.${signedUp++}@bench-mail.example`;
        return { waitlistId, email, emailNorm: email, confirm: false as const };
      });
      const s = await timedWrite(db.write, (tx) =>
        code.signUpGroup(tx, waitlistId, inputs, Date.now() * 1000),
      );
      const lost = s.value.find((answer) => answer.outcome !== 'created');
      if (lost) throw new Error(`sign-up probe: ${lost.outcome}`);
      into.whole.push(s.end - s.start);
      into.held.push(s.end - s.lock);
      into.commit.push(s.end - s.fnEnd);
    };
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      await db.reader.get('SELECT 1');
      out.rtt.push(performance.now() - t0);
      const t1 = performance.now();
      await limiter.take(`${waitlistId}|192.0.2.1`, Date.now(), limit);
      if (!lastTake) throw new Error('the throttle took without a write');
      out.take.push(lastTake.end - t1);
      out.takeHeld.push(lastTake.end - lastTake.lock);
      await signUp(1, out.one);
      await signUp(GROUP, out.group);
    }
    return out;
  } finally {
    await db.close();
  }
}
