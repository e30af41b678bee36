/**
 * Fresh public sign-ups are written in groups, one statement per group (store/subscribers.ts
 * `insertOrMatchMany`). The group must be indistinguishable from the same sign-ups applied one
 * after another: same outcomes, same seqs, one row per email, nothing for a waitlist gone. Both
 * run here on real SQLite files, side by side, on random batches.
 */
import { tempDir } from '@waitlistkit/testkit';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchText } from '../src/domain/search.js';
import { DEFAULT_SETTINGS } from '../src/domain/settings.js';
import { signupExtras } from '../src/domain/signup-extras.js';
import { type Database, openDatabase } from '../src/store/sqlite/database.js';
import { sqlite } from '../src/store/sqlite/dialect.js';
import {
  drafted,
  type FreshSignup,
  insertOrMatchMany,
  insertOrMatchSubscriber,
} from '../src/store/sqlite/subscribers.js';
import { tenantsOn } from '../src/store/statements/tenants.js';
import { redeemTokens } from '../src/store/statements/tokens.js';
import { waitlistsOn } from '../src/store/statements/waitlists.js';
import type { FreshSignupResult } from '../src/store/store.js';

const tmp = tempDir();
let grouped: Database;
let oneByOne: Database;

beforeAll(async () => {
  grouped = await openDatabase(`${tmp.dir}/grouped.db`);
  oneByOne = await openDatabase(`${tmp.dir}/one-by-one.db`);
});

afterAll(async () => {
  await grouped.close();
  await oneByOne.close();
  tmp.cleanup();
});

const DOMAINS = ['example.com', 'BÜCHER.example', 'école.example', 'ÆRØ.example', 'straße.example'];
const LANGS = ['de', null, 'zh-Hant', 'ar'] as const;

/** The same tenant and waitlists (same ids) in both databases; the last one archived. */
async function waitlists(count: number): Promise<string[]> {
  const ids: string[] = [];
  const tenant = await grouped.writer.submit((db) => tenantsOn(db).insert('T', 'pro', Date.now()));
  await oneByOne.writer.submit((db) =>
    db.run('INSERT INTO tenants (id, name, plan, created_at) VALUES (?, ?, ?, ?)', [
      tenant.id,
      'T',
      'pro',
      new Date().toISOString(),
    ]),
  );
  for (let i = 0; i < count; i++) {
    const archived = i === count - 1;
    const w = await grouped.writer.submit(async (db) => {
      const created = await waitlistsOn(db, sqlite).insert(tenant.id, `W${i}`, DEFAULT_SETTINGS, Date.now());
      if (archived)
        await waitlistsOn(db, sqlite).save(
          created,
          { name: created.name, settings: created.settings, archived },
          0,
        );
      return created;
    });
    await oneByOne.writer.submit((db) =>
      db.run(
        'INSERT INTO waitlists (id, tenant_id, name, archived, settings, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
        [w.id, tenant.id, w.name, archived ? 1 : 0, JSON.stringify(w.settings), w.created_at, w.updated_at],
      ),
    );
    ids.push(w.id);
  }
  return ids;
}

interface Row {
  waitlist_id: string;
  email: string;
  email_norm: string;
  email_search: string;
  seq: number;
  joined_us: number;
  pending: number;
  mails: number;
  lang: string | null;
}

function rows(db: Database, ids: readonly string[]): Promise<Row[]> {
  return db.reader.all<Row>(
    `SELECT waitlist_id, email, email_norm, email_search, seq, joined_us, confirm_token IS NOT NULL AS pending, lang,
            (SELECT count(*) FROM deliveries d WHERE d.channel = 'mail' AND d.body ->> 'subscriber_id' = subscribers.id) AS mails
       FROM subscribers WHERE waitlist_id IN (${ids.map(() => '?').join(', ')}) ORDER BY waitlist_id, seq`,
    ids,
  );
}

/** What a caller can observe of a result, with the random parts (ids, tokens) replaced by which input made them. */
function shape(results: FreshSignupResult[], inputs: readonly FreshSignup[]) {
  const madeBy = new Map<string, number>();
  results.forEach((r, i) => {
    if (r.outcome === 'created') madeBy.set(r.subscriber.id, i);
  });
  return results.map((r, i) => {
    if (r.outcome === 'waitlist_gone') return { i, outcome: r.outcome };
    if (r.outcome === 'tokens_taken') return { i, outcome: r.outcome, taken: r.taken };
    return {
      i,
      outcome: r.outcome,
      madeBy: madeBy.get(r.subscriber.id) ?? 'earlier',
      email: inputs[i]?.emailNorm,
    };
  });
}

