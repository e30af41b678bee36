/**
 * The dashboard's overview as the launch's cockpit (docs/insights.md#the-cockpit) over HTTP, on
 * whichever store the run uses: the figures come from real views and sign-ups of several
 * channels, as the stats endpoint counts them; referred share and k-factor say what they mean;
 * a subscriber's page lists whom they referred; a refused range is said at the form; an erasure
 * leaves the day's counts as they were.
 */
import type { Tenant } from '@waitlistkit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, type Harness, harness, ORIGIN, publicPost } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();

/** The body rows of the table with this caption, each as its cells' text. */
function rowsOf(html: string, caption: string | RegExp): string[][] {
  const tables = html.split('<table>').slice(1);
  const table = tables.find((t) => {
    const c = text(t.match(/<caption[^>]*>([\s\S]*?)<\/caption>/)?.[1] ?? '');
    return typeof caption === 'string' ? c === caption : caption.test(c);
  });
  if (!table) throw new Error(`no table captioned ${caption}`);
  const body = table.slice(table.indexOf('<tbody>'), table.indexOf('</tbody>'));
  return [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) =>
    [...(row[1] as string).matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((cell) =>
      text(cell[1] as string),
    ),
  );
}

/** The text of the definition after `term` in the figures' list. */
function figure(html: string, term: string): string {
  const m = html.match(new RegExp(`<dt>${term}</dt><dd[^>]*>([\\s\\S]*?)</dd>`));
  if (!m) throw new Error(`no figure ${term}`);
  return text(m[1] as string);
}

const today = () => new Date().toISOString().slice(0, 10);

const newWaitlist = (...settings: string[]) =>
  h.tenant({ waitlist: ['--origins', ORIGIN, '--ip-limit', '1000', '--referrals', 'on', ...settings] });

function view(t: Tenant, source?: Record<string, string>) {
  return fetch(`${h.server.url}/v1/public/waitlists/${t.waitlistId}/views`, {
    method: 'POST',
    headers: { Origin: ORIGIN, 'Content-Type': 'application/json' },
    body: JSON.stringify(source ? { source } : {}),
  });
}

async function signUp(
  t: Tenant,
  body: Record<string, unknown>,
): Promise<{ id: string; referral_code: string }> {
  const res = await publicPost(h.server, t.waitlistId, body);
  expect(res.status).toBe(202);
  const answer = (await res.json()) as { referral_code: string };
  const list = await fetch(
    `${h.server.url}/v1/api/waitlists/${t.waitlistId}/subscribers?q=${encodeURIComponent(body.email as string)}`,
    { headers: { Authorization: `Bearer ${t.key}` } },
  );
  const { items } = (await list.json()) as { items: { id: string; email: string }[] };
  const found = items.find((s) => s.email === body.email);
  if (!found) throw new Error(`${body.email} not listed`);
  return { id: found.id, referral_code: answer.referral_code };
}

const erase = (t: Tenant, id: string) =>
  fetch(`${h.server.url}/v1/api/waitlists/${t.waitlistId}/subscribers/${id}`, {
    method: 'DELETE',
    headers: { Authorization: `Bearer ${t.key}` },
  });

async function signedIn(t: Tenant): Promise<Browser> {
  const b = new Browser(h.server.url);
  await b.signIn(`admin-${t.tenantId}@test.example`);
  return b;
}

const NEWSLETTER = { utm_source: 'newsletter', landing: `${ORIGIN}/` };
const NEWS = { referrer: 'https://news.example/item?id=1', landing: `${ORIGIN}/` };

