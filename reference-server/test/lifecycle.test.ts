/**
 * The subscriber lifecycle over HTTP (docs/subscribers.md#lifecycle): one subscriber, admissions, erasure, the
 * admitted list, positions over the waiting line only, and the status page, on a real server
 * and SQLite file.
 */
import { readFileSync } from 'node:fs';
import {
  AdmissionsResultSchema,
  type ListPage,
  ListPageSchema,
  type Subscriber,
  SubscriberSchema,
} from '@waitlistkit/protocol';
import type { Tenant } from '@waitlistkit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { positionsBySorting } from '../src/domain/positions.js';
import { isPostgres, sql } from './database.js';
import { apiCreate, apiList, errorOf, type Harness, harness, ORIGIN, publicPost, until } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness({ WAITLIST_KEY_RATE_LIMIT: '100000' });
});
afterAll(() => h.close());

function api(t: Pick<Tenant, 'key'>, method: string, path: string, body?: unknown) {
  return fetch(`${h.server.url}/v1/api/waitlists/${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${t.key}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function admit(t: Tenant, body: unknown): Promise<Subscriber[]> {
  const res = await api(t, 'POST', `${t.waitlistId}/admissions`, body);
  expect(res.status).toBe(200);
  return AdmissionsResultSchema.parse(await res.json()).items;
}

async function page(t: Tenant, query: string): Promise<ListPage> {
  const res = await apiList(h.server, t.key, t.waitlistId, query);
  expect(res.status).toBe(200);
  return ListPageSchema.parse(await res.json());
}

async function everyone(t: Tenant, status: 'waiting' | 'admitted', q = ''): Promise<Subscriber[]> {
  const items: Subscriber[] = [];
  for (let n = 1; ; n++) {
    const p = await page(t, `?status=${status}&limit=200&page=${n}${q ? `&q=${encodeURIComponent(q)}` : ''}`);
    items.push(...p.items);
    if (p.items.length === 0 || items.length >= p.total) return items;
  }
}

/** Signs up `count` people through the public endpoint; every third one referred by the first. */
async function line(t: Tenant, count: number, prefix: string): Promise<{ email: string; token: string }[]> {
  const joined: { email: string; token: string; code: string }[] = [];
  for (let i = 0; i < count; i++) {
    const email = `${prefix}${i}@example.com`;
    const referral_code = i > 0 && i % 3 === 0 ? joined[0]?.code : undefined;
    const res = await publicPost(h.server, t.waitlistId, {
      email,
      ...(referral_code ? { referral_code } : {}),
    });
    expect(res.status).toBe(202);
    const body = (await res.json()) as { status_token: string; referral_code: string };
    joined.push({ email, token: body.status_token, code: body.referral_code });
  }
  return joined;
}

/** Positions of the waiting line as the contract defines them, by sorting everyone still waiting. */
function expectedOrder(
  waiting: readonly Subscriber[],
  joinOrder: readonly string[],
  boost: number,
): string[] {
  const ranked = waiting.map((s) => ({
    id: s.id,
    seq: joinOrder.indexOf(s.id) + 1,
    referral_count: s.referral_count,
  }));
  const positions = positionsBySorting(ranked, boost);
  return [...ranked]
    .sort((a, b) => (positions.get(a) as number) - (positions.get(b) as number))
    .map((r) => r.id);
}

const settings = (boost: number) => [
  '--referrals',
  'on',
  '--origins',
  ORIGIN,
  '--ip-limit',
  '100000',
  '--referral-boost',
  String(boost),
];

describe('one subscriber', () => {
  it('answers GET with the subscriber, its status and position; 404 for unknown, another waitlist’s or a foreign one', async () => {
    const t = await h.tenant({ waitlist: settings(0) });
    await line(t, 3, 'one');
    const [first, second] = (await page(t, '')).items;
    const res = await api(t, 'GET', `${t.waitlistId}/subscribers/${second?.id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit-limit')).toBe('100000');
    const got = SubscriberSchema.parse(await res.json());
    expect(got).toEqual(second);
    expect(got).toMatchObject({ status: 'waiting', admitted_at: null, confirmed: true, position: 2 });

    const other = await h.cli<{ waitlist_id: string }>([
      'waitlist',
      'create',
      '--tenant',
      t.tenantId,
      '--name',
      'Other',
    ]);
    const foreign = await h.tenant();
    for (const [who, path] of [
      [t, `${t.waitlistId}/subscribers/sub_doesnotexist00000`],
      [t, `${other.waitlist_id}/subscribers/${first?.id}`],
      [foreign, `${t.waitlistId}/subscribers/${first?.id}`],
    ] as const) {
      const refused = await api(who, 'GET', path as string);
      expect(refused.status).toBe(404);
      expect((await errorOf(refused)).code).toBe('not_found');
    }
  });

  it('checks key, budget, plan and scope first: 401, 403 insufficient_scope for writes with a read-only key', async () => {
    const t = await h.tenant({ waitlist: settings(0) });
    await line(t, 1, 'scope');
    const [s] = (await page(t, '')).items;
    const readOnly = await h.cli<{ value: string }>([
      'key',
      'create',
      '--operator',
      t.operatorId,
      '--name',
      'RO',
      '--preset',
      'read-only',
    ]);
    const ro = { key: readOnly.value };
    expect((await api(ro, 'GET', `${t.waitlistId}/subscribers/${s?.id}`)).status).toBe(200);
    for (const [method, path, body] of [
      ['DELETE', `${t.waitlistId}/subscribers/${s?.id}`, undefined],
      ['POST', `${t.waitlistId}/admissions`, { count: 1 }],
    ] as const) {
      const refused = await api(ro, method, path, body);
      expect(refused.status).toBe(403);
      expect(await errorOf(refused)).toEqual({
        code: 'insufficient_scope',
        message: 'This key lacks the subscribers:write scope.',
      });
      const anonymous = await api({ key: 'wlk_live_nope' }, method, path, body);
      expect(anonymous.status).toBe(401);
    }
    expect((await page(t, '')).total).toBe(1);
  });

  it('answers 400 for admission bodies that are not exactly one of count and subscriber_ids', async () => {
    const t = await h.tenant({ waitlist: settings(0) });
    for (const body of [
      '{',
      {},
      { count: 0 },
      { count: 1001 },
      { count: 1, subscriber_ids: ['x'] },
      { subscriber_ids: [] },
      [],
      { count: '2' },
    ]) {
      const res = await api(t, 'POST', `${t.waitlistId}/admissions`, body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expect((await errorOf(res)).code).toBe('invalid_request');
    }
    const text = await fetch(`${h.server.url}/v1/api/waitlists/${t.waitlistId}/admissions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${t.key}`, 'Content-Type': 'text/plain' },
      body: '{"count":1}',
    });
    expect(text.status).toBe(415);
  });
});

