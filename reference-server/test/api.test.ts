import { generateApiKey, ListPageSchema } from '@waitlistkit/protocol';
import type { Tenant } from '@waitlistkit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCreate, apiList, errorOf, type Harness, harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

describe('customer API: the error table', () => {
  let t: Tenant;
  beforeAll(async () => {
    t = await h.tenant();
  });

  it('answers 401 with one byte-identical body for missing, malformed, unknown and revoked keys', async () => {
    const other = await h.tenant();
    await h.cli([
      'key',
      'revoke',
      '--operator',
      other.operatorId,
      '--key',
      (await h.cli<{ items: { id: string }[] }>(['key', 'list', '--tenant', other.tenantId])).items[0]
        ?.id as string,
    ]);
    const answers = await Promise.all([
      apiList(h.server, undefined, t.waitlistId),
      fetch(`${h.server.url}/v1/api/waitlists/${t.waitlistId}/subscribers`, {
        headers: { Authorization: 'Basic abc' },
      }),
      apiList(h.server, 'wlk_live_not-a-key', t.waitlistId),
      apiList(h.server, `${t.key.slice(0, -1)}${t.key.endsWith('A') ? 'B' : 'A'}`, t.waitlistId),
      apiList(h.server, generateApiKey(), t.waitlistId),
      apiList(h.server, other.key, other.waitlistId),
    ]);
    const bodies = await Promise.all(answers.map((r) => r.text()));
    for (const res of answers) {
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      expect(res.headers.get('ratelimit-limit')).toBeNull();
    }
    expect(new Set(bodies).size).toBe(1);
    expect(JSON.parse(bodies[0] as string)).toEqual({
      error: { code: 'unauthorized', message: expect.any(String) },
    });
  });

  it('answers 403 feature_not_allowed when the plan lost API access, and works again when it is back', async () => {
    const x = await h.tenant();
    await h.cli(['tenant', 'set-plan', '--tenant', x.tenantId, '--plan', 'free']);
    const refused = await apiList(h.server, x.key, x.waitlistId);
    expect(refused.status).toBe(403);
    expect((await errorOf(refused)).code).toBe('feature_not_allowed');
    await h.cli(['tenant', 'set-plan', '--tenant', x.tenantId, '--plan', 'team']);
    expect((await apiList(h.server, x.key, x.waitlistId)).status).toBe(200);
  });

  it('answers 403 insufficient_scope naming the missing scope', async () => {
    const key = await h.cli<{ value: string }>([
      'key',
      'create',
      '--operator',
      t.operatorId,
      '--name',
      'Reader',
      '--preset',
      'read-only',
    ]);
    expect((await apiList(h.server, key.value, t.waitlistId)).status).toBe(200);
    const refused = await apiCreate(h.server, key.value, t.waitlistId, { email: 'a@example.com' });
    expect(refused.status).toBe(403);
    expect(await errorOf(refused)).toEqual({
      code: 'insufficient_scope',
      message: 'This key lacks the subscribers:write scope.',
    });
  });

  it('answers 404 for a missing, archived or foreign waitlist, with one body', async () => {
    const other = await h.tenant();
    const archived = await h.cli<{ waitlist_id: string }>([
      'waitlist',
      'create',
      '--tenant',
      t.tenantId,
      '--name',
      'Old',
    ]);
    await h.cli(['waitlist', 'archive', '--waitlist', archived.waitlist_id]);
    const answers = await Promise.all([
      apiList(h.server, t.key, 'wl_doesnotexist'),
      apiList(h.server, t.key, archived.waitlist_id),
      apiList(h.server, t.key, other.waitlistId),
      apiCreate(h.server, t.key, other.waitlistId, { email: 'a@example.com' }),
      apiList(h.server, t.key, '%E0%A4%A'),
    ]);
    const bodies = await Promise.all(answers.map((r) => r.text()));
    expect(answers.map((r) => r.status)).toEqual([404, 404, 404, 404, 404]);
    expect(new Set(bodies.slice(0, 4)).size).toBe(1);
    expect(JSON.parse(bodies[0] as string).error.code).toBe('not_found');
  });

  it.each([
    [{ email: 'not-an-email' }, 'invalid_email'],
    [{ email: 42 }, 'invalid_request'],
    [{}, 'invalid_request'],
    [[], 'invalid_request'],
    ['{"email": ', 'invalid_request'],
    [{ email: 'a@example.com', client_country: 'USA' }, 'invalid_request'],
  ])('answers 400 for %j', async (body, code) => {
    const res = await apiCreate(h.server, t.key, t.waitlistId, body);
    expect(res.status).toBe(400);
    expect((await errorOf(res)).code).toBe(code);
  });

  it('answers 415 without a JSON content type and 413 above 16 KiB', async () => {
    const url = `${h.server.url}/v1/api/waitlists/${t.waitlistId}/subscribers`;
    const auth = { Authorization: `Bearer ${t.key}` };
    const text = await fetch(url, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'text/plain' },
      body: '{"email":"a@b.co"}',
    });
    expect(text.status).toBe(415);
    expect((await errorOf(text)).code).toBe('unsupported_media_type');
    const big = await apiCreate(h.server, t.key, t.waitlistId, {
      email: 'a@example.com',
      pad: 'x'.repeat(17_000),
    });
    expect(big.status).toBe(413);
    expect((await errorOf(big)).code).toBe('payload_too_large');
  });

  it('answers 400 invalid_request for malformed query parameters', async () => {
    for (const query of [
      '?page=0',
      '?page=abc',
      '?limit=-1',
      '?page=1&page=2',
      '?limit=5&limit=6',
      `?q=${'x'.repeat(300)}`,
    ]) {
      const res = await apiList(h.server, t.key, t.waitlistId, query);
      expect({ query, status: res.status }).toEqual({ query, status: 400 });
      expect((await errorOf(res)).code).toBe('invalid_request');
    }
  });
});