describe('the overview, the launch’s cockpit', () => {
  let t: Tenant;
  let b: Browser;
  let ada: { id: string; referral_code: string };
  const overview = () => b.get(`/dashboard/waitlists/${t.waitlistId}/overview`);

  beforeAll(async () => {
    t = await newWaitlist();
    // 20 views: 10 from the newsletter, 5 from a news site, 5 direct.
    for (let i = 0; i < 10; i++) expect((await view(t, NEWSLETTER)).status).toBe(204);
    for (let i = 0; i < 5; i++) expect((await view(t, NEWS)).status).toBe(204);
    for (let i = 0; i < 5; i++) expect((await view(t)).status).toBe(204);
    // 6 sign-ups: one of each channel, and three through ada's link.
    ada = await signUp(t, { email: 'ada@example.com', source: NEWSLETTER });
    await signUp(t, { email: 'bo@example.com', source: NEWS });
    await signUp(t, { email: 'dee@example.com' });
    for (const email of ['cy@example.com', 'ed@example.com', 'fay@example.com'])
      await signUp(t, { email, referral_code: ada.referral_code, source: NEWSLETTER });
    b = await signedIn(t);
  });

  it('shows views, sign-ups and conversion of the last 30 days as the stats count them, today last', async () => {
    const page = await overview();
    expect(page.res.status).toBe(200);
    expect(figure(page.html, 'Views')).toBe('20');
    expect(figure(page.html, 'Sign-ups')).toBe('6');
    expect(figure(page.html, 'Conversion')).toBe('30% 30 of every 100 views of the form became a sign-up.');
    const days = rowsOf(page.html, 'Views, sign-ups and conversion per day (UTC)');
    expect(days).toHaveLength(30);
    expect(days.at(-1)).toEqual([today(), '20', '6', '30%']);
    expect(days[0]?.slice(1)).toEqual(['0', '0', '—']);
    // Two drawings, each one named image with a description; the bars keep the chart's old name.
    expect(page.html).toMatch(/<svg class="chart"[^>]*role="img"[^>]*aria-labelledby="chart-title"/);
    expect(page.html).toMatch(/aria-describedby="chart-desc"/);
    expect(text(page.html)).toMatch(
      /Sign-ups per day from \S+ to \S+: 6 in total, most on \S+ \(6\); 20 views\./,
    );
    expect(text(page.html)).toContain(`Conversion per day from`);
    expect(text(page.html)).toContain(`highest on ${today()} (30%), on 1 of 30 days with views.`);
    expect(page.html.match(/<rect class="bar"/g)).toHaveLength(30);
    expect(page.html.match(/<circle class="point"/g)).toHaveLength(1);
  });

  it('lists the channels with their conversion, most sign-ups first', async () => {
    const channels = rowsOf((await overview()).html, /^Where views and sign-ups came from/);
    expect(channels[0]).toEqual(['referral', '0', '3', '—']);
    expect(channels.slice(1).sort()).toEqual([
      ['direct', '5', '1', '20%'],
      ['news.example', '5', '1', '20%'],
      ['newsletter', '10', '1', '10%'],
    ]);
  });

  it('says what referred share and k-factor mean for this list', async () => {
    const page = await overview();
    expect(figure(page.html, 'Referred share')).toBe(
      "50% 50 of every 100 sign-ups came through a friend's link.",
    );
    expect(figure(page.html, 'K-factor')).toBe(
      '0.5 Each person who joined brought 0.5 more: below 1, the list grows only as people find the page.',
    );
    expect(rowsOf(page.html, /^Most credited referrals first/)).toEqual([
      ['ada@example.com', '3', 'Position 1'],
    ]);
    expect(page.html).toMatch(/id="waiting-count">6</);
  });

  it('keeps the day’s counts when a subscriber is erased: only the line and the referrers change', async () => {
    const before = await overview();
    expect((await erase(t, ada.id)).status).toBe(204);
    const after = await overview();
    for (const term of ['Views', 'Sign-ups', 'Conversion', 'Referred share', 'K-factor'])
      expect(figure(after.html, term)).toBe(figure(before.html, term));
    expect(rowsOf(after.html, 'Views, sign-ups and conversion per day (UTC)').at(-1)).toEqual([
      today(),
      '20',
      '6',
      '30%',
    ]);
    expect(rowsOf(after.html, /^Where views/)).toEqual(rowsOf(before.html, /^Where views/));
    expect(after.html).toMatch(/id="waiting-count">5</);
    expect(text(after.html)).toContain('Nobody has referred anyone yet.');
  });

  it('shows a range asked for, with the quick ranges ending today', async () => {
    const week = await b.get(
      `/dashboard/waitlists/${t.waitlistId}/overview?from=${daysAgo(6)}&to=${today()}`,
    );
    expect(week.res.status).toBe(200);
    expect(rowsOf(week.html, /per day \(UTC\)$/)).toHaveLength(7);
    expect(week.html).toMatch(/<a href="[^"]*\?from=[\d-]+&amp;to=[\d-]+" aria-current="page">Last 7 days</);
    const year = await b.get(`/dashboard/waitlists/${t.waitlistId}/overview?from=${daysAgo(365)}`);
    expect(year.res.status).toBe(200);
    expect(rowsOf(year.html, /per day \(UTC\)$/)).toHaveLength(366);
    expect(figure(year.html, 'Sign-ups')).toBe('6');
    // An empty field, as a form sends it, is the default.
    const blank = await b.get(`/dashboard/waitlists/${t.waitlistId}/overview?from=&to=`);
    expect(blank.res.status).toBe(200);
    expect(rowsOf(blank.html, /per day \(UTC\)$/)).toHaveLength(30);
  });

  it('answers a range it refuses with the reason at the form and the last 30 days, never a 500', async () => {
    const base = `/dashboard/waitlists/${t.waitlistId}/overview`;
    for (const [query, field, reason] of [
      ['?from=2026-02-30', 'from', '`from` must be a date written YYYY-MM-DD.'],
      ['?to=yesterday', 'to', '`to` must be a date written YYYY-MM-DD.'],
      ['?from=2026-03-10&to=2026-03-01', 'from', '`from` must not be after `to`.'],
      ['?from=2024-01-01&to=2025-12-31', 'from', 'The range is 731 days; at most 366 may be asked at once.'],
      ['?from=2026-03-01&from=2026-03-02', 'from', '`from` must be a date written YYYY-MM-DD.'],
      [
        `?to=${encodeURIComponent('<script>alert(1)</script>')}`,
        'to',
        '`to` must be a date written YYYY-MM-DD.',
      ],
      [`?from=${'9'.repeat(5000)}`, 'from', '`from` must be a date written YYYY-MM-DD.'],
    ] as const) {
      const page = await b.get(base + query);
      expect(page.res.status, query).toBe(400);
      expect(page.html).not.toContain('<script>alert');
      expect(text(page.html)).toContain(`${reason} Showing the last 30 days instead.`);
      expect(page.html).toMatch(
        new RegExp(`id="${field}"(?:\\s+[a-z-]+(?:="[^"]*")?)*\\s+aria-invalid="true"`),
      );
      expect(rowsOf(page.html, /per day \(UTC\)$/)).toHaveLength(30);
    }
  });

  it('treats another tenant’s waitlist as missing, whatever the range', async () => {
    const other = await signedIn(await newWaitlist());
    for (const query of ['', '?from=nope'])
      expect((await other.get(`/dashboard/waitlists/${t.waitlistId}/overview${query}`)).res.status).toBe(404);
  });
});

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