describe('admissions', () => {
  it('lets in the first N by position, then the line and every position close up behind them', async () => {
    const t = await h.tenant({ waitlist: settings(2) });
    await line(t, 12, 'adm');
    const joinOrder = (await everyone(t, 'waiting')).map((s) => s.id).sort(); // ids are random: rebuilt below
    const before = await everyone(t, 'waiting');
    const admitted = await admit(t, { count: 4 });
    expect(admitted.map((s) => s.id)).toEqual(before.slice(0, 4).map((s) => s.id));
    for (const s of admitted)
      expect(s).toMatchObject({ status: 'admitted', position: null, confirmed: true });
    const times = admitted.map((s) => Date.parse(s.admitted_at as string));
    expect(times.every((t0) => Number.isFinite(t0))).toBe(true);

    const after = await everyone(t, 'waiting');
    expect(after.map((s) => s.id)).toEqual(before.slice(4).map((s) => s.id));
    expect(after.map((s) => s.position)).toEqual(after.map((_, i) => i + 1));
    expect((await page(t, '')).total).toBe(8);
    // The admitted list: newest admission first, no positions.
    const listedAdmitted = await everyone(t, 'admitted');
    expect(listedAdmitted.map((s) => s.id)).toEqual([...admitted].reverse().map((s) => s.id));
    expect((await page(t, '?status=admitted')).total).toBe(4);
    // Search and one subscriber agree with the line.
    for (const s of after) {
      const [hit] = (await page(t, `?q=${encodeURIComponent(s.email)}`)).items;
      expect(hit?.position).toBe(s.position);
      const one = SubscriberSchema.parse(
        await (await api(t, 'GET', `${t.waitlistId}/subscribers/${s.id}`)).json(),
      );
      expect(one.position).toBe(s.position);
    }
    expect((await page(t, `?q=${encodeURIComponent(admitted[0]?.email as string)}`)).total).toBe(0);
    expect(
      (await page(t, `?status=admitted&q=${encodeURIComponent(admitted[0]?.email as string)}`)).items[0]?.id,
    ).toBe(admitted[0]?.id);
    expect(joinOrder).toHaveLength(12);
  });

  it('admits exactly the given ids, skipping unknown and already admitted ones', async () => {
    const t = await h.tenant({ waitlist: settings(0) });
    await line(t, 6, 'ids');
    const waiting = await everyone(t, 'waiting');
    const [a, b, c] = [waiting[4], waiting[1], waiting[2]] as [Subscriber, Subscriber, Subscriber];
    expect((await admit(t, { subscriber_ids: [b.id] })).map((s) => s.id)).toEqual([b.id]);
    const second = await admit(t, { subscriber_ids: [a.id, b.id, 'sub_unknown000000000', c.id] });
    // In line order, the admitted one and the unknown one left out.
    expect(second.map((s) => s.id)).toEqual([c.id, a.id]);
    expect((await everyone(t, 'waiting')).map((s) => s.position)).toEqual([1, 2, 3]);
    expect(await admit(t, { subscriber_ids: ['sub_unknown000000000'] })).toEqual([]);
  });

  it('never admits anyone twice: two concurrent admissions of 10 let in 20 different people', async () => {
    const t = await h.tenant({ waitlist: settings(0) });
    await line(t, 30, 'race');
    const [x, y] = await Promise.all([admit(t, { count: 10 }), admit(t, { count: 10 })]);
    const ids = [...(x as Subscriber[]), ...(y as Subscriber[])].map((s) => s.id);
    expect(new Set(ids).size).toBe(20);
    // Each admission is in the activity log with the key as its actor, by ids, never an address.
    const { items } = await h.cli<{
      items: {
        action: string;
        actor: { type: string; name: string };
        details: { subscriber_ids: string[] };
      }[];
    }>(['activity', '--tenant', t.tenantId]);
    const admissions = items.filter((e) => e.action === 'subscriber.admitted');
    expect(admissions.map((e) => [e.actor.type, e.actor.name])).toEqual([
      ['key', 'Backend'],
      ['key', 'Backend'],
    ]);
    expect(admissions.flatMap((e) => e.details.subscriber_ids).sort()).toEqual([...ids].sort());
    expect(JSON.stringify(items)).not.toContain('@example.com');
    expect((await page(t, '')).total).toBe(10);
    expect((await page(t, '?status=admitted')).total).toBe(20);
  });

  it('keeps positions exact with a boost while people are admitted and erased in any order', async () => {
    const t = await h.tenant({ waitlist: settings(3) });
    const joined = await line(t, 24, 'mix');
    // Join order from the status pages is not exposed; rebuild it from join times.
    const all = [...(await everyone(t, 'waiting'))].sort((p, q) => p.joined_at.localeCompare(q.joined_at));
    const joinOrder = all.map((s) => s.id);
    const byEmail = new Map(all.map((s) => [s.email, s]));
    const erase = async (email: string) =>
      expect((await api(t, 'DELETE', `${t.waitlistId}/subscribers/${byEmail.get(email)?.id}`)).status).toBe(
        204,
      );
    await admit(t, { count: 3 });
    await erase(joined[7]?.email as string);
    await admit(t, { subscriber_ids: [byEmail.get(joined[20]?.email as string)?.id] });
    await erase(joined[0]?.email as string); // the referrer: those it referred keep their places
    await erase(joined[23]?.email as string); // the last joiner: its seq is not given again
    await line(t, 2, 'late');
    const waiting = await everyone(t, 'waiting');
    const fresh = [...(await everyone(t, 'waiting'))].filter((s) => s.email.startsWith('late'));
    const order = [
      ...joinOrder,
      ...fresh.sort((p, q) => p.joined_at.localeCompare(q.joined_at)).map((s) => s.id),
    ];
    expect(waiting.map((s) => s.id)).toEqual(expectedOrder(waiting, order, 3));
    expect(waiting.map((s) => s.position)).toEqual(waiting.map((_, i) => i + 1));
    for (const s of waiting) {
      const [hit] = (await page(t, `?q=${encodeURIComponent(s.email)}`)).items;
      expect({ email: s.email, position: hit?.position }).toEqual({ email: s.email, position: s.position });
    }
    expect((await page(t, '')).total).toBe(waiting.length);
  });
});