describe('customer API: per-key budget', () => {
  it('allows 60 requests a minute per key, then 429 with Retry-After and RateLimit headers', async () => {
    const t = await h.tenant();
    const second = await h.cli<{ value: string }>([
      'key',
      'create',
      '--operator',
      t.operatorId,
      '--name',
      'Second',
      '--preset',
      'full',
    ]);
    const remaining: number[] = [];
    const started = performance.now();
    // The bucket refills a request a second (60 a minute): a loaded machine earns some back while
    // it sends, and the budget allows no more than 60 plus those.
    const earned = () => Math.floor((performance.now() - started) / 1000);
    for (let i = 0; i < 60; i++) {
      const res = await apiList(h.server, t.key, t.waitlistId);
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBe('60');
      remaining.push(Number(res.headers.get('ratelimit-remaining')));
    }
    expect(remaining[0]).toBe(59);
    expect(remaining[59]).toBeLessThanOrEqual(earned());
    let refused = await apiList(h.server, t.key, t.waitlistId);
    for (let extra = 0; refused.status === 200 && extra < earned(); extra++) {
      refused = await apiList(h.server, t.key, t.waitlistId);
    }
    expect(refused.status).toBe(429);
    expect((await errorOf(refused)).code).toBe('rate_limit_exceeded');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect(Number(refused.headers.get('ratelimit-reset'))).toBeGreaterThanOrEqual(1);
    // Each key has its own budget.
    expect((await apiList(h.server, second.value, t.waitlistId)).status).toBe(200);
  });
});

