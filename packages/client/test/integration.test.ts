/**
 * The client against a real reference server, started through `pnpm -s waitlist-server` on a
 * temporary database, set up with its command line.
 */
import { cli, type RunningServer, seedTenant, startServer, type Tenant, tempDir } from '@waitlistkit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  FeatureNotAllowedError,
  InsufficientScopeError,
  InvalidEmailError,
  NotFoundError,
  RateLimitError,
  WaitlistClient,
} from '../src/index.js';

const ORIGIN = 'https://landing.example';
const dir = tempDir();
let server: RunningServer;
let t: Tenant;

beforeAll(async () => {
  t = await seedTenant(dir.db, {
    waitlist: ['--referrals', 'on', '--origins', ORIGIN, '--ip-limit', '100000'],
  });
  server = await startServer({ db: dir.db, viaPnpm: true });
  // 450 people sign up through the public endpoint (it has no per-key budget).
  const signups = Array.from({ length: 450 }, (_, i) =>
    fetch(`${server.url}/v1/public/waitlists/${t.waitlistId}/subscribers`, {
      method: 'POST',
      headers: { Origin: ORIGIN, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        email: `person${String(i).padStart(3, '0')}@${i % 3 === 0 ? 'acme' : 'other'}.example`,
      }),
    }),
  );
  for (const res of await Promise.all(signups)) expect(res.status).toBe(202);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  dir.cleanup();
});

const client = (apiKey = t.key, options: Partial<ConstructorParameters<typeof WaitlistClient>[0]> = {}) =>
  new WaitlistClient({ apiKey, baseUrl: server.url, ...options });

describe('against the reference server', () => {
  it('lists a page, searches, and iterates over all 450 subscribers', async () => {
    const c = client();
    const page = await c.subscribers.list(t.waitlistId);
    expect(page).toMatchObject({ total: 450, page: 1, limit: 25 });
    expect(page.items.map((s) => s.position)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    expect(page.rateLimit).toMatchObject({ limit: 60, remaining: 59 });

    const acme = await c.subscribers.list(t.waitlistId, { q: '@ACME.example', limit: 200 });
    expect(acme.total).toBe(150);
    expect(acme.items.every((s) => s.email.endsWith('@acme.example'))).toBe(true);

    const seen: string[] = [];
    for await (const subscriber of c.subscribers.iterate(t.waitlistId)) seen.push(subscriber.email);
    expect(seen).toHaveLength(450);
    expect(new Set(seen).size).toBe(450);
    expect(seen[0]).toBe('person000@acme.example');
    expect(seen[449]).toBe('person449@other.example');
  });

  it('creates with a referral, de-duplicates, and refuses a bad email', async () => {
    const c = client();
    const referrer = await c.subscribers.create(t.waitlistId, { email: 'referrer@example.com' });
    expect(referrer.referral_code).toMatch(/^[23456789A-HJ-NP-Z]{6}$/);
    expect(referrer.status_url).toBe(`${server.url}/s/${referrer.status_token}`);
    const friend = await c.subscribers.create(t.waitlistId, {
      email: 'friend@example.com',
      referral_code: referrer.referral_code,
      client_country: 'DE',
    });
    const again = await c.subscribers.create(t.waitlistId, { email: 'FRIEND@example.com' });
    expect({ ...again, rateLimit: undefined }).toEqual({ ...friend, rateLimit: undefined });
    const found = await c.subscribers.list(t.waitlistId, { q: 'referrer@' });
    expect(found.items[0]?.referral_count).toBe(1);
    await expect(c.subscribers.create(t.waitlistId, { email: 'not an email' })).rejects.toBeInstanceOf(
      InvalidEmailError,
    );
    await expect(c.subscribers.list('wl_missing')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('tells scope, plan and revocation errors apart', async () => {
    const x = await seedTenant(dir.db, { preset: 'read-only' });
    const readOnly = client(x.key);
    await expect(readOnly.subscribers.list(x.waitlistId)).resolves.toMatchObject({ total: 0 });
    const scope = await readOnly.subscribers
      .create(x.waitlistId, { email: 'a@example.com' })
      .catch((e: unknown) => e);
    expect(scope).toBeInstanceOf(InsufficientScopeError);
    expect((scope as InsufficientScopeError).message).toContain('subscribers:write');

    await cli(['tenant', 'set-plan', '--tenant', x.tenantId, '--plan', 'free'], { db: dir.db });
    await expect(readOnly.subscribers.list(x.waitlistId)).rejects.toBeInstanceOf(FeatureNotAllowedError);
    await cli(['tenant', 'set-plan', '--tenant', x.tenantId, '--plan', 'pro'], { db: dir.db });
    await expect(readOnly.subscribers.list(x.waitlistId)).resolves.toMatchObject({ total: 0 });

    const keys = await cli<{ items: { id: string }[] }>(['key', 'list', '--tenant', x.tenantId], {
      db: dir.db,
    });
    await cli(['key', 'revoke', '--operator', x.operatorId, '--key', keys.items[0]?.id as string], {
      db: dir.db,
    });
    const revoked = await readOnly.subscribers.list(x.waitlistId).catch((e: unknown) => e);
    expect(revoked).toBeInstanceOf(AuthenticationError);
    expect((revoked as AuthenticationError).status).toBe(401);
  });

  it('spends the per-key budget and fails fast when Retry-After is above the cap', async () => {
    const x = await seedTenant(dir.db);
    const c = client(x.key, { maxRetryAfter: 500 });
    let last = await c.subscribers.list(x.waitlistId);
    for (let i = 1; i < 60; i++) last = await c.subscribers.list(x.waitlistId);
    expect(last.rateLimit.remaining).toBe(0);
    const started = Date.now();
    const limited = await c.subscribers.list(x.waitlistId).catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(RateLimitError);
    expect((limited as RateLimitError).retryAfter).toBeGreaterThanOrEqual(1);
    expect((limited as RateLimitError).rateLimit.limit).toBe(60);
    // A wait of a second or more is above the 500 ms cap: no retry was attempted.
    expect(Date.now() - started).toBeLessThan(500);
  });
});
