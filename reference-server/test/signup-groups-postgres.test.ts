/**
 * PostgreSQL's group of sign-ups when the database refuses one of them (store/postgres/index.ts):
 * the group's transaction fails, and its sign-ups are written again one at a time, so that only
 * the refused one fails. Through the store itself, since no request can carry such a value (the
 * protocol bounds an address's length, and the index on addresses refuses one of 300,000
 * characters). And the statements a group sends with its BEGIN and COMMIT, their parameters written
 * in as literals: the same values as sent apart; and the lookup that travels with the lock, which
 * must see what the lock's previous holder committed. A drawn referral code already taken, forced
 * by handing the group a code drawer. In the PostgreSQL-only list (vitest.config.ts):
 * SQLite's committer fails a group job whole, and its index takes any length.
 */
import { generateReferralCode } from '@waitlistkit/protocol';
import { seedTenant, tempDir } from '@waitlistkit/testkit';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../src/container.js';
import { type Database, openDatabase } from '../src/store/postgres/database.js';
import { signUpGroup } from '../src/store/postgres/signup-group.js';
import { LOCK_WAITLIST } from '../src/store/postgres/subscribers.js';
import type { FreshSignupInput, Store } from '../src/store/store.js';
import { sql } from './database.js';
import { until } from './helpers.js';

const dir = tempDir();
let store: Store;
let db: Database;
beforeAll(async () => {
  store = await openStore(dir.db, { oneShot: true });
  db = await openDatabase(dir.db, { connections: 2 });
});
afterAll(async () => {
  await store.close();
  await db.close();
  dir.cleanup();
});

describe('a group of sign-ups on PostgreSQL', () => {
  it('writes the others when the database refuses one of them, as if each had come alone', async () => {
    const { waitlistId } = await seedTenant(dir.db, { waitlist: [] });
    const signUp = (email: string): FreshSignupInput => ({
      waitlistId,
      email,
      emailNorm: email,
      confirm: false,
    });
    const emails = Array.from({ length: 8 }, (_, i) => `g${i}@example.com`);
    const refused = `${'x'.repeat(300_000)}@example.com`;
    // All in one tick: the first is a group of its own (the key was idle), the rest the next group.
    const answers = await Promise.allSettled([
      ...emails.slice(0, 4).map((e) => store.signUpFresh(signUp(e))),
      store.signUpFresh(signUp(refused)),
      ...emails.slice(4).map((e) => store.signUpFresh(signUp(e))),
    ]);
    expect(answers.map((a) => a.status)).toEqual([
      ...emails.slice(0, 4).map(() => 'fulfilled'),
      'rejected',
      ...emails.slice(4).map(() => 'fulfilled'),
    ]);
    expect(answers.map((a) => a.status === 'fulfilled' && a.value.outcome)).toEqual([
      ...emails.slice(0, 4).map(() => 'created'),
      false,
      ...emails.slice(4).map(() => 'created'),
    ]);
    const rows = await sql<{ email: string; seq: number }>(
      dir.db,
      'SELECT email, seq FROM subscribers WHERE waitlist_id = ? ORDER BY seq',
      [waitlistId],
    );
    expect(rows.map((r) => r.seq)).toEqual(emails.map((_, i) => i + 1));
    expect(new Set(rows.map((r) => r.email))).toEqual(new Set(emails));
  });
});

