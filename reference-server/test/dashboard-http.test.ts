/** The dashboard over plain HTTP: what a browser would send, including what an attacker's page would. */
import type { Tenant } from '@waitlistkit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Connection } from '../src/store/sqlite/connection.js';
import { apiList, Browser, type Harness, harness, ORIGIN, PASSWORD, publicPost } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

async function operator(t: Tenant, role: 'admin' | 'member') {
  const email = `${role}-${Math.random().toString(36).slice(2)}@team.example`;
  await h.cli([
    'operator',
    'create',
    '--tenant',
    t.tenantId,
    '--email',
    email,
    '--role',
    role,
    '--password',
    PASSWORD,
  ]);
  return email;
}

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
  });

  it('hashes one password at a time, so API latency stays near its baseline during a flood from many addresses', async () => {
    const t = await p.tenant();
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const timedList = async () => {
      const started = performance.now();
      const res = await apiList(p.server, t.key, t.waitlistId);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      return performance.now() - started;
    };
    for (let i = 0; i < 5; i++) await timedList();
    const baseline: number[] = [];
    for (let i = 0; i < 30; i++) baseline.push(await timedList());

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
    const during: number[] = [];
    while (!settled && during.length < 500) during.push(await timedList());
    const answers = await flood;
    expect(during.length).toBeGreaterThanOrEqual(5);
    // Without the bound, four 128 MiB scrypt runs hold every libuv thread the database needs,
    // and a query that comes after them waits a third of a second; a generous margin over the
    // baseline tells the two apart.
    expect(mean(during)).toBeLessThan(mean(baseline) * 3 + 40);
    const statuses = answers.map((a) => a.res.status);
    // Some were checked (wrong password), the ones past the queue were turned away at once.
    expect(statuses.filter((s) => s === 401).length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
    const busy = answers.find((a) => a.res.status === 429);
    expect(text(busy?.html ?? '')).toContain('Too many password checks are under way');
    expect(during.length).toBeGreaterThanOrEqual(5);
    // Without the bound, four 128 MiB scrypt runs hold every libuv thread the database needs,
    // and each query waits a third of a second; a generous margin over the baseline tells them apart.
  });

  it('re-hashes a password stored at an older scrypt cost on the next sign-in', async () => {
    const t = await p.tenant();
    const email = `admin-${t.tenantId}@test.example`;
    const { scryptSync, randomBytes } = await import('node:crypto');
    const salt = randomBytes(16);
    const old = scryptSync(PASSWORD.normalize('NFKC'), salt, 32, { N: 2 ** 14, r: 8, p: 1 });
    const oldHash = ['scrypt', 2 ** 14, 8, 1, salt.toString('base64url'), old.toString('base64url')].join(
      '$',
    );
    const storedHash = async () => {
      const db = await Connection.open(p.db);
      try {
        return (
          await db.get<{ h: string }>('SELECT password_hash AS h FROM operators WHERE email = ?', [email])
        )?.h;
      } finally {
        await db.close();
      }
    };
    const db = await Connection.open(p.db);
    await db.run('PRAGMA busy_timeout = 10000');
    await db.run('UPDATE operators SET password_hash = ? WHERE email = ?', [oldHash, email]);
    await db.close();
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
    expect(lines[0]).toBe('position,email,joined_at,referral_code,referral_count');
    expect(lines).toHaveLength(64);
    expect(lines[1]).toMatch(/^1,"'=cmd@evil\.example",\d{4}-/);
    expect(lines[3]).toMatch(/^3,"'\+sum@x\.example",/);
    expect(lines[2]).toMatch(/^2,ada@example\.com,.*,[23456789A-HJ-NP-Z]{6},0$/);
  });
});
