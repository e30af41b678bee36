/** The dashboard over plain HTTP: what a browser would send, including what an attacker's page would. */
import type { Tenant } from '@waitlistkit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from './database.js';
import {
  addOperator,
  apiCreate,
  apiList,
  Browser,
  type Harness,
  harness,
  ORIGIN,
  PASSWORD,
  publicPost,
} from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

const operator = (t: Tenant, role: 'admin' | 'member') => addOperator(h, t.tenantId, role);

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

describe('sign-in and sessions', () => {
  it('signs in with a session cookie that is HttpOnly, SameSite=Lax and scoped to /dashboard', async () => {
    const t = await h.tenant();
    const b = new Browser(h.server.url);
    const { res } = await b.signIn(`admin-${t.tenantId}@test.example`);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/dashboard/waitlists');
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('wl_session=')) as string;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\/dashboard/);
    expect((await b.get('/dashboard/waitlists')).res.status).toBe(200);
    const page = await b.get('/dashboard/waitlists');
    expect((await b.post('/dashboard/sign-out', { _csrf: Browser.csrf(page.html) })).res.status).toBe(303);
    expect((await b.get('/dashboard/waitlists')).res.headers.get('location')).toBe('/dashboard/sign-in');
  });

  it('refuses wrong passwords, unknown emails, and a sign-in form from another site', async () => {
    const t = await h.tenant();
    const b = new Browser(h.server.url);
    expect((await b.signIn(`admin-${t.tenantId}@test.example`, 'wrong password!')).res.status).toBe(401);
    expect((await b.signIn('nobody@test.example')).res.status).toBe(401);
    const page = await b.get('/dashboard/sign-in');
    const forged = await b.post(
      '/dashboard/sign-in',
      { email: `admin-${t.tenantId}@test.example`, password: PASSWORD, _csrf: Browser.csrf(page.html) },
      'https://evil.example',
    );
    expect(forged.res.status).toBe(403);
    expect(b.cookies.has('wl_session')).toBe(false);
  });

  it('throttles failed sign-ins: five attempts, then 429 with Retry-After, even with the right password', async () => {
    const t = await h.tenant();
    const email = `admin-${t.tenantId}@test.example`;
    const b = new Browser(h.server.url);
    for (let i = 0; i < 5; i++) expect((await b.signIn(email, `guess-${i}-password`)).res.status).toBe(401);
    const blocked = await b.signIn(email);
    expect(blocked.res.status).toBe(429);
    expect(Number(blocked.res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(text(blocked.html)).toMatch(/Too many sign-in attempts; try again in \d+ minutes?\./);
  });

  it('redirects to sign-in without a session and refuses posts without one', async () => {
    const b = new Browser(h.server.url);
    expect((await b.get('/dashboard/keys')).res.headers.get('location')).toBe('/dashboard/sign-in');
    expect((await b.post('/dashboard/keys', { name: 'x', preset: 'full', _csrf: 'x' })).res.status).toBe(401);
  });
});