describe('a group whose drawn referral code is already taken', () => {
  const nowMicros = () => Date.now() * 1000;
  const signUp = (waitlistId: string, email: string): FreshSignupInput => ({
    waitlistId,
    email,
    emailNorm: email,
    confirm: false,
  });
  /** Draws `taken` for the first `times` draws, then the codes of `fresh` in turn. */
  const drawer = (taken: string, times: number, fresh: readonly string[]) => {
    let draws = 0;
    const draw = () => {
      draws++;
      const code = draws <= times ? taken : fresh[draws - times - 1];
      if (code === undefined) throw new Error(`draw ${draws} was not expected`);
      return code;
    };
    return { draw, draws: () => draws };
  };

  for (const size of [1, 3]) {
    it(`is written again with codes drawn anew (a group of ${size})`, async () => {
      const { waitlistId } = await seedTenant(dir.db, { waitlist: [] });
      const first = await store.signUpFresh(signUp(waitlistId, 'first@example.com'));
      if (first.outcome !== 'created') throw new Error(`first sign-up: ${first.outcome}`);
      const taken = first.subscriber.referral_code;
      const fresh = Array.from({ length: 2 * size - 1 }, generateReferralCode);
      const codes = drawer(taken, 1, fresh);
      const emails = Array.from({ length: size }, (_, i) => `again${i}@example.com`);
      const answers = await signUpGroup(
        db,
        waitlistId,
        emails.map((e) => signUp(waitlistId, e)),
        nowMicros,
        codes.draw,
      );
      // The first attempt drew `size` codes, the first of them taken; the second `size` fresh ones.
      expect(codes.draws()).toBe(2 * size);
      const expected = fresh.slice(size - 1, 2 * size - 1);
      expect(answers.map((a) => a.outcome === 'created' && a.subscriber.referral_code)).toEqual(expected);
      const rows = await sql<{ email: string; seq: number; referral_code: string }>(
        dir.db,
        'SELECT email, seq, referral_code FROM subscribers WHERE waitlist_id = ? ORDER BY seq',
        [waitlistId],
      );
      expect(rows).toEqual([
        { email: 'first@example.com', seq: 1, referral_code: taken },
        ...emails.map((email, i) => ({ email, seq: i + 2, referral_code: expected[i] })),
      ]);
    });
  }

  it('gives up after six draws that all find the code taken, writing nothing', async () => {
    const { waitlistId } = await seedTenant(dir.db, { waitlist: [] });
    const first = await store.signUpFresh(signUp(waitlistId, 'first@example.com'));
    if (first.outcome !== 'created') throw new Error(`first sign-up: ${first.outcome}`);
    const codes = drawer(first.subscriber.referral_code, Number.POSITIVE_INFINITY, []);
    await expect(
      signUpGroup(db, waitlistId, [signUp(waitlistId, 'unlucky@example.com')], nowMicros, codes.draw),
    ).rejects.toMatchObject({ code: '23505', constraint: 'subscribers_waitlist_id_referral_code_key' });
    expect(codes.draws()).toBe(6);
    const [row] = await sql<{ n: number }>(
      dir.db,
      'SELECT count(*) AS n FROM subscribers WHERE waitlist_id = ?',
      [waitlistId],
    );
    expect(Number(row?.n)).toBe(1);
  });
});

describe("a group's statements sent as one text (Connection.batch)", () => {
  it('carry any text, number and array as parameters would', async () => {
    const text = fc.string({ unit: 'grapheme', maxLength: 20 });
    const values = fc.tuple(text, fc.array(fc.option(text, { nil: null }), { maxLength: 5 }), fc.integer());
    await fc.assert(
      fc.asyncProperty(values, async (params) => {
        const sql = 'SELECT $1::text AS one, $2::text[] AS many, $3::bigint AS n';
        const batched = await db.writeFramed([[sql, params]], async (_, opened) => ({ value: opened[0] }));
        expect(batched).toEqual(await db.reader.all(sql, params));
      }),
      { numRuns: 200 },
    );
  });
});

describe("a group's lookup, sent with its BEGIN and its lock", () => {
  it('sees what the previous holder of the lock committed while it waited', async () => {
    const { waitlistId } = await seedTenant(dir.db, { waitlist: [] });
    const other = await openDatabase(dir.db, { connections: 1 });
    try {
      let release = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let inserted = false;
      const holder = other.write(async (tx) => {
        await tx.get(LOCK_WAITLIST, [waitlistId]);
        await tx.run("INSERT INTO meta (key, value) VALUES ($1, 'committed by the holder')", [waitlistId]);
        inserted = true;
        await released;
      });
      await until('the holder to insert under the lock', () => inserted);
      const waiter = db.writeFramed(
        [
          [LOCK_WAITLIST, [waitlistId]],
          ['SELECT value FROM meta WHERE key = $1', [waitlistId]],
        ],
        async (_, [, rows]) => ({ value: rows }),
      );
      // The waiter is blocked on the row's lock before the holder commits.
      await until('the waiter to wait for the lock', async () => {
        const [row] = await sql<{ n: number }>(
          dir.db,
          "SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
        );
        return (row?.n ?? 0) > 0;
      });
      release();
      await holder;
      expect(await waiter).toEqual([{ value: 'committed by the holder' }]);
    } finally {
      await other.close();
    }
  });
});
