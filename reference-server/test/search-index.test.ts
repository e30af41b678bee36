/**
 * SQLite's search index (FTS5 trigrams, store/sqlite/trigrams.ts) and its scan, driven through
 * the adapter's own modules against a naive filter, with and without a boost: SQLite only, as
 * the index is. PostgreSQL's search is checked over HTTP by list.test.ts, which both stores run.
 */
import { SubscriberStatus } from '@waitlistkit/protocol';
import { tempDir } from '@waitlistkit/testkit';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ListedSubscriber } from '../src/domain/records.js';
import { DEFAULT_SETTINGS, type WaitlistSettings } from '../src/domain/settings.js';
import type { Connection } from '../src/store/sqlite/connection.js';
import { type Database, openDatabase } from '../src/store/sqlite/database.js';
import { sqlite } from '../src/store/sqlite/dialect.js';
import { listSubscribers, type SearchPlan, sqliteLine } from '../src/store/sqlite/line.js';
import { insertOrMatchSubscriber } from '../src/store/sqlite/subscribers.js';
import { admit, erase } from '../src/store/statements/lifecycle.js';
import { tenantsOn } from '../src/store/statements/tenants.js';
import { waitlistsOn } from '../src/store/statements/waitlists.js';
import { naive } from './helpers.js';

/** Characters that FTS5, LIKE, case folding or UTF-8 could each get wrong. */
const TRICKY = [
  'a',
  'b',
  'A',
  'B',
  '%',
  '_',
  '.',
  '@',
  '-',
  '"',
  '*',
  '\\',
  ' ',
  '1',
  'Ä',
  'ä',
  'ß',
  'ẞ',
  'ı',
  'I',
  'i',
  'İ',
  'Σ',
  'σ',
  'ς',
  'é',
  'e\u0301',
  '😀',
];

