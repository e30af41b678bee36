/**
 * The client against a real reference server, started through `pnpm -s waitlist-server` on a
 * temporary database, set up with its command line.
 */
import { REQUEST_ID_PATTERN } from '@waitlistkit/protocol';
import { cli, type RunningServer, seedTenant, startServer, type Tenant, tempDir } from '@waitlistkit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  FeatureNotAllowedError,
  IdempotencyKeyReusedError,
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
    const positions: (number | null)[] = [];
    for await (const subscriber of c.subscribers.iterate(t.waitlistId)) {
      seen.push(subscriber.email);
      positions.push(subscriber.position);
    }
    // The 450 were sent at once, so the order they joined in is the server's: every one of them,
    // once, in line order.
    expect(new Set(seen)).toEqual(
      new Set(
        Array.from(
          { length: 450 },
          (_, i) => `person${String(i).padStart(3, '0')}@${i % 3 === 0 ? 'acme' : 'other'}.example`,
        ),
      ),
    );
    expect(seen).toHaveLength(450);
    expect(positions).toEqual(Array.from({ length: 450 }, (_, i) => i + 1));
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
    // The same wire answer; the response facts beside it (budget, request id) are per request.
    const wire = ({ rateLimit: _r, requestId: _i, ...rest }: typeof friend) => rest;
    expect(wire(again)).toEqual(wire(friend));
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
    // Requests counted as they leave: a retry would be a second one for the last call.
    let sent = 0;
    const c = client(x.key, {
      maxRetryAfter: 500,
      fetch: (input, init) => {
        sent++;
        return fetch(input, init);
      },
    });
    const began = performance.now();
    // A request a second comes back (60 a minute): a loaded machine earns some back while it sends.
    const earned = () => Math.floor((performance.now() - began) / 1000);
    let last = await c.subscribers.list(x.waitlistId);
    for (let i = 1; i < 60; i++) last = await c.subscribers.list(x.waitlistId);
    expect(last.rateLimit.remaining).toBeLessThanOrEqual(earned());
    let before = sent;
    let limited = await c.subscribers.list(x.waitlistId).catch((e: unknown) => e);
    for (let extra = 0; !(limited instanceof RateLimitError) && extra < earned(); extra++) {
      before = sent;
      limited = await c.subscribers.list(x.waitlistId).catch((e: unknown) => e);
    }
    expect(limited).toBeInstanceOf(RateLimitError);
    expect((limited as RateLimitError).retryAfter).toBeGreaterThanOrEqual(1);
    expect((limited as RateLimitError).rateLimit.limit).toBe(60);
    // A wait of a second or more is above the 500 ms cap: no retry was attempted.
    expect(sent - before).toBe(1);
  });
});

describe('the subscriber lifecycle against the reference server (docs/subscribers.md#lifecycle, docs/protocol.md#idempotency-and-request-ids)', () => {
  it('gets, admits by count and by ids, replays an admission, lists by status, and erases', async () => {
    const x = await seedTenant(dir.db);
    const c = client(x.key);
    for (const name of ['ann', 'bob', 'cat', 'dan']) {
      await c.subscribers.create(x.waitlistId, { email: `${name}@example.com` });
    }
    const line = await c.subscribers.list(x.waitlistId);
    expect(line.items.map((s) => [s.email, s.position, s.status, s.admitted_at, s.confirmed])).toEqual([
      ['ann@example.com', 1, 'waiting', null, true],
      ['bob@example.com', 2, 'waiting', null, true],
      ['cat@example.com', 3, 'waiting', null, true],
      ['dan@example.com', 4, 'waiting', null, true],
    ]);
    expect(line.requestId).toMatch(REQUEST_ID_PATTERN);
    const [ann, bob, cat, dan] = line.items.map((s) => s.id) as [string, string, string, string];

    const one = await c.subscribers.get(x.waitlistId, ann);
    expect({ ...one, rateLimit: undefined, requestId: undefined }).toEqual(line.items[0]);
    expect(one.requestId).toMatch(REQUEST_ID_PATTERN);
    expect(one.requestId).not.toBe(line.requestId);

    const first = await c.subscribers.admit(x.waitlistId, { count: 2 }, { idempotencyKey: 'batch-1' });
    expect(first.idempotentReplayed).toBe(false);
    expect(first.items.map((s) => [s.id, s.status, s.position])).toEqual([
      [ann, 'admitted', null],
      [bob, 'admitted', null],
    ]);
    // The same key and body: the kept answer, and nobody else let in.
    const again = await c.subscribers.admit(x.waitlistId, { count: 2 }, { idempotencyKey: 'batch-1' });
    expect(again.idempotentReplayed).toBe(true);
    expect(again.items).toEqual(first.items);
    await expect(
      c.subscribers.admit(x.waitlistId, { count: 1 }, { idempotencyKey: 'batch-1' }),
    ).rejects.toBeInstanceOf(IdempotencyKeyReusedError);

    const waiting = await c.subscribers.list(x.waitlistId, { status: 'waiting' });
    expect(waiting.items.map((s) => [s.id, s.position])).toEqual([
      [cat, 1],
      [dan, 2],
    ]);
    const byIds = await c.subscribers.admit(x.waitlistId, { subscriberIds: [dan, ann, 'sub_unknown'] });
    expect(byIds.items.map((s) => s.id)).toEqual([dan]);
    const admitted = await c.subscribers.list(x.waitlistId, { status: 'admitted' });
    expect(admitted.total).toBe(3);
    expect(admitted.items[0]?.id).toBe(dan);
    expect(new Set(admitted.items.map((s) => s.id))).toEqual(new Set([ann, bob, dan]));
    expect(admitted.items.every((s) => s.status === 'admitted' && s.admitted_at !== null)).toBe(true);

    const erased = await c.subscribers.delete(x.waitlistId, cat);
    expect(erased.requestId).toMatch(REQUEST_ID_PATTERN);
    expect(erased.rateLimit.limit).toBe(60);
    await expect(c.subscribers.get(x.waitlistId, cat)).rejects.toBeInstanceOf(NotFoundError);
    await expect(c.subscribers.delete(x.waitlistId, cat)).rejects.toBeInstanceOf(NotFoundError);
    await expect(c.subscribers.list(x.waitlistId)).resolves.toMatchObject({ total: 0 });
  });
});