describe('sign-in floods', () => {
  let p: Harness;
  beforeAll(async () => {
    p = await harness({ WAITLIST_KEY_RATE_LIMIT: '1000000' }, ['--trust-proxy']);
  });
  afterAll(() => p.close());

  it('refuses a flood of distinct emails from one address with 429 after thirty attempts', async () => {
    const b = new Browser(p.server.url, { 'X-Forwarded-For': '203.0.113.7' });
    const statuses: number[] = [];
    for (let i = 0; i < 32; i++) statuses.push((await b.signIn(`nobody-${i}@flood.example`)).res.status);
    expect(statuses.slice(0, 30)).toEqual(Array(30).fill(401));
    const blocked = await b.signIn(`admin-anyone@flood.example`);
    expect([...statuses.slice(30), blocked.res.status]).toEqual([429, 429, 429]);
    expect(Number(blocked.res.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another address is not affected.
    const other = new Browser(p.server.url, { 'X-Forwarded-For': '203.0.113.8' });
    expect((await other.signIn('nobody@flood.example')).res.status).toBe(401);
    // 31 scrypt runs of 128 MiB, one at a time by design: half a minute on a loaded 2-core machine.
  }, 90_000);

  it('counts an IPv6 address by its /64: five wrong passwords from one /64 lock the email there, not elsewhere', async () => {
    const t = await p.tenant();
    const email = `admin-${t.tenantId}@test.example`;
    const statuses: number[] = [];
    for (let i = 1; i <= 5; i++) {
      const b = new Browser(p.server.url, { 'X-Forwarded-For': `2001:db8:77:1::${i}` });
      statuses.push((await b.signIn(email, 'wrong password!')).res.status);
    }
    expect(statuses).toEqual(Array(5).fill(401));
    // A sixth address of that /64 is the same client: refused before its password is checked.
    const sixth = await new Browser(p.server.url, { 'X-Forwarded-For': '2001:DB8:77:1:FFFF::6' }).signIn(
      email,
    );
    expect(sixth.res.status).toBe(429);
    expect(Number(sixth.res.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another /64 signs in.
    expect(
      (await new Browser(p.server.url, { 'X-Forwarded-For': '2001:db8:77:2::1' }).signIn(email)).res.status,
    ).toBe(303);
    // Six scrypt runs of 128 MiB, one at a time.
  }, 90_000);

  // One derivation at a time is counted in password-slots.test.ts; what it buys the API's latency
  // during a flood is measured by bench item 12, beside its baseline.
  it('answers a flood of sign-ins from many addresses with 401 or an immediate 429, and the API meanwhile', async () => {
    const t = await p.tenant();
    const list = async () => {
      const res = await apiList(p.server, t.key, t.waitlistId);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    };
    let settled = false;
    const flood = Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        new Browser(p.server.url, { 'X-Forwarded-For': `198.51.100.${i + 1}` }).signIn(
          `flood-${i}@flood.example`,
        ),
      ),
    ).finally(() => {
      settled = true;
    });
    let during = 0;
    while (!settled && during < 500) {
      await list();
      during++;
    }
    const answers = await flood;
    expect(during).toBeGreaterThanOrEqual(5);
    const statuses = answers.map((a) => a.res.status);
    // Some were checked (wrong password), the ones past the queue were turned away at once.
    expect(statuses.filter((s) => s === 401).length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
    const busy = answers.find((a) => a.res.status === 429);
    expect(text(busy?.html ?? '')).toContain('Too many password checks are under way');
  }, 240_000);

  it('re-hashes a password stored at an older scrypt cost on the next sign-in', async () => {
    const t = await p.tenant();
    const email = `admin-${t.tenantId}@test.example`;
    const { scryptSync, randomBytes } = await import('node:crypto');
    const salt = randomBytes(16);
    const old = scryptSync(PASSWORD.normalize('NFKC'), salt, 32, { N: 2 ** 14, r: 8, p: 1 });
    const oldHash = ['scrypt', 2 ** 14, 8, 1, salt.toString('base64url'), old.toString('base64url')].join(
      '$',
    );
    const storedHash = async () =>
      (await sql<{ h: string }>(p.db, 'SELECT password_hash AS h FROM operators WHERE email = ?', [email]))[0]
        ?.h;
    await sql(p.db, 'UPDATE operators SET password_hash = ? WHERE email = ?', [oldHash, email]);
    expect(await storedHash()).toBe(oldHash);

    const b = new Browser(p.server.url, { 'X-Forwarded-For': '192.0.2.10' });
    expect((await b.signIn(email)).res.status).toBe(303);
    const fresh = (await storedHash()) as string;
    expect(fresh).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(fresh).not.toContain(salt.toString('base64url'));
    // The new hash verifies the same password, and only it.
    expect(
      (await new Browser(p.server.url, { 'X-Forwarded-For': '192.0.2.11' }).signIn(email)).res.status,
    ).toBe(303);
    expect(
      (await new Browser(p.server.url, { 'X-Forwarded-For': '192.0.2.12' }).signIn(email, 'wrong password!'))
        .res.status,
    ).toBe(401);
  });
});

describe('CSRF', () => {
  it('refuses posts without the token, with a wrong one, or from another origin', async () => {
    const t = await h.tenant();
    const b = new Browser(h.server.url);
    await b.signIn(`admin-${t.tenantId}@test.example`);
    const token = Browser.csrf((await b.get('/dashboard/keys')).html);
    expect((await b.post('/dashboard/keys', { name: 'A', preset: 'full' })).res.status).toBe(403);
    expect(
      (await b.post('/dashboard/keys', { name: 'A', preset: 'full', _csrf: `${token}x` })).res.status,
    ).toBe(403);
    expect(
      (await b.post('/dashboard/keys', { name: 'A', preset: 'full', _csrf: token }, 'http://localhost:1')).res
        .status,
    ).toBe(403);
    const keys = await h.cli<{ items: unknown[] }>(['key', 'list', '--tenant', t.tenantId]);
    expect(keys.items).toHaveLength(1); // only the one the fixture made
    expect((await b.post('/dashboard/keys', { name: 'A', preset: 'full', _csrf: token })).res.status).toBe(
      303,
    );
  });
});

describe('keys', () => {
  it('shows a new key once, then never again; the key works with its scopes', async () => {
    const t = await h.tenant({ waitlist: ['--origins', ORIGIN] });
    const b = new Browser(h.server.url);
    await b.signIn(`admin-${t.tenantId}@test.example`);
    const token = Browser.csrf((await b.get('/dashboard/keys')).html);
    const created = await b.post('/dashboard/keys', { name: 'Reporting', preset: 'read-only', _csrf: token });
    const reveal = created.res.headers.get('location') as string;
    const shown = await b.get(reveal);
    const value = shown.html.match(/value="(wlk_live_\w+)"/)?.[1] as string;
    expect(value).toMatch(/^wlk_live_\w{38}$/);
    expect(shown.res.headers.get('cache-control')).toBe('no-store');
    const again = await b.get(reveal);
    expect(again.res.status).toBe(410);
    expect(again.html).not.toContain(value);
    expect((await b.get('/dashboard/keys')).html).not.toContain(value);
    expect((await apiList(h.server, value, t.waitlistId)).status).toBe(200);
  });

  it('lets members see keys but refuses their forged create and revoke posts, and logs the attempts', async () => {
    const t = await h.tenant();
    const member = await operator(t, 'member');
    const b = new Browser(h.server.url);
    await b.signIn(member);
    const page = await b.get('/dashboard/keys');
    expect(text(page.html)).toContain('Only admins can create or revoke keys');
    expect(page.html).not.toContain('Create key');
    expect(page.html).not.toContain('/revoke');
    const token = Browser.csrf(page.html);
    expect(
      (await b.post('/dashboard/keys', { name: 'Sneaky', preset: 'full', _csrf: token })).res.status,
    ).toBe(403);
    const keyId = (await h.cli<{ items: { id: string }[] }>(['key', 'list', '--tenant', t.tenantId])).items[0]
      ?.id as string;
    expect((await b.post(`/dashboard/keys/${keyId}/revoke`, { _csrf: token })).res.status).toBe(403);
    const log = await h.cli<{ items: { action: string; actor: { name: string } }[] }>([
      'activity',
      '--tenant',
      t.tenantId,
    ]);
    expect(log.items.slice(0, 2).map((e) => `${e.action} ${e.actor.name}`)).toEqual([
      `key.revoke_refused ${member}`,
      `key.create_refused ${member}`,
    ]);
    expect((await apiList(h.server, t.key, t.waitlistId)).status).toBe(200);
  });

  it('explains the plan on free and offers no create button; a forged create is refused', async () => {
    const t = await h.tenant({ plan: 'free' });
    const b = new Browser(h.server.url);
    await b.signIn(`admin-${t.tenantId}@test.example`);
    const page = await b.get('/dashboard/keys');
    expect(text(page.html)).toContain('API access needs the Pro or Team plan');
    expect(page.html).not.toContain('Create key');
    const forged = await b.post('/dashboard/keys', {
      name: 'K',
      preset: 'full',
      _csrf: Browser.csrf(page.html),
    });
    expect(forged.res.status).toBe(403);
    expect(text(forged.html)).toContain('Pro or Team');
  });

  it('cannot touch another tenant’s keys or waitlists', async () => {
    const mine = await h.tenant();
    const theirs = await h.tenant();
    const b = new Browser(h.server.url);
    await b.signIn(`admin-${mine.tenantId}@test.example`);
    const token = Browser.csrf((await b.get('/dashboard/keys')).html);
    const theirKey = (await h.cli<{ items: { id: string }[] }>(['key', 'list', '--tenant', theirs.tenantId]))
      .items[0]?.id as string;
    expect((await b.post(`/dashboard/keys/${theirKey}/revoke`, { _csrf: token })).res.status).toBe(404);
    expect((await b.get(`/dashboard/waitlists/${theirs.waitlistId}`)).res.status).toBe(404);
    expect((await b.get(`/dashboard/waitlists/${theirs.waitlistId}/subscribers.csv`)).res.status).toBe(404);
    expect((await apiList(h.server, theirs.key, theirs.waitlistId)).status).toBe(200);
  });
});

describe('waitlist settings and subscribers', () => {
  it('saves every setting through the form and shows field errors without saving anything', async () => {
    const t = await h.tenant();
    const b = new Browser(h.server.url);
    await b.signIn(`admin-${t.tenantId}@test.example`);
    const page = await b.get(`/dashboard/waitlists/${t.waitlistId}`);
    expect(page.html).toContain(`data-waitlist-id=&quot;${t.waitlistId}&quot;`);
    const token = Browser.csrf(page.html);
    const form = {
      _csrf: token,
      name: 'Renamed',
      referrals: 'on',
      referral_boost: '4',
      origins: 'https://a.example\nhttps://b.example',
      challenge: 'on',
      challenge_min_age_ms: '2000',
      pow: 'on',
      pow_difficulty: '16',
      pow_adaptive: 'on',
      pow_surge_threshold: '60',
      ip_limit: '30',
      email_throttle: 'on',
      mx_check: 'on',
      block_disposable: 'on',
      disposable_domains: 'burner.example, other.example',
      geo_allow: '',
      geo_deny: 'ru\nkp',
    };
    const bad = await b.post(`/dashboard/waitlists/${t.waitlistId}`, {
      ...form,
      origins: 'not an origin',
      pow_difficulty: '99',
    });
    expect(bad.res.status).toBe(400);
    expect(text(bad.html)).toContain('is not an origin like https://example.com');
    expect(text(bad.html)).toContain('Enter a whole number from 1 to 32.');
    const conflict = await b.post(`/dashboard/waitlists/${t.waitlistId}`, { ...form, geo_allow: 'US' });
    expect(conflict.res.status).toBe(400);
    expect(text(conflict.html)).toContain('not both');
    const before = await h.cli(['waitlist', 'update', '--waitlist', t.waitlistId]);
    expect(before).toMatchObject({ name: 'Launch', pow: false });
    expect((await b.post(`/dashboard/waitlists/${t.waitlistId}`, form)).res.status).toBe(303);
    expect(await h.cli(['waitlist', 'update', '--waitlist', t.waitlistId])).toMatchObject({
      name: 'Renamed',
      referrals: true,
      referral_boost: 4,
      origins: ['https://a.example', 'https://b.example'],
      challenge: true,
      challenge_min_age_ms: 2000,
      pow: true,
      pow_difficulty: 16,
      pow_adaptive: true,
      pow_surge_threshold: 60,
      ip_limit: 30,
      email_throttle: true,
      mx_check: true,
      block_disposable: true,
      disposable_domains: ['burner.example', 'other.example'],
      geo_allow: [],
      geo_deny: ['RU', 'KP'],
    });
    // Unchecked boxes turn switches off.
    await b.post(`/dashboard/waitlists/${t.waitlistId}`, { ...form, pow: '', challenge: '' });
    expect(await h.cli(['waitlist', 'update', '--waitlist', t.waitlistId])).toMatchObject({
      pow: false,
      challenge: false,
    });
  });

  it('lists, searches, pages and exports subscribers as CSV with formulas defused', async () => {
    const t = await h.tenant({ waitlist: ['--origins', ORIGIN, '--referrals', 'on', '--ip-limit', '1000'] });
    for (const email of [
      '=cmd@evil.example',
      'ada@example.com',
      '+sum@x.example',
      ...Array.from({ length: 60 }, (_, i) => `p${i}@bulk.example`),
    ]) {
      expect((await publicPost(h.server, t.waitlistId, { email })).status).toBe(202);
    }
    const b = new Browser(h.server.url);
    await b.signIn(`admin-${t.tenantId}@test.example`);
    const first = await b.get(`/dashboard/waitlists/${t.waitlistId}/subscribers`);
    expect(text(first.html)).toContain('63 subscribers, page 1 of 2');
    const found = await b.get(`/dashboard/waitlists/${t.waitlistId}/subscribers?q=ADA`);
    expect(text(found.html)).toContain('1 matching subscriber');
    expect(found.html).toContain('ada@example.com');
    const second = await b.get(`/dashboard/waitlists/${t.waitlistId}/subscribers?page=2`);
    expect(text(second.html)).toContain('p59@bulk.example');
    const csv = await b.get(`/dashboard/waitlists/${t.waitlistId}/subscribers.csv`);
    expect(csv.res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const lines = csv.html.trim().split('\r\n');
    // The export's columns (docs/moving-a-list.md#the-export): the import's, then the line's.
    expect(lines[0]).toBe(
      'email,joined_at,referred_by,confirmed,lang,utm_source,utm_medium,utm_campaign,utm_term,utm_content,referrer,landing,channel,id,position,status,referral_code,referral_count,admitted_at',
    );
    expect(lines).toHaveLength(64);
    expect(lines[1]).toMatch(/^"'=cmd@evil\.example",\d{4}-.*,sub_\w+,1,waiting,/);
    expect(lines[3]).toMatch(/^"'\+sum@x\.example",.*,sub_\w+,3,waiting,/);
    expect(lines[2]).toMatch(/^ada@example\.com,.*,2,waiting,[23456789A-HJ-NP-Z]{6},0,$/);
  });
});

describe('subscriber lifecycle', () => {
  /** A tenant with `count` subscribers s0…, through its key; their ids in join order. */
  async function withLine(count: number) {
    const t = await h.tenant();
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const email = `s${i}-${t.tenantId}@example.com`.toLowerCase();
      expect((await apiCreate(h.server, t.key, t.waitlistId, { email })).status).toBe(202);
      ids.push(
        (await h.cli<{ id: string }>(['subscriber', 'get', '--waitlist', t.waitlistId, '--email', email])).id,
      );
    }
    return { t, ids };
  }
  const statusOf = async (t: Tenant, id: string) =>
    (await h.cli<{ status: string }>(['subscriber', 'get', '--waitlist', t.waitlistId, '--id', id])).status;
  const waitingCount = async (b: Browser, t: Tenant) =>
    Number(
      text((await b.get(`/dashboard/waitlists/${t.waitlistId}/subscribers`)).html).match(
        /(\d+) subscribers?,/,
      )?.[1],
    );

  /** The list page's admission form: its CSRF token and its one-time token. */
  const admitForm = async (b: Browser, base: string) => {
    const { html } = await b.get(`${base}/subscribers`);
    return { _csrf: Browser.csrf(html), once: html.match(/name="once" value="([^"]+)"/)?.[1] as string };
  };

  it('lets an admin admit the next N and one by one, and erase one, with notices and log entries', async () => {
    const { t, ids } = await withLine(4);
    const b = new Browser(h.server.url);
    await b.signIn(`admin-${t.tenantId}@test.example`);
    const base = `/dashboard/waitlists/${t.waitlistId}`;
    const list = await b.get(`${base}/subscribers`);
    expect(list.html).toContain(`href="${base}/subscribers/${ids[0]}"`);
    const _csrf = Browser.csrf(list.html);

    const admitted = await b.post(`${base}/admissions`, { count: '2', ...(await admitForm(b, base)) });
    expect(admitted.res.status).toBe(303);
    expect(admitted.res.headers.get('location')).toBe(`${base}/subscribers?admitted=2`);
    expect(text((await b.get(`${base}/subscribers?admitted=2`)).html)).toContain('Let in 2 people.');
    expect([await statusOf(t, ids[0] as string), await statusOf(t, ids[2] as string)]).toEqual([
      'admitted',
      'waiting',
    ]);
    const admittedList = text((await b.get(`${base}/subscribers?status=admitted`)).html);
    expect(admittedList).toContain('2 admitted subscribers, newest admission first');

    const one = await b.post(`${base}/subscribers/${ids[2]}/admit`, { _csrf });
    expect(one.res.headers.get('location')).toBe(`${base}/subscribers/${ids[2]}?admitted=1`);
    expect(await statusOf(t, ids[2] as string)).toBe('admitted');

    const confirm = await b.get(`${base}/subscribers/${ids[3]}/erase`);
    expect(confirm.res.status).toBe(200);
    expect(text(confirm.html)).toContain('It cannot be undone.');
    const erased = await b.post(`${base}/subscribers/${ids[3]}/erase`, { _csrf });
    expect(erased.res.headers.get('location')).toBe(`${base}/subscribers?erased=1`);
    expect((await b.get(`${base}/subscribers/${ids[3]}`)).res.status).toBe(404);
    const log = await h.cli<{
      items: { action: string; subject_id: string | null; actor: { name: string } }[];
    }>(['activity', '--tenant', t.tenantId]);
    expect(log.items.slice(0, 3).map((e) => e.action)).toEqual([
      'subscriber.erased',
      'subscriber.admitted',
      'subscriber.admitted',
    ]);
    expect(log.items[0]?.subject_id).toBe(ids[3]);
    expect(log.items[0]?.actor.name).toBe(`admin-${t.tenantId}@test.example`);
    // Notices come from a few fixed words: a link cannot make the page say something else.
    expect(text((await b.get(`${base}/subscribers?admitted=lots`)).html)).not.toContain('Let in');
  });

  it('shows members everything held but refuses their forged admit and erase posts with 403, changing nothing, and logs them', async () => {
    const { t, ids } = await withLine(3);
    const member = await operator(t, 'member');
    const b = new Browser(h.server.url);
    await b.signIn(member);
    const base = `/dashboard/waitlists/${t.waitlistId}`;
    const page = await b.get(`${base}/subscribers/${ids[0]}`);
    expect(page.res.status).toBe(200);
    expect(text(page.html)).toContain(`s0-${t.tenantId}@example.com`.toLowerCase());
    expect(text(page.html)).toContain('Only admins can let people in or erase them');
    expect(page.html).not.toContain('/admit"');
    expect(page.html).not.toContain('/erase"');
    const list = await b.get(`${base}/subscribers`);
    expect(list.html).not.toContain('/admissions"');
    const _csrf = Browser.csrf(list.html);

    for (const [path, form] of [
      [`${base}/admissions`, { count: '2', _csrf }],
      // A bad count too: the refusal comes first, so a member learns nothing from the form.
      [`${base}/admissions`, { count: '0', _csrf }],
      [`${base}/subscribers/${ids[0]}/admit`, { _csrf }],
      [`${base}/subscribers/${ids[1]}/erase`, { _csrf }],
    ] as const) {
      const forged = await b.post(path, form);
      expect(forged.res.status, path).toBe(403);
      expect(text(forged.html)).toMatch(/Only admins can (let subscribers in|erase subscribers)\./);
    }
    expect((await b.get(`${base}/subscribers/${ids[1]}/erase`)).res.status).toBe(403);
    for (const id of ids) expect(await statusOf(t, id)).toBe('waiting');
    expect(await waitingCount(b, t)).toBe(3);
    const log = await h.cli<{
      items: { action: string; actor: { name: string }; details: { waitlist_id: string | null } }[];
    }>(['activity', '--tenant', t.tenantId]);
    // Newest first: each forged post is in the log with its member, and nothing else happened.
    expect(
      log.items
        .filter((e) => e.action.startsWith('subscriber.') && e.action !== 'subscriber.created')
        .map((e) => `${e.action} ${e.actor.name} ${e.details.waitlist_id}`),
    ).toEqual([
      `subscriber.erase_refused ${member} ${t.waitlistId}`,
      `subscriber.admit_refused ${member} ${t.waitlistId}`,
      `subscriber.admit_refused ${member} ${t.waitlistId}`,
      `subscriber.admit_refused ${member} ${t.waitlistId}`,
    ]);
    const activity = text((await b.get('/dashboard/activity')).html);
    expect(activity).toContain(`${member} (operator) was refused erasing a subscriber`);
    expect(activity).toContain(`${member} (operator) was refused letting subscribers in`);
    expect((await b.get(`${base}/overview`)).res.status).toBe(200);
  });

  it('enforces CSRF on the new forms: no token, a wrong one, another origin', async () => {
    const { t, ids } = await withLine(2);
    const b = new Browser(h.server.url);
    await b.signIn(`admin-${t.tenantId}@test.example`);
    const base = `/dashboard/waitlists/${t.waitlistId}`;
    const token = Browser.csrf((await b.get(`${base}/subscribers`)).html);
    for (const [path, form] of [
      [`${base}/admissions`, { count: '1' }],
      [`${base}/subscribers/${ids[0]}/admit`, {}],
      [`${base}/subscribers/${ids[1]}/erase`, {}],
    ] as const) {
      expect((await b.post(path, form)).res.status, path).toBe(403);
      expect((await b.post(path, { ...form, _csrf: `${token}x` })).res.status, path).toBe(403);
      const forged = await b.post(path, { ...form, _csrf: token }, 'http://localhost:1');
      expect(forged.res.status, path).toBe(403);
      expect(text(forged.html)).toContain('did not come from the dashboard');
    }
    for (const id of ids) expect(await statusOf(t, id)).toBe('waiting');
    expect(await waitingCount(b, t)).toBe(2);
  });

  it('shows a field error for a count that is not a whole number from 1 to 1000, admitting nobody', async () => {
    const { t, ids } = await withLine(1);
    const b = new Browser(h.server.url);
    await b.signIn(`admin-${t.tenantId}@test.example`);
    const base = `/dashboard/waitlists/${t.waitlistId}`;
    const form = await admitForm(b, base);
    for (const count of ['0', '1001', '2.5', '-3', 'five', '', '99999999999']) {
      const bad = await b.post(`${base}/admissions`, { count, ...form });
      expect(bad.res.status, count).toBe(400);
      expect(text(bad.html)).toContain('Enter a whole number from 1 to 1000.');
      expect(bad.html).toContain('aria-invalid="true"');
      if (count !== '') expect(bad.html).toContain(`value="${count}"`);
    }
    expect(await statusOf(t, ids[0] as string)).toBe('waiting');
    // 1000 is allowed, even with fewer waiting.
    const all = await b.post(`${base}/admissions`, { count: '1000', ...form });
    expect(all.res.headers.get('location')).toBe(`${base}/subscribers?admitted=1`);
    const none = await b.post(`${base}/admissions`, { count: '5', ...(await admitForm(b, base)) });
    expect(none.res.headers.get('location')).toBe(`${base}/subscribers?admitted=0`);
    expect(text((await b.get(`${base}/subscribers?admitted=0`)).html)).toContain('Nobody was waiting');
  });

  it('lets the same admission form in once: a double click or a repost admits N, not 2N', async () => {
    const { t, ids } = await withLine(10);
    const b = new Browser(h.server.url);
    await b.signIn(`admin-${t.tenantId}@test.example`);
    const base = `/dashboard/waitlists/${t.waitlistId}`;
    const form = await admitForm(b, base);
    // Two clicks in flight at once, then the browser's "resend the form" on reload.
    const clicks = await Promise.all([0, 1].map(() => b.post(`${base}/admissions`, { count: '3', ...form })));
    const again = await b.post(`${base}/admissions`, { count: '3', ...form });
    expect([...clicks, again].map((c) => c.res.headers.get('location')).sort()).toEqual([
      `${base}/subscribers?admitted=3`,
      `${base}/subscribers?repeated=1`,
      `${base}/subscribers?repeated=1`,
    ]);
    expect(text((await b.get(`${base}/subscribers?repeated=1`)).html)).toContain(
      'That form was sent already: nobody more was let in.',
    );
    const admitted = (await (await apiList(h.server, t.key, t.waitlistId, '?status=admitted')).json()) as {
      items: { id: string }[];
    };
    expect(admitted.items.map((s) => s.id).sort()).toEqual(ids.slice(0, 3).sort());
    // A fresh form is a fresh admission; a token we never made is refused at the field.
    const next = await b.post(`${base}/admissions`, { count: '2', ...(await admitForm(b, base)) });
    expect(next.res.headers.get('location')).toBe(`${base}/subscribers?admitted=2`);
    for (const once of ['', 'x', 'a'.repeat(200), '../../etc']) {
      const stale = await b.post(`${base}/admissions`, { count: '2', _csrf: form._csrf, once });
      expect(stale.res.status, once).toBe(400);
      expect(text(stale.html)).toContain('This form is out of date');
    }
    expect(await waitingCount(b, t)).toBe(5);
  });

  it('treats another tenant’s subscribers and overview as missing: 404, and nothing changes', async () => {
    const mine = await withLine(1);
    const theirs = await withLine(2);
    const b = new Browser(h.server.url);
    await b.signIn(`admin-${mine.t.tenantId}@test.example`);
    const _csrf = Browser.csrf((await b.get('/dashboard/waitlists')).html);
    const their = `/dashboard/waitlists/${theirs.t.waitlistId}`;
    const sub = theirs.ids[0] as string;
    expect((await b.get(`${their}/subscribers/${sub}`)).res.status).toBe(404);
    expect((await b.get(`${their}/subscribers/${sub}/erase`)).res.status).toBe(404);
    expect((await b.get(`${their}/overview`)).res.status).toBe(404);
    expect((await b.get(`${their}/subscribers?status=admitted`)).res.status).toBe(404);
    expect((await b.post(`${their}/subscribers/${sub}/erase`, { _csrf })).res.status).toBe(404);
    expect((await b.post(`${their}/subscribers/${sub}/admit`, { _csrf })).res.status).toBe(404);
    expect((await b.post(`${their}/admissions`, { count: '2', _csrf })).res.status).toBe(404);
    // Their subscriber under my waitlist's address is no more mine.
    const mineBase = `/dashboard/waitlists/${mine.t.waitlistId}`;
    const crossed = await b.get(`${mineBase}/subscribers/${sub}`);
    expect(crossed.res.status).toBe(404);
    expect(text(crossed.html)).toContain('There is no such subscriber on this waitlist');
    expect((await b.post(`${mineBase}/subscribers/${sub}/erase`, { _csrf })).res.status).toBe(404);
    for (const id of theirs.ids) expect(await statusOf(theirs.t, id)).toBe('waiting');
  });

  it('renders the overview with counts, a named chart and its table of 30 days', async () => {
    const { t } = await withLine(3);
    const b = new Browser(h.server.url);
    await b.signIn(`admin-${t.tenantId}@test.example`);
    const page = await b.get(`/dashboard/waitlists/${t.waitlistId}/overview`);
    expect(page.res.status).toBe(200);
    expect(page.html).toMatch(/<svg class="chart"[^>]*role="img"[^>]*aria-labelledby="chart-title"/);
    expect(text(page.html)).toMatch(/Sign-ups per day from \d{4}-\d\d-\d\d to \d{4}-\d\d-\d\d: 3 in total/);
    expect(page.html.match(/<rect class="bar"/g)).toHaveLength(30);
    expect(page.html).toContain('<summary>The same numbers as a table</summary>');
    expect(page.html).toMatch(/id="waiting-count">3</);
    expect(page.html).toMatch(/id="admitted-count">0</);
    expect(text(page.html)).toContain('Nobody has referred anyone yet.');
  });
});