describe('search: the trigram index and the scan against a naive filter', () => {
  const tmp = tempDir();
  let db: Database;
  beforeAll(async () => {
    db = await openDatabase(tmp.db);
  });
  afterAll(async () => {
    await db.close();
    tmp.cleanup();
  });

  const boosted = { ...DEFAULT_SETTINGS, referrals: true, referral_boost: 2 };
  let clock = 1_000;

  /**
   * A waitlist of `emails` (each referred by an earlier one or not), then some admitted and some
   * erased; and a second waitlist with the same addresses, whose rows the index offers as
   * candidates too. Returns the waitlist's id.
   */
  async function waitlistOf(
    settings: WaitlistSettings,
    emails: readonly string[],
    referrers: readonly (number | null)[],
    admitted: readonly number[],
    erased: readonly number[],
  ): Promise<string> {
    return db.writer.submit(async (tx) => {
      const tenant = await tenantsOn(tx).insert('T', 'pro', 0);
      const [id, decoy] = [
        (await waitlistsOn(tx, sqlite).insert(tenant.id, 'W', settings, 0)).id,
        (await waitlistsOn(tx, sqlite).insert(tenant.id, 'Decoy', settings, 0)).id,
      ];
      const ids: string[] = [];
      const codes: string[] = [];
      for (const [i, email] of emails.entries()) {
        const referrer = referrers[i] ?? null;
        for (const waitlistId of [id, decoy]) {
          const result = await insertOrMatchSubscriber(
            tx,
            {
              waitlistId,
              email,
              emailNorm: `${i}:${email}`,
              referralCode: waitlistId === id && referrer !== null ? codes[referrer % i] : undefined,
              confirm: false,
            },
            clock++,
          );
          if (result.outcome !== 'created') throw new Error(`not created: ${result.outcome}`);
          if (waitlistId === id) {
            ids.push(result.subscriber.id);
            codes.push(result.subscriber.referral_code);
          }
        }
      }
      const chosen = (indexes: readonly number[]) => [
        ...new Set(indexes.map((i) => ids[i % ids.length] as string)),
      ];
      await admit(tx, sqlite, sqliteLine, id, settings, { subscriberIds: chosen(admitted) }, clock++);
      for (const gone of chosen(erased)) await erase(tx, sqlite, id, gone);
      return id;
    });
  }

  /** Every row of one status in list order, with positions, as the plain list (no q) gives them. */
  async function listed(
    tx: Connection,
    settings: WaitlistSettings,
    waitlistId: string,
    status: SubscriberStatus,
    q = '',
    plan?: SearchPlan,
  ) {
    const page = await listSubscribers(tx, waitlistId, settings, { page: 1, limit: 200, q, status }, plan);
    return page;
  }

  const summary = (items: readonly ListedSubscriber[]) =>
    items.map((s) => ({ id: s.id, email: s.email, position: s.position, status: s.status }));

  const emailArb = fc
    .array(fc.constantFrom(...TRICKY), { minLength: 1, maxLength: 10 })
    .map((cs) => cs.join(''));

  it('finds exactly the rows containing the query, in list order with list positions, through either path', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(0, 2),
        fc.array(emailArb, { minLength: 1, maxLength: 24 }),
        fc.array(fc.option(fc.nat(), { nil: null, freq: 3 }), { maxLength: 24 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        fc.array(fc.nat(), { maxLength: 4 }),
        fc.array(
          fc.oneof(
            // A piece of one of the addresses, perhaps in other case: most of these match.
            fc.tuple(fc.nat(), fc.nat(), fc.integer({ min: 1, max: 7 }), fc.boolean()),
            // Anything from the same characters (and NUL): most of these match nothing.
            fc
              .array(fc.constantFrom(...TRICKY, '\0'), { minLength: 1, maxLength: 5 })
              .map((cs) => cs.join('')),
          ),
          { minLength: 1, maxLength: 8 },
        ),
        async (boost, emails, referrers, admitted, erased, picks) => {
          const settings = { ...boosted, referral_boost: boost };
          const waitlistId = await waitlistOf(
            settings,
            emails,
            emails.map((_, i) => (i === 0 ? null : (referrers[i] ?? null))),
            admitted,
            erased,
          );
          const queries = picks.map((pick) => {
            if (typeof pick === 'string') return pick;
            const [which, start, length, upper] = pick;
            const chars = Array.from(emails[which % emails.length] as string);
            const from = start % chars.length;
            const piece = chars.slice(from, from + length).join('');
            return upper ? piece.toUpperCase() : piece;
          });
          await db.snapshot(async (tx) => {
            for (const status of [SubscriberStatus.waiting, SubscriberStatus.admitted]) {
              const everyone = (await listed(tx, settings, waitlistId, status)).items;
              for (const q of queries) {
                const expected = everyone.filter(naive(q));
                for (const plan of ['index', 'scan', 'auto'] as const) {
                  const page = await listed(tx, settings, waitlistId, status, q, plan);
                  expect({ q, boost, status, plan, items: summary(page.items), total: page.total }).toEqual({
                    q,
                    boost,
                    status,
                    plan,
                    items: summary(expected),
                    total: expected.length,
                  });
                  // Pages of three: the same rows, split, with the exact total on every page.
                  for (let n = 1; n <= Math.ceil(expected.length / 3) + 1; n++) {
                    const part = await listSubscribers(
                      tx,
                      waitlistId,
                      settings,
                      { page: n, limit: 3, q, status },
                      plan,
                    );
                    expect({ q, plan, n, ids: part.items.map((s) => s.id), total: part.total }).toEqual({
                      q,
                      plan,
                      n,
                      ids: expected.slice((n - 1) * 3, n * 3).map((s) => s.id),
                      total: expected.length,
                    });
                  }
                }
              }
            }
          });
        },
      ),
      // Half of the runs with each boost: as many boosted ones as before.
      { numRuns: 120 },
    );
    // Every insert, admission and erasure above kept the index equal to the table.
    await db.writer.submit((tx) =>
      tx.run("INSERT INTO subscribers_fts (subscribers_fts, rank) VALUES ('integrity-check', 1)"),
    );
  }, 120_000);
});