describe('a group of fresh sign-ups', () => {
  it('answers and writes exactly what the same sign-ups one after another would', async () => {
    await fc.assert(
      fc.asyncProperty(
        // The fourth: a gate token the sign-up redeems (a few shared, so some lose theirs).
        fc.array(fc.tuple(fc.nat(2), fc.nat(6), fc.boolean(), fc.option(fc.nat(4), { nil: undefined })), {
          minLength: 1,
          maxLength: 40,
        }),
        fc.array(fc.tuple(fc.nat(2), fc.nat(6)), { maxLength: 5 }),
        async (batch, before) => {
          const ids = await waitlists(3);
          // Upper case beyond ASCII too: the group must store the search text a single write does.
          // The third waitlist confirms emails: each new row there has a token and one mail queued.
          const run = ids[0] as string;
          const input = ([w, e, upper, token]: [number, number, boolean?, number?]): FreshSignup => {
            const email = `user${e}@${DOMAINS[e % DOMAINS.length]}`;
            return {
              ...(token === undefined ? {} : { tokens: [{ id: `${run}-${token}`, expiresAt: 9e15 }] }),
              waitlistId: ids[w] as string,
              email: upper ? email.toUpperCase() : email,
              emailNorm: email.toLowerCase(),
              confirm: w === 2,
              // A language for some (docs/languages.md#what-a-sign-up-records): the group keeps each one's.
              extras: signupExtras(email.toLowerCase(), {}, {}, LANGS[e % LANGS.length] ?? null),
            };
          };
          // Some emails are already on the waitlists before the group arrives.
          const earlier = before.map(([w, e]) => input([w, e]));
          for (const db of [grouped, oneByOne]) {
            await db.writer.submit(async (tx) => {
              for (const s of earlier)
                await insertOrMatchSubscriber(tx, { ...s, referralCode: undefined }, 1_000);
            });
          }
          const inputs = batch.map(input);
          const now = 2_000_000;
          // The server drafts each sign-up as it arrives (store/sqlite/index.ts); a job drafts those it gets undrafted.
          const some = inputs.map((s, i) => (i % 2 === 0 ? drafted(s) : s));
          const together = await grouped.writer.submit((tx) => insertOrMatchMany(tx, some, now));
          const apart = await oneByOne.writer.submit(async (tx) => {
            const out: FreshSignupResult[] = [];
            for (const { tokens, ...s } of inputs) {
              const taken = await redeemTokens(tx, sqlite, tokens ?? []);
              out.push(
                taken.length > 0
                  ? { outcome: 'tokens_taken', taken }
                  : await insertOrMatchSubscriber(tx, { ...s, referralCode: undefined }, now),
              );
            }
            return out;
          });
          expect(shape(together, inputs)).toEqual(shape(apart, inputs));
          const [a, b] = [await rows(grouped, ids), await rows(oneByOne, ids)];
          expect(a.map(({ joined_us: _, ...r }) => r)).toEqual(b.map(({ joined_us: _, ...r }) => r));
          for (const r of a) {
            expect(r.email_search).toBe(searchText(r.email));
            expect([r.pending, r.mails]).toEqual(r.waitlist_id === ids[2] ? [1, 1] : [0, 0]);
          }
          // Join times strictly increase with seq within each waitlist, and none is before `now`
          // for the group's rows.
          for (const [i, r] of a.entries()) {
            const prev = a[i - 1];
            if (prev && prev.waitlist_id === r.waitlist_id)
              expect(r.joined_us).toBeGreaterThan(prev.joined_us);
          }
          for (const r of together) {
            if (r.outcome !== 'created') continue;
            const row = await grouped.reader.get<{ joined_us: number }>(
              'SELECT joined_us FROM subscribers WHERE id = ?',
              [r.subscriber.id],
            );
            expect(row?.joined_us).toBeGreaterThanOrEqual(now);
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('takes an email with an unpaired surrogate one by one, and stores it as one insert would', async () => {
    const [id] = await waitlists(2);
    const odd = 'odd\ud800@example.com';
    const inputs: FreshSignup[] = [
      {
        waitlistId: id as string,
        email: 'plain@example.com',
        emailNorm: 'plain@example.com',
        confirm: false,
      },
      { waitlistId: id as string, email: odd, emailNorm: odd, confirm: false },
    ];
    const results = await grouped.writer.submit((tx) => insertOrMatchMany(tx, inputs, 5));
    expect(results.map((r) => r.outcome)).toEqual(['created', 'created']);
    const stored = await grouped.reader.all<{ email: string; seq: number }>(
      'SELECT email, seq FROM subscribers WHERE waitlist_id = ? ORDER BY seq',
      [id],
    );
    expect(stored.map((s) => s.seq)).toEqual([1, 2]);
    // Bound directly, the driver stores the UTF-8 encoding of the string, as Node encodes it.
    expect(stored[1]?.email).toBe(Buffer.from(odd, 'utf8').toString('utf8'));
  });
});