/**
 * Where the search index keeps `text`, as bytes, read beside the server: on SQLite the trigram
 * index's own tables (subscribers_fts_data holds its segments); on PostgreSQL the index is built
 * over the search column itself, so the column's rows, dead ones vacuumed away by the scrub.
 */
async function inSearchIndex(text: string): Promise<number> {
  const sqlite = `SELECT (SELECT count(*) FROM subscribers_fts_data WHERE instr(block, CAST(?1 AS BLOB)) > 0)
            + (SELECT count(*) FROM subscribers_fts_idx WHERE instr(CAST(term AS BLOB), CAST(?1 AS BLOB)) > 0) AS n`;
  const postgres = 'SELECT count(*) AS n FROM subscribers WHERE strpos(email_search, ?) > 0';
  const [row] = await sql<{ n: number }>(h.db, isPostgres(h.db) ? postgres : sqlite, [text]);
  return row?.n ?? 0;
}

describe('erasure', () => {
  it('removes every trace of the address: row, search, status page, files; the referrer keeps the credit', async () => {
    const t = await h.tenant({ waitlist: settings(1) });
    const [referrer] = await line(t, 1, 'keeper');
    const referrerCode = (await page(t, '')).items[0]?.referral_code as string;
    // The trigram index stores each term after the bytes it shares with the one before it; no
    // other address has a ж, so the trigram `жzq` is stored whole, where a byte search finds it.
    const secret = 'Erase.Me.Completely@Forget-Me.Жzq.example';
    const res = await publicPost(h.server, t.waitlistId, { email: secret, referral_code: referrerCode });
    const { status_token } = (await res.json()) as { status_token: string };
    const target = (await page(t, `?q=forget-me`)).items[0] as Subscriber;
    expect((await fetch(`${h.server.url}/s/${status_token}`)).status).toBe(200);
    expect(await inSearchIndex('жzq')).toBeGreaterThan(0);

    const erased = await api(t, 'DELETE', `${t.waitlistId}/subscribers/${target.id}`);
    expect(erased.status).toBe(204);
    expect(await erased.text()).toBe('');
    expect((await api(t, 'GET', `${t.waitlistId}/subscribers/${target.id}`)).status).toBe(404);
    expect((await api(t, 'DELETE', `${t.waitlistId}/subscribers/${target.id}`)).status).toBe(404);
    expect((await fetch(`${h.server.url}/s/${status_token}`)).status).toBe(404);
    expect((await page(t, '?q=forget-me')).total).toBe(0);
    const keeper = (await page(t, '')).items.find((s) => s.email === referrer?.email);
    expect(keeper?.referral_count).toBe(1);

    // The activity log names the erasure by id, never the address.
    const { items } = await h.cli<{
      items: { action: string; subject_id: string; actor: { type: string } }[];
    }>(['activity', '--tenant', t.tenantId]);
    expect(items[0]).toMatchObject({
      action: 'subscriber.erased',
      subject_id: target.id,
      actor: { type: 'key' },
    });
    // Nothing of it left in the trigram index (secure-delete: no entry waits behind a delete
    // marker for segments to merge), nor in the server's log; nor, once the cleanup that follows
    // the erasure in the background has run, in the database's files.
    expect(await inSearchIndex('жzq')).toBe(0);
    const needles = [
      secret,
      secret.toLowerCase(),
      'forget-me.жzq.example',
      'жzq',
      status_token,
      target.referral_code,
    ];
    const found = () =>
      [h.db, `${h.db}-wal`].flatMap((file) => {
        let bytes: Buffer;
        try {
          bytes = readFileSync(file);
        } catch {
          return [];
        }
        return needles.filter((needle) => bytes.includes(needle)).map((needle) => ({ file, needle }));
      });
    // Waited for (bounded), then asserted, so that a failure names the file and what it holds.
    await until('no trace in the files', () => found().length === 0).catch(() => undefined);
    expect(found()).toEqual([]);
    expect(h.server.output().toLowerCase()).not.toContain('forget-me');

    // A later sign-up with the same address is a fresh subscriber.
    const again = await apiCreate(h.server, t.key, t.waitlistId, { email: secret });
    expect(again.status).toBe(202);
    const back = (await page(t, '?q=forget-me')).items[0] as Subscriber;
    expect(back.id).not.toBe(target.id);
    expect(back.referral_count).toBe(0);
  });
});

describe('the status page', () => {
  it('tells an admitted subscriber they are in, instead of a position', async () => {
    const t = await h.tenant({ waitlist: settings(0) });
    const [first] = await line(t, 2, 'status');
    const before = await (await fetch(`${h.server.url}/s/${first?.token}`)).text();
    expect(before).toMatch(/class="position"[^>]*>#1</);
    await admit(t, { count: 1 });
    const res = await fetch(`${h.server.url}/s/${first?.token}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('You’re in'.replace('’', "'"));
    expect(html).not.toContain('class="position"');
  });
});
