import { ListPageSchema, type Subscriber } from '@waitlistkit/protocol';
import type { Tenant } from '@waitlistkit/testkit';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { positionsBySorting, type Ranked } from '../src/domain/positions.js';
import { apiCreate, apiList, type Harness, harness, naive, ORIGIN, publicPost } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness({ WAITLIST_KEY_RATE_LIMIT: '100000' });
});
afterAll(() => h.close());

async function list(t: Tenant, query = '') {
  const res = await apiList(h.server, t.key, t.waitlistId, query);
  expect(res.status).toBe(200);
  return ListPageSchema.parse(await res.json());
}

async function all(t: Tenant, q = ''): Promise<Subscriber[]> {
  const items: Subscriber[] = [];
  for (let page = 1; ; page++) {
    const result = await list(t, `?limit=200&page=${page}${q ? `&q=${encodeURIComponent(q)}` : ''}`);
    items.push(...result.items);
    if (result.items.length === 0 || items.length >= result.total) return items;
  }
}

describe('pagination', () => {
  let t: Tenant;
  beforeAll(async () => {
    t = await h.tenant();
    for (let i = 0; i < 53; i++) {
      expect((await apiCreate(h.server, t.key, t.waitlistId, { email: `user${i}@example.com` })).status).toBe(
        202,
      );
    }
  });

  it('defaults to page 1 of 25, ordered by position', async () => {
    const page = await list(t);
    expect(page).toMatchObject({ total: 53, page: 1, limit: 25 });
    expect(page.items.map((s) => s.position)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    expect(page.items[0]?.email).toBe('user0@example.com');
  });

  it('returns the last partial page and an empty page beyond it', async () => {
    const third = await list(t, '?page=3');
    expect(third.items.map((s) => s.position)).toEqual([51, 52, 53]);
    const fourth = await list(t, '?page=4');
    expect(fourth).toEqual({ items: [], total: 53, page: 4, limit: 25 });
  });

  it('clamps limit to 200', async () => {
    const page = await list(t, '?limit=500');
    expect(page.limit).toBe(200);
    expect(page.items).toHaveLength(53);
  });

  it('gives strictly increasing join times and stable ids', async () => {
    const everyone = await all(t);
    const times = everyone.map((s) => s.joined_at);
    expect([...times].sort()).toEqual(times);
    expect(new Set(times).size).toBe(times.length);
    expect(new Set(everyone.map((s) => s.id)).size).toBe(53);
  });
});

describe('search', () => {
  let t: Tenant;
  beforeAll(async () => {
    t = await h.tenant();
    for (const email of [
      '100%real@example.com',
      'under_score@example.com',
      'Ada.Lovelace@Example.com',
      'plain@example.com',
      'pct@100pct.example',
    ]) {
      expect((await apiCreate(h.server, t.key, t.waitlistId, { email })).status).toBe(202);
    }
  });

  it.each([
    ['%', ['100%real@example.com']],
    ['_', ['under_score@example.com']],
    ['ada.love', ['Ada.Lovelace@Example.com']],
    [
      'EXAMPLE.COM',
      ['100%real@example.com', 'under_score@example.com', 'Ada.Lovelace@Example.com', 'plain@example.com'],
    ],
    ['0%r', ['100%real@example.com']],
    ['nobody', []],
  ])('q=%s matches the literal substring, case-insensitively', async (q, emails) => {
    const page = await list(t, `?q=${encodeURIComponent(q)}`);
    expect(page.items.map((s) => s.email)).toEqual(emails);
    expect(page.total).toBe(emails.length);
  });

  it('keeps the global position of matches', async () => {
    const page = await list(t, '?q=plain');
    expect(page.items[0]?.position).toBe(4);
  });
});

describe('search: needles of every length and hostile characters, with people admitted and erased', () => {
  const emails = [
    'ana%50@example.com',
    'under_score@example.com',
    '"back\\slash"@example.com',
    '"sp ace"@example.com',
    'Kunde@BÜCHER.example',
    'eleve@école.example',
    'strasse@straße.example',
    'maria.garcia@example.com',
    'maria.garcia2@example.org',
    'ex@ex.example',
    'gone.maria.garcia@example.com',
    'let.in.maria.garcia@example.com',
    'also.in@example.com',
  ];
  let t: Tenant;
  beforeAll(async () => {
    t = await h.tenant();
    for (const email of emails)
      expect((await apiCreate(h.server, t.key, t.waitlistId, { email })).status, email).toBe(202);
    const ids = new Map((await all(t)).map((s) => [s.email, s.id]));
    const api = (method: string, path: string, body?: unknown) =>
      fetch(`${h.server.url}/v1/api/waitlists/${t.waitlistId}/${path}`, {
        method,
        headers: { Authorization: `Bearer ${t.key}`, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const admitted = ['let.in.maria.garcia@example.com', 'also.in@example.com'].map((e) => ids.get(e));
    expect((await api('POST', 'admissions', { subscriber_ids: admitted })).status).toBe(200);
    expect((await api('DELETE', `subscribers/${ids.get('gone.maria.garcia@example.com')}`)).status).toBe(204);
  });

  /** Every page of `q` in pages of two: the rows in order, each page with the same total. */
  async function pages(status: string, q: string) {
    const items: Subscriber[] = [];
    const totals = new Set<number>();
    for (let n = 1; n <= 10; n++) {
      const page = await list(t, `?status=${status}&limit=2&page=${n}&q=${encodeURIComponent(q)}`);
      totals.add(page.total);
      items.push(...page.items);
      if (page.items.length < 2) break;
    }
    return { items, totals: [...totals] };
  }

  it.each([
    'e', // one character
    'ex', // two
    'exa', // three: a single trigram
    'maria.garcia', // many
    '@example.com',
    '%',
    '%5',
    '_',
    '_s',
    '\\',
    'k\\s',
    ' ',
    'p a',
    '"',
    'ü',
    'BÜC',
    'ß',
    'ÉCOLE',
    'é',
    'nobody-has-this',
  ])(
    'q=%s: exactly the rows containing it, in list order with list positions, the total a recount',
    async (q) => {
      for (const status of ['waiting', 'admitted']) {
        const everyone = (await list(t, `?status=${status}&limit=200`)).items;
        const expected = everyone.filter(naive(q));
        const found = await pages(status, q);
        expect({
          status,
          q,
          totals: found.totals,
          hits: found.items.map((s) => [s.email, s.position]),
        }).toEqual({
          status,
          q,
          totals: [expected.length],
          hits: expected.map((s) => [s.email, s.position]),
        });
      }
    },
  );

  it("leaves the erased out of every search, and the admitted out of the line's", async () => {
    const waiting = (await all(t, 'maria.garcia')).map((s) => s.email);
    expect(waiting).toEqual(['maria.garcia@example.com', 'maria.garcia2@example.org']);
    const admitted = await list(t, `?status=admitted&q=${encodeURIComponent('maria.garcia')}`);
    expect(admitted.items.map((s) => s.email)).toEqual(['let.in.maria.garcia@example.com']);
    expect(admitted.total).toBe(1);
    for (const status of ['waiting', 'admitted'])
      expect((await list(t, `?status=${status}&q=gone.`)).total).toBe(0);
  });
});

describe('search over HTTP: a property against a naive filter', () => {
  // Local parts with the characters LIKE would treat as wildcards and upper case; domains whose
  // lower case is longer (İ → i̇), context-dependent (Σ → σ or ς) or not ASCII at all.
  const local = fc.stringMatching(/^[A-Za-z0-9%_+-]{1,10}$/);
  const domain = fc.constantFrom(
    'bücher',
    'BÜCHER',
    'straße',
    'STRASSE',
    'ıi',
    'İzmir',
    'ΣΟΦΊΑ',
    'σοφίας',
    'Example',
  );
  const emails = fc
    .sample(fc.tuple(local, domain), { numRuns: 120, seed: 16 })
    .map(([l, d], i) => `${l}${i % 7 === 0 ? `_${i}` : ''}@${d}.example`);
  let t: Tenant;
  let everyone: Subscriber[];
  beforeAll(async () => {
    t = await h.tenant();
    for (const email of emails)
      expect((await apiCreate(h.server, t.key, t.waitlistId, { email })).status).toBe(202);
    everyone = await all(t);
  });

  it('answers q with exactly the addresses containing it, case-insensitively, with their positions', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc
            .tuple(fc.nat(), fc.nat(), fc.integer({ min: 1, max: 8 }), fc.boolean())
            .map(([which, start, length, upper]) => {
              const chars = Array.from(emails[which % emails.length] as string);
              const piece = chars.slice(start % chars.length, (start % chars.length) + length).join('');
              return upper ? piece.toUpperCase() : piece;
            }),
          fc
            .array(fc.constantFrom('%', '_', 'a', 'A', 'ß', 'ς', 'Σ', 'İ', 'i̇', '.', '@'), {
              minLength: 1,
              maxLength: 4,
            })
            .map((cs) => cs.join('')),
        ),
        async (q) => {
          const expected = everyone.filter(naive(q));
          const page = await list(t, `?limit=200&q=${encodeURIComponent(q)}`);
          expect({ q, total: page.total, hits: page.items.map((s) => [s.email, s.position]) }).toEqual({
            q,
            total: expected.length,
            hits: expected.map((s) => [s.email, s.position]),
          });
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('search beyond ASCII', () => {
  it('finds every address with upper-case letters beyond ASCII, however the sign-ups were grouped', async () => {
    const t = await h.tenant({ waitlist: ['--origins', ORIGIN, '--ip-limit', '1000'] });
    const emails = Array.from({ length: 60 }, (_, i) =>
      i % 2 === 0 ? `Kunde${i}@BÜCHER.example` : `Eleve.${i}@ÉCOLE.example`,
    );
    // Concurrent, so that most are written in groups of one statement.
    const answers = await Promise.all(emails.map((email) => publicPost(h.server, t.waitlistId, { email })));
    expect(answers.map((r) => r.status)).toEqual(emails.map(() => 202));
    for (const q of ['bücher', 'BÜCHER', 'Üch', 'ÉCOLE']) {
      const hits = await all(t, q);
      const expected = emails.filter((e) => e.toLowerCase().includes(q.toLowerCase()));
      expect(hits.map((s) => s.email).sort()).toEqual(expected.sort());
    }
    for (const email of emails) {
      const hits = await all(t, email.toLowerCase());
      expect(hits.map((s) => s.email)).toEqual([email]);
    }
  });
});

describe('referrals and positions', () => {
  it('credits fresh signups with a valid code once; ignores self, repeats, foreign and invalid codes', async () => {
    const t = await h.tenant({ waitlist: ['--referrals', 'on', '--origins', ORIGIN] });
    const other = await h.tenant({ waitlist: ['--referrals', 'on', '--origins', ORIGIN] });
    const signup = async (waitlistId: string, email: string, referral_code?: string) => {
      const res = await publicPost(
        h.server,
        waitlistId,
        referral_code ? { email, referral_code } : { email },
      );
      expect(res.status).toBe(202);
      return (await res.json()) as { referral_code: string; status_token: string; status_url: string };
    };
    const ada = await signup(t.waitlistId, 'ada@example.com');
    const foreign = await signup(other.waitlistId, 'zed@example.com');
    expect(ada.referral_code).toMatch(/^[23456789A-HJ-NP-Z]{6}$/);
    await signup(t.waitlistId, 'bob@example.com', ada.referral_code.toLowerCase());
    await signup(t.waitlistId, 'bob@example.com', ada.referral_code); // re-signup: no second credit
    await signup(t.waitlistId, 'ada@example.com', ada.referral_code); // herself, as a re-signup
    await signup(t.waitlistId, 'cat@example.com', foreign.referral_code); // another waitlist's code
    await signup(t.waitlistId, 'dan@example.com', 'NOPE!!'); // not a code
    await signup(t.waitlistId, 'eve@example.com', 'ZZZZZZ'); // nobody's code
    const everyone = await all(t);
    const byEmail = new Map(everyone.map((s) => [s.email, s]));
    expect(byEmail.get('ada@example.com')?.referral_count).toBe(1);
    expect(everyone.reduce((n, s) => n + s.referral_count, 0)).toBe(1);
  });

  it('ignores referral codes when referrals are off, and answers with empty fields', async () => {
    const t = await h.tenant({ waitlist: ['--origins', ORIGIN] });
    const res = await publicPost(h.server, t.waitlistId, { email: 'a@example.com' });
    expect(await res.json()).toEqual({
      status: 'accepted',
      status_token: '',
      referral_code: '',
      status_url: '',
    });
    const page = await list(t);
    expect(page.items[0]?.referral_code).toBe('');
  });

  it('ranks by join order minus boost × referrals, live, for pages and search alike', async () => {
    const t = await h.tenant({ waitlist: ['--referrals', 'on', '--origins', ORIGIN] });
    const codes: string[] = [];
    // 40 people; some refer others, so referral counts vary from 0 to several.
    for (let i = 0; i < 40; i++) {
      const referrer = i > 3 && i % 3 !== 0 ? codes[(i * 7) % Math.min(i, 9)] : undefined;
      const res = await publicPost(
        h.server,
        t.waitlistId,
        referrer ? { email: `p${i}@example.com`, referral_code: referrer } : { email: `p${i}@example.com` },
      );
      codes.push(((await res.json()) as { referral_code: string }).referral_code);
    }
    for (const boost of [0, 1, 3, 100]) {
      await h.cli(['waitlist', 'update', '--waitlist', t.waitlistId, '--referral-boost', String(boost)]);
      const everyone = await all(t);
      expect(everyone).toHaveLength(40);
      const ranked = everyone.map((s) => ({
        seq: Number(s.email.slice(1, s.email.indexOf('@'))) + 1,
        referral_count: s.referral_count,
        s,
      }));
      const expected = positionsBySorting(ranked, boost);
      for (const r of ranked)
        expect({ boost, email: r.s.email, position: r.s.position }).toEqual({
          boost,
          email: r.s.email,
          position: expected.get(r as Ranked),
        });
      expect(everyone.map((s) => s.position)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
      // Search results carry the same global positions.
      for (const q of ['p1', 'p2', '7@']) {
        for (const hit of await all(t, q))
          expect(hit.position).toBe(everyone.find((s) => s.id === hit.id)?.position);
      }
    }
    // The fixture must really have referrers for the boost to matter.
    expect((await all(t)).filter((s) => s.referral_count > 0).length).toBeGreaterThan(3);
  });
});
