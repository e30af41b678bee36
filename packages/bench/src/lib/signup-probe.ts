/**
 * Item 4's probe on PostgreSQL: the database work of one public sign-up of 4a, run by the server's
 * own store code (bundled from its source, server-source.ts) on an otherwise idle cluster, its
 * phases timed.
 */
import { join } from 'node:path';
import { importServerSource } from './server-source.js';

type Statement = readonly [string, (readonly unknown[])?];

/** A framed write's function: its value, and the statements its COMMIT carries. */
type FramedFn<T> = (
  tx: unknown,
  opened: unknown[][],
) => Promise<{ value: T; closing?: readonly Statement[] }>;

/** The parts of the server's PostgreSQL database (store/postgres/database.ts) the probe uses. */
interface PostgresDatabase {
  reader: { get(sql: string): Promise<unknown> };
  writeFramed<T>(opening: readonly Statement[], fn: FramedFn<T>, options?: { flushed?: boolean }): Promise<T>;
  close(): Promise<void>;
}

interface StoreCode {
  openDatabase(url: string, options: { connections: number }): Promise<PostgresDatabase>;
  signUpGroup(
    db: PostgresDatabase,
    waitlistId: string,
    inputs: { waitlistId: string; email: string; emailNorm: string; confirm: false }[],
    nowMicros: () => number,
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

/** Milliseconds of one framed write: BEGIN sent (with its opening statements) to COMMIT returned, and its last round trip. */
export interface WriteTimings {
  /** The whole transaction. The row locks are asked for by its first round trip, so this is also how long they are held. */
  whole: number[];
  /** Its last round trip: the statements sent with COMMIT, and the COMMIT (with its WAL flush, when durable). */
  commit: number[];
}

/** Milliseconds per phase, one entry per round. */
export interface SignupTimings {
  /** A `SELECT 1` round trip. */
  rtt: number[];
  /** The per-IP throttle's take (a group of one). */
  take: WriteTimings;
  /** A lone sign-up: a group of one. */
  one: WriteTimings;
  /** A group of `GROUP` sign-ups, as under load. */
  group: WriteTimings;
}

/** The size of the probe's larger group: half of item 4's 50 connections. */
export const GROUP = 25;

/** `db` with its framed writes timed into whichever timings `into()` names at the time. */
function timedDatabase(db: PostgresDatabase, into: () => WriteTimings): PostgresDatabase {
  return {
    ...db,
    async writeFramed(opening, fn, options) {
      const start = performance.now();
      let closingAt = Number.NaN;
      const value = await db.writeFramed(
        opening,
        async (tx, opened) => {
          const framed = await fn(tx, opened);
          closingAt = performance.now();
          return framed;
        },
        options,
      );
      const end = performance.now();
      const timings = into();
      timings.whole.push(end - start);
      timings.commit.push(end - closingAt);
      return value;
    },
  };
}

/**
 * `n` rounds, each: a round trip (`SELECT 1`), the per-IP throttle's take, a sign-up alone and a
 * group of `GROUP` sign-ups, each a transaction of the server's own code (store/postgres/).
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
  const raw = await code.openDatabase(url, { connections: 2 });
  try {
    const phases = (): WriteTimings => ({ whole: [], commit: [] });
    const out: SignupTimings = { rtt: [], take: phases(), one: phases(), group: phases() };
    let into = out.take;
    const db = timedDatabase(raw, () => into);
    const limiter = code.postgresLimiter(db, 'ip', code.slidingWindow);
    const limit = { capacity: 1_000_000, windowMs: 60_000 };
    let signedUp = 0;
    const signUp = async (size: number) => {
      const inputs = Array.from({ length: size }, () => {
        const email = `probe.${signedUp++}@bench-mail.example`;
        return { waitlistId, email, emailNorm: email, confirm: false as const };
      });
      const answers = await code.signUpGroup(db, waitlistId, inputs, () => Date.now() * 1000);
      const lost = answers.find((answer) => answer.outcome !== 'created');
      if (lost) throw new Error(`sign-up probe: ${lost.outcome}`);
    };
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      await raw.reader.get('SELECT 1');
      out.rtt.push(performance.now() - t0);
      into = out.take;
      await limiter.take(`${waitlistId}|192.0.2.1`, Date.now(), limit);
      into = out.one;
      await signUp(1);
      into = out.group;
      await signUp(GROUP);
    }
    return out;
  } finally {
    await raw.close();
  }
}