describe('a subscriber’s page: whom they referred', () => {
  it('lists those credited to them, linked, newest first, the newest 20 and a count of the rest', async () => {
    const t = await newWaitlist();
    const rex = await signUp(t, { email: 'rex@example.com' });
    const referees: { id: string; referral_code: string }[] = [];
    for (let i = 0; i < 23; i++)
      referees.push(await signUp(t, { email: `r${i}@example.com`, referral_code: rex.referral_code }));
    const b = await signedIn(t);
    const path = `/dashboard/waitlists/${t.waitlistId}/subscribers/${rex.id}`;
    const page = await b.get(path);
    expect(page.res.status).toBe(200);
    const rows = rowsOf(page.html, '23 on the list credited to them, newest first');
    expect(rows.map((r) => r[0])).toEqual(Array.from({ length: 20 }, (_, i) => `r${22 - i}@example.com`));
    expect(rows[0]?.[2]).toMatch(/^Position \d+$/);
    expect(page.html).toContain(
      `<a href="/dashboard/waitlists/${t.waitlistId}/subscribers/${referees[22]?.id}">`,
    );
    expect(text(page.html)).toContain('And 3 more, credited earlier.');

    // An erased one leaves the list; the credit stays, and the page says so.
    expect((await erase(t, referees[22]?.id as string)).status).toBe(204);
    const after = await b.get(path);
    const left = rowsOf(after.html, '22 on the list credited to them, newest first');
    expect(left[0]?.[0]).toBe('r21@example.com');
    expect(text(after.html)).toContain('And 2 more, credited earlier.');
    expect(text(after.html)).toContain('1 more credited to them was erased since; the credit stays.');

    // Someone who referred nobody says so; a referee's page is reached from the list.
    const r0 = await b.get(`/dashboard/waitlists/${t.waitlistId}/subscribers/${referees[0]?.id}`);
    expect(rowsOf(r0.html, 'Nobody on the list was credited to them')).toEqual([]);
  });

  it('leaves out a referee whose credit waits for a confirmed address', async () => {
    const t = await newWaitlist('--confirm-email', 'on');
    const rex = await signUp(t, { email: 'rex@example.com' });
    await signUp(t, { email: 'pending@example.com', referral_code: rex.referral_code });
    const page = await (await signedIn(t)).get(`/dashboard/waitlists/${t.waitlistId}/subscribers/${rex.id}`);
    expect(page.res.status).toBe(200);
    expect(rowsOf(page.html, 'Nobody on the list was credited to them')).toEqual([]);
    expect(page.html).not.toContain('pending@example.com');
  });
});
