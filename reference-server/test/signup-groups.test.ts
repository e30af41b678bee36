/**
 * Group commit under load, over HTTP: two `serve` processes on one database take a burst of
 * concurrent sign-ups (fresh ones grouped per waitlist, referred ones beside them, addresses sent
 * several times to both). Whatever the grouping, the outcome is that of the same sign-ups one
 * after another: every 202 is a row, join numbers dense and join times strictly increasing,
 * credits and positions what a recount in SQL gives, one answer per address. On PostgreSQL the
 * groups are store/postgres/signup-group.ts's (docs/self-hosting.md#several-servers); on SQLite the
 * committer's. The rules of a group alone: group-commit-rules.test.ts.
 */
import { GatesResponseSchema, ListPageSchema } from '@waitlistkit/protocol';
import { type RunningServer, seedTenant, startServer, type Tenant, tempDir } from '@waitlistkit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareRank } from '../src/domain/positions.js';
import { sql } from './database.js';
import { apiList, ORIGIN, publicGates, publicPost, SECRET } from './helpers.js';

const ENV = { WAITLIST_SECRET: SECRET, WAITLIST_KEY_RATE_LIMIT: '100000' };
const BOOST = 2;

const dir = tempDir();
let servers: RunningServer[];
beforeAll(async () => {
  servers = await Promise.all([0, 1].map(() => startServer({ db: dir.db, env: ENV })));
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  dir.cleanup();
});

/** The i-th request's server: round-robin over the two. */
const at = (i: number) => servers[i % servers.length] as RunningServer;

const tenant = (waitlist: string[]) =>
  seedTenant(dir.db, { waitlist: ['--origins', ORIGIN, '--ip-limit', '100000', ...waitlist] });

interface Row {
  id: string;
  email_norm: string;
  seq: number;
  joined_us: number;
  referral_count: number;
  credits: number;
}

/** The waitlist's rows in join order, each referrer's credits counted again from the referred rows. */
const rowsOf = (t: Tenant) =>
  sql<Row>(
    dir.db,
    `SELECT s.id, s.email_norm, s.seq, s.joined_us, s.referral_count,
            (SELECT count(*) FROM subscribers r WHERE r.referred_by = s.id AND r.credited) AS credits
       FROM subscribers s WHERE s.waitlist_id = ? ORDER BY s.seq`,
    [t.waitlistId],
  );

describe('a burst of sign-ups on two servers of one database', () => {
  it('makes every 202 a row: dense seqs, increasing join times, one answer per address, credits and positions as recounted', async () => {
    const t = await tenant(['--referrals', 'on', '--referral-boost', String(BOOST)]);
    const codes: string[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await publicPost(at(i), t.waitlistId, { email: `referrer${i}@example.com` });
      codes.push(((await res.json()) as { referral_code: string }).referral_code);
    }
    // 240 requests, 120 addresses: each address twice, in another case the second time; a third
    // of them name a referrer, so referred sign-ups (one transaction each) run beside the groups.
    const requests = Array.from({ length: 240 }, (_, i) => {
      const n = i % 120;
      const email = i < 120 ? `burst${n}@example.com` : `Burst${n}@Example.com`;
      return n % 3 === 0 ? { email, referral_code: codes[n % codes.length] } : { email };
    });
    const answers = await Promise.all(requests.map((body, i) => publicPost(at(i), t.waitlistId, body)));
    expect(answers.map((r) => r.status)).toEqual(requests.map(() => 202));
    const texts = await Promise.all(answers.map((r) => r.text()));
    for (let n = 0; n < 120; n++) expect(texts[n + 120], `burst${n}`).toBe(texts[n]);
    expect(new Set(texts).size).toBe(120);

    const rows = await rowsOf(t);
    expect(rows).toHaveLength(8 + 120);
    expect(rows.map((r) => r.seq)).toEqual(rows.map((_, i) => i + 1));
    for (let i = 1; i < rows.length; i++) {
      expect((rows[i] as Row).joined_us).toBeGreaterThan((rows[i - 1] as Row).joined_us);
    }
    expect(rows.map((r) => r.referral_count)).toEqual(rows.map((r) => r.credits));
    expect(rows.reduce((n, r) => n + r.credits, 0)).toBe(40);

    const expected = [...rows].sort((a, b) =>
      compareRank(
        { seq: a.seq, referral_count: a.credits },
        { seq: b.seq, referral_count: b.credits },
        BOOST,
      ),
    );
    const page = ListPageSchema.parse(
      await (await apiList(at(0), t.key, t.waitlistId, `?limit=${rows.length}`)).json(),
    );
    expect(page.total).toBe(rows.length);
    expect(page.items.map((s) => [s.id, s.position])).toEqual(expected.map((r, i) => [r.id, i + 1]));
  });

  it('commits the sign-ups of a group beside one whose gate token was taken by another', async () => {
    const t = await tenant(['--challenge', 'on', '--challenge-min-age-ms', '0']);
    const tokens: string[] = [];
    for (let i = 0; i < 40; i++) {
      const { challenge } = GatesResponseSchema.parse(await (await publicGates(at(0), t.waitlistId)).json());
      if (!challenge) throw new Error('expected the challenge gate');
      tokens.push(challenge.token);
    }
    // All at once to one server, so that they meet in its groups; the last two share a token.
    const bodies = tokens.map((token, i) => ({ email: `gated${i}@example.com`, challenge_token: token }));
    bodies.push({ email: 'gated-twice@example.com', challenge_token: tokens[39] as string });
    const answers = await Promise.all(bodies.map((body) => publicPost(at(1), t.waitlistId, body)));
    const statuses = answers.map((r) => r.status);
    expect(statuses.slice(0, 39)).toEqual(Array.from({ length: 39 }, () => 202));
    expect(statuses.slice(39).sort()).toEqual([202, 428]);
    const rows = await rowsOf(t);
    expect(rows).toHaveLength(40);
    expect(rows.map((r) => r.seq)).toEqual(rows.map((_, i) => i + 1));
  });
});