describe('customer API: order of checks (docs/protocol.md#order-of-checks)', () => {
  it('401 before 429: an unknown key is not counted and never throttled', async () => {
    const t = await h.tenant();
    const unknown = generateApiKey();
    for (let i = 0; i < 65; i++) expect((await apiList(h.server, unknown, t.waitlistId)).status).toBe(401);
  });

  it('429 before 403 feature_not_allowed, counting refused requests too', async () => {
    const t = await h.tenant({ plan: 'free' });
    const started = performance.now();
    for (let i = 0; i < 60; i++) expect((await apiList(h.server, t.key, t.waitlistId)).status).toBe(403);
    // No more than 60 plus the one a second the bucket earns back while they are sent.
    let next = await apiList(h.server, t.key, t.waitlistId);
    for (
      let extra = 0;
      next.status === 403 && extra < Math.floor((performance.now() - started) / 1000);
      extra++
    ) {
      next = await apiList(h.server, t.key, t.waitlistId);
    }
    expect(next.status).toBe(429);
  });

  it('feature_not_allowed before insufficient_scope before 404 before 400', async () => {
    const t = await h.tenant({ preset: 'read-only' });
    expect((await errorOf(await apiCreate(h.server, t.key, 'wl_missing', 'not json'))).code).toBe(
      'insufficient_scope',
    );
    await h.cli(['tenant', 'set-plan', '--tenant', t.tenantId, '--plan', 'free']);
    expect((await errorOf(await apiCreate(h.server, t.key, 'wl_missing', 'not json'))).code).toBe(
      'feature_not_allowed',
    );
    const full = await h.tenant();
    expect((await apiCreate(h.server, full.key, 'wl_missing', 'not json')).status).toBe(404);
    expect((await apiCreate(h.server, full.key, full.waitlistId, 'not json')).status).toBe(400);
  });

  it('400 before the per-email throttle, the throttle before disposable, disposable before geo', async () => {
    const t = await h.tenant({
      waitlist: [
        '--email-throttle',
        'on',
        '--block-disposable',
        'on',
        '--disposable-domains',
        'burner.example',
        '--geo-deny',
        'US',
      ],
    });
    const attempt = (email: string, country = 'US') =>
      apiCreate(h.server, t.key, t.waitlistId, { email, client_country: country });
    expect((await errorOf(await attempt('x@burner.example'))).code).toBe('invalid_email');
    expect((await errorOf(await attempt('y@fine.example'))).code).toBe('geo_restricted');
    expect((await attempt('y@fine.example', 'DE')).status).toBe(202);
    // Five attempts an hour per email: the first was above, four more pass the throttle.
    for (let i = 0; i < 4; i++) expect((await attempt('x@burner.example')).status).toBe(400);
    const throttled = await attempt('x@burner.example');
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(60);
    expect((await attempt('not an email')).status).toBe(400);
  });

  it('uses the peer country for the geo gate when client_country is absent (loopback has none)', async () => {
    const allow = await h.tenant({ waitlist: ['--geo-allow', 'US'] });
    const deny = await h.tenant({ waitlist: ['--geo-deny', 'US'] });
    expect(
      (await errorOf(await apiCreate(h.server, allow.key, allow.waitlistId, { email: 'a@example.com' })))
        .code,
    ).toBe('geo_restricted');
    expect((await apiCreate(h.server, deny.key, deny.waitlistId, { email: 'a@example.com' })).status).toBe(
      202,
    );
    expect(
      (
        await apiCreate(h.server, allow.key, allow.waitlistId, {
          email: 'a@example.com',
          client_country: 'us',
        })
      ).status,
    ).toBe(202);
  });
});

describe('customer API: keys and plans change on a live server', () => {
  it('a revoked key gets 401 on its very next request', async () => {
    const t = await h.tenant();
    const keyId = (await h.cli<{ items: { id: string }[] }>(['key', 'list', '--tenant', t.tenantId])).items[0]
      ?.id as string;
    expect((await apiList(h.server, t.key, t.waitlistId)).status).toBe(200);
    const revoked = await h.cli<{ state: string }>([
      'key',
      'revoke',
      '--operator',
      t.operatorId,
      '--key',
      keyId,
    ]);
    expect(revoked.state).toBe('revoked');
    expect((await apiList(h.server, t.key, t.waitlistId)).status).toBe(401);
    expect((await apiCreate(h.server, t.key, t.waitlistId, { email: 'a@example.com' })).status).toBe(401);
  });

  it('a key of one tenant never reads or writes another tenant’s waitlist', async () => {
    const a = await h.tenant();
    const b = await h.tenant();
    expect((await apiCreate(h.server, b.key, b.waitlistId, { email: 'secret@b.example' })).status).toBe(202);
    expect((await apiList(h.server, a.key, b.waitlistId)).status).toBe(404);
    expect((await apiCreate(h.server, a.key, b.waitlistId, { email: 'intruder@a.example' })).status).toBe(
      404,
    );
    const bList = ListPageSchema.parse(await (await apiList(h.server, b.key, b.waitlistId)).json());
    expect(bList.items.map((s) => s.email)).toEqual(['secret@b.example']);
    const aList = ListPageSchema.parse(
      await (await apiList(h.server, a.key, a.waitlistId, '?q=secret')).json(),
    );
    expect(aList.total).toBe(0);
  });
});
