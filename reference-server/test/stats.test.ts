/**
 * Views and stats (docs/insights.md) over HTTP, on whichever store the run uses: the day
 * aggregates kept by every path that writes a subscriber (public and API sign-ups, a referral
 * credit, a confirmation, admissions, an import), erasure leaving past days as they were, the
 * range's refusals, and the views endpoint's checks (origin, per-IP window, bodies).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Stats, StatsSchema } from '@waitlistkit/protocol';
import { type Tenant, tempDir } from '@waitlistkit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcess } from './cli-in-process.js';
import { sql } from './database.js';
import { apiCreate, errorOf, type Harness, harness, ORIGIN, publicPost } from './helpers.js';

let h: Harness;
const dir = tempDir();
beforeAll(async () => {
  h = await harness({ WAITLIST_KEY_RATE_LIMIT: '100000' });
});
afterAll(async () => {
  await h.close();
  dir.cleanup();
});

const today = () => new Date().toISOString().slice(0, 10);

function statsGet(t: Tenant, query = '') {
  return fetch(`${h.server.url}/v1/api/waitlists/${t.waitlistId}/stats${query}`, {
    headers: { Authorization: `Bearer ${t.key}` },
  });
}

async function stats(t: Tenant, query = ''): Promise<Stats> {
  const res = await statsGet(t, query);
  expect(res.status).toBe(200);
  return StatsSchema.parse(await res.json());
}

function view(waitlistId: string, body: unknown = {}, headers: Record<string, string> = {}) {
  return fetch(`${h.server.url}/v1/public/waitlists/${waitlistId}/views`, {
    method: 'POST',
    headers: { Origin: ORIGIN, 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

const channelsOf = (s: Stats) => Object.fromEntries(s.channels.map((c) => [c.channel, [c.views, c.signups]]));
const lastDay = (s: Stats) => s.days[s.days.length - 1];

const admit = (t: Tenant, body: unknown) =>
  fetch(`${h.server.url}/v1/api/waitlists/${t.waitlistId}/admissions`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${t.key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

const erase = (t: Tenant, id: string) =>
  fetch(`${h.server.url}/v1/api/waitlists/${t.waitlistId}/subscribers/${id}`, {
    method: 'DELETE',
    headers: { Authorization: `Bearer ${t.key}` },
  });

async function idOf(t: Tenant, email: string): Promise<string> {
  const [row] = await sql<{ id: string }>(
    h.db,
    'SELECT id FROM subscribers WHERE waitlist_id = ? AND email = ?',
    [t.waitlistId, email],
  );
  if (!row) throw new Error(`${email} not on the list`);
  return row.id;
}

const newWaitlist = (...settings: string[]) =>
  h.tenant({ waitlist: ['--origins', ORIGIN, '--ip-limit', '1000', '--referrals', 'on', ...settings] });

describe('stats', () => {
  it('counts views, sign-ups of every channel, a referral credit and admissions; erasure changes nothing', async () => {
    const t = await newWaitlist();
    const newsletter = { utm_source: 'newsletter', landing: `${ORIGIN}/` };
    for (let i = 0; i < 3; i++) expect((await view(t.waitlistId, { source: newsletter })).status).toBe(204);
    for (let i = 0; i < 2; i++) expect((await view(t.waitlistId)).status).toBe(204);
    // The beacon's text/plain body, which needs no preflight.
    const beacon = await view(
      t.waitlistId,
      { source: { referrer: 'https://news.example/item?id=1', landing: `${ORIGIN}/` } },
      { 'Content-Type': 'text/plain;charset=UTF-8' },
    );
    expect(beacon.status).toBe(204);
    expect(beacon.headers.get('access-control-allow-origin')).toBe(ORIGIN);

    const first = await publicPost(h.server, t.waitlistId, { email: 'ada@example.com', source: newsletter });
    const { referral_code } = (await first.json()) as { referral_code: string };
    expect((await publicPost(h.server, t.waitlistId, { email: 'bob@example.com' })).status).toBe(202);
    // Credited at once (no confirmation): counted under `referral`, not its utm_source.
    const referred = { email: 'cy@example.com', referral_code, source: newsletter };
    expect((await publicPost(h.server, t.waitlistId, referred)).status).toBe(202);
    expect(
      (
        await apiCreate(h.server, t.key, t.waitlistId, {
          email: 'di@example.com',
          source: { utm_source: 'partner' },
        })
      ).status,
    ).toBe(202);
    // A re-sign-up is no sign-up.
    expect((await publicPost(h.server, t.waitlistId, { email: 'ada@example.com' })).status).toBe(202);

    const before = await stats(t);
    expect(before.days).toHaveLength(30);
    expect(lastDay(before)).toEqual({
      date: today(),
      views: 6,
      signups: 4,
      confirmed: 0,
      referred: 1,
      admitted: 0,
    });
    expect(before.days.slice(0, -1).every((d) => d.views + d.signups === 0)).toBe(true);
    expect(channelsOf(before)).toEqual({
      newsletter: [3, 1],
      direct: [2, 1],
      referral: [0, 1],
      partner: [0, 1],
      'news.example': [1, 0],
    });
    expect(before.totals).toEqual({
      views: 6,
      signups: 4,
      conversion: 4 / 6,
      referred_share: 0.25,
      k_factor: 0.25,
    });

    expect((await admit(t, { count: 2 })).status).toBe(200);
    expect((await admit(t, { subscriber_ids: [await idOf(t, 'di@example.com')] })).status).toBe(200);
    const admitted = await stats(t);
    expect(lastDay(admitted)?.admitted).toBe(3);

    for (const email of ['ada@example.com', 'bob@example.com']) {
      expect((await erase(t, await idOf(t, email))).status).toBe(204);
    }
    expect(await stats(t)).toEqual(admitted);
  });

  it('counts a confirmation, and a credit given at confirmation moves the sign-up to `referral`', async () => {
    const t = await newWaitlist('--confirm-email', 'on');
    const first = await publicPost(h.server, t.waitlistId, { email: 'ada@example.com' });
    const { referral_code } = (await first.json()) as { referral_code: string };
    await publicPost(h.server, t.waitlistId, { email: 'bob@example.com', referral_code });
    const waiting = await stats(t);
    expect(lastDay(waiting)).toMatchObject({ signups: 2, confirmed: 0, referred: 0 });
    expect(waiting.totals.k_factor).toBe(0);

    const [row] = await sql<{ confirm_token: string }>(
      h.db,
      'SELECT confirm_token FROM subscribers WHERE id = ?',
      [await idOf(t, 'bob@example.com')],
    );
    const pressed = await fetch(`${h.server.url}/c/${row?.confirm_token}`, {
      method: 'POST',
      redirect: 'manual',
    });
    expect(pressed.status).toBe(303);
    const confirmed = await stats(t);
    expect(lastDay(confirmed)).toMatchObject({ signups: 2, confirmed: 1, referred: 1 });
    expect(channelsOf(confirmed)).toEqual({ direct: [0, 1], referral: [0, 1] });
    expect(confirmed.totals).toMatchObject({ referred_share: 0.5, k_factor: 0.5 });
  });

  it('counts imported rows on the day they joined, and keeps those days when they are erased', async () => {
    const t = await newWaitlist();
    const path = join(dir.dir, 'list.csv');
    writeFileSync(
      path,
      [
        'email,joined_at,referred_by,utm_source',
        'old1@example.com,2025-01-10T09:00:00Z,,ads',
        'old2@example.com,2025-01-10T23:59:59Z,,',
        'old3@example.com,2025-01-11,old1@example.com,',
      ].join('\n'),
    );
    await h.cli([
      'subscriber',
      'import',
      '--operator',
      t.operatorId,
      '--waitlist',
      t.waitlistId,
      '--file',
      path,
    ]);
    const range = '?from=2025-01-09&to=2025-01-12';
    const imported = await stats(t, range);
    expect(imported.days.map((d) => [d.date, d.signups, d.referred])).toEqual([
      ['2025-01-09', 0, 0],
      ['2025-01-10', 2, 0],
      ['2025-01-11', 1, 1],
      ['2025-01-12', 0, 0],
    ]);
    expect(channelsOf(imported)).toEqual({ ads: [0, 1], direct: [0, 1], referral: [0, 1] });
    expect(imported.totals).toMatchObject({ signups: 3, views: 0, conversion: null, k_factor: 1 / 3 });
    // Today is not those days.
    expect(lastDay(await stats(t))?.signups).toBe(0);

    for (const email of ['old1@example.com', 'old3@example.com'])
      expect((await erase(t, await idOf(t, email))).status).toBe(204);
    expect(await stats(t, range)).toEqual(imported);
  });

  it('lists the 50 channels with most sign-ups; the views of the rest stay in the totals', async () => {
    const t = await h.tenant({ waitlist: ['--origins', ORIGIN, '--ip-limit', '1000'] });
    // A bot naming a new utm_source with each view, and three sign-ups from a channel of its own.
    for (let i = 0; i < 60; i++)
      expect((await view(t.waitlistId, { source: { utm_source: `bot${i}` } })).status).toBe(204);
    for (const email of ['a@example.com', 'b@example.com', 'c@example.com'])
      expect(
        (await publicPost(h.server, t.waitlistId, { email, source: { utm_source: 'news' } })).status,
      ).toBe(202);
    const s = await stats(t);
    expect(s.channels).toHaveLength(50);
    expect(s.channels[0]).toEqual({ channel: 'news', views: 0, signups: 3 });
    // Then by views (one each), then by name: the same answer every time.
    expect(s.channels.slice(1, 4).map((c) => c.channel)).toEqual(['bot0', 'bot1', 'bot10']);
    expect(s.totals).toMatchObject({ views: 60, signups: 3 });
  });

  it('refuses ranges that are not calendar days, reversed, or over 366 days, naming the parameter', async () => {
    const t = await newWaitlist();
    const cases: [string, RegExp][] = [
      ['?from=2025-02-30&to=2025-03-01', /`from` must be a date written YYYY-MM-DD/],
      ['?to=yesterday', /`to` must be a date written YYYY-MM-DD/],
      ['?from=2025-1-01', /`from` must be a date/],
      ['?from=2025-03-02&to=2025-03-01', /`from` must not be after `to`/],
      ['?from=2024-01-01&to=2025-01-01', /367 days; at most 366/],
      ['?from=2025-01-01&from=2025-01-02', /`from` must be given once/],
      [`?to=${'9'.repeat(5000)}`, /`to` must be a date/],
    ];
    for (const [query, message] of cases) {
      const res = await statsGet(t, query);
      expect(res.status, query).toBe(400);
      const error = await errorOf(res);
      expect(error.code).toBe('invalid_request');
      expect(error.message, query).toMatch(message);
    }
    const year = await stats(t, '?from=2024-01-01&to=2024-12-31');
    expect(year.days).toHaveLength(366);
    expect(year.days[59]?.date).toBe('2024-02-29');
    expect(year.totals).toEqual({
      views: 0,
      signups: 0,
      conversion: null,
      referred_share: null,
      k_factor: null,
    });
  });

  it('answers 401 without a key and 404 for another tenant’s waitlist', async () => {
    const t = await newWaitlist();
    const other = await newWaitlist();
    expect((await fetch(`${h.server.url}/v1/api/waitlists/${t.waitlistId}/stats`)).status).toBe(401);
    expect((await statsGet({ ...other, waitlistId: t.waitlistId })).status).toBe(404);
  });

  it('is printed by the stats command, which refuses bad options with a usage error', async () => {
    const t = await newWaitlist();
    await view(t.waitlistId);
    const printed = await h.cli<Stats>([
      'stats',
      '--waitlist',
      t.waitlistId,
      '--from',
      today(),
      '--to',
      today(),
    ]);
    expect(printed).toEqual(await stats(t, `?from=${today()}&to=${today()}`));
    expect(printed.totals.views).toBe(1);
    const { run } = inProcess(h.db);
    for (const args of [
      ['--waitlist', t.waitlistId, '--from', '2025-13-01'],
      ['--waitlist', t.waitlistId, '--from', '2025-03-02', '--to', '2025-03-01'],
      ['--from', today()],
    ]) {
      const result = await run(['stats', ...args]);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.error.code).toBe('usage_error');
    }
    expect((await run(['stats', '--waitlist', 'wl_missing'])).error.code).toBe('not_found');
  });
});

describe('views', () => {
  it('answer 404 without CORS headers to a missing or refused Origin and an unknown waitlist', async () => {
    const t = await newWaitlist();
    const cases = [
      view(t.waitlistId, {}, { Origin: 'https://evil.example' }),
      fetch(`${h.server.url}/v1/public/waitlists/${t.waitlistId}/views`, {
        method: 'POST',
        headers: { 'Content-Type': 'text/plain' },
        body: '{}',
      }),
      view('wl_nope'),
    ];
    for (const res of await Promise.all(cases)) {
      expect(res.status).toBe(404);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      expect((await errorOf(res)).code).toBe('not_found');
    }
    expect(lastDay(await stats(t))?.views).toBe(0);
  });

  it('refuse bodies that are not {} or {"source": …}, and other media types; count nothing for them', async () => {
    const t = await newWaitlist();
    const cases: [unknown, Record<string, string>, number, RegExp][] = [
      [{ email: 'ada@example.com' }, {}, 400, /must not have `email`/],
      [{ source: { utm_source: 'x'.repeat(201) } }, {}, 400, /`source\.utm_source` must be at most 200/],
      [{ source: { referrer: 'javascript:alert(1)' } }, {}, 400, /`source\.referrer` must be an http/],
      ['{"source":', { 'Content-Type': 'text/plain' }, 400, /not valid JSON/],
      ['[]', {}, 400, /must be an object/],
      ['{}', { 'Content-Type': 'text/html' }, 415, /application\/json or text\/plain/],
      [JSON.stringify({ source: { utm_term: 'x'.repeat(20_000) } }), {}, 413, /larger than/],
    ];
    for (const [body, headers, status, message] of cases) {
      const res = await view(t.waitlistId, body, headers);
      expect(res.status, String(body).slice(0, 40)).toBe(status);
      expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
      expect((await errorOf(res)).message).toMatch(message);
    }
    expect(lastDay(await stats(t))?.views).toBe(0);
  });

  it('answer a preflight for an allowed origin', async () => {
    const t = await newWaitlist();
    const res = await fetch(`${h.server.url}/v1/public/waitlists/${t.waitlistId}/views`, {
      method: 'OPTIONS',
      headers: { Origin: ORIGIN, 'Access-Control-Request-Method': 'POST' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
  });

  it('from one address are throttled in the sign-up window: a flood counts only what was let through', async () => {
    const t = await h.tenant({ waitlist: ['--origins', ORIGIN, '--ip-limit', '5'] });
    const answers = [];
    for (let i = 0; i < 12; i++) answers.push((await view(t.waitlistId)).status);
    expect(answers).toEqual([...Array(5).fill(204), ...Array(7).fill(429)]);
    const refused = await view(t.waitlistId);
    expect(refused.headers.get('retry-after')).toBe('60');
    // The budget is the address's, not the sign-ups' alone: the answer says so.
    expect(await refused.json()).toEqual({
      error: {
        code: 'rate_limit_exceeded',
        message: 'Too many requests from this address; try again in 60 seconds.',
      },
    });
    // The same window as the sign-ups'.
    expect((await publicPost(h.server, t.waitlistId, { email: 'late@example.com' })).status).toBe(429);
    expect(lastDay(await stats(t))).toMatchObject({ views: 5, signups: 0 });
  });
});
