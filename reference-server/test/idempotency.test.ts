/**
 * Idempotency-Key and Request-Id (docs/protocol.md#idempotency-and-request-ids): over HTTP on a real server for replays, a
 * reused key, a key in use, per-key isolation and request ids in answers and logs; and through
 * the use case with a controllable clock for the 24-hour expiry.
 */
import { AcceptedSignupSchema, AdmissionsResultSchema, IDEMPOTENCY_TTL_MS } from '@waitlistkit/protocol';
import { type DnsServer, startDnsServer, tempDir } from '@waitlistkit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../src/adapters/clock.js';
import { ApiRequests } from '../src/app/api.js';
import { throttles } from '../src/app/context.js';
import { ErasureCleanup } from '../src/app/erasure-cleanup.js';
import { acting } from '../src/app/guard.js';
import { must } from '../src/app/refusal.js';
import { openStore, operatorServices } from '../src/container.js';
import { decide } from '../src/domain/idempotency.js';
import { mentionsIn, withoutCreated, withoutErased, withoutItem } from '../src/domain/kept-answers.js';
import { apiList, errorOf, type Harness, harness, ORIGIN, publicPost } from './helpers.js';

let h: Harness;
let dns: DnsServer;
let release = () => {};
let asked = () => {};
let held: Promise<void> = Promise.resolve();
let arrived: Promise<void> = Promise.resolve();

beforeAll(async () => {
  dns = await startDnsServer(
    { 'slow.example': [{ exchange: 'mx.slow.example', priority: 10 }] },
    {
      // A lookup of slow.example waits until the test lets it go: a request held in progress.
      beforeAnswer: async (name) => {
        if (name !== 'slow.example') return;
        asked();
        await held;
      },
    },
  );
  h = await harness({ WAITLIST_KEY_RATE_LIMIT: '100000', WAITLIST_DNS_SERVERS: dns.address });
});
afterAll(async () => {
  await h.close();
  await dns.close();
});

function post(key: string, path: string, body: unknown, idempotencyKey?: string) {
  return fetch(`${h.server.url}/v1/api/waitlists/${path}`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${key}`,
      'Content-Type': 'application/json',
      ...(idempotencyKey === undefined ? {} : { 'Idempotency-Key': idempotencyKey }),
    },
    body: JSON.stringify(body),
  });
}

describe('Idempotency-Key', () => {
  it('gives a retried create its first answer again, marked replayed, and writes once', async () => {
    const t = await h.tenant({ waitlist: ['--referrals', 'on'] });
    const first = await post(t.key, `${t.waitlistId}/subscribers`, { email: 'once@example.com' }, 'signup-1');
    expect(first.status).toBe(202);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const body = await first.json();
    const again = await post(t.key, `${t.waitlistId}/subscribers`, { email: 'once@example.com' }, 'signup-1');
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('ratelimit-remaining')).not.toBeNull();
    expect(await again.json()).toEqual(body);
    const { items } = await h.cli<{ items: { action: string }[] }>(['activity', '--tenant', t.tenantId]);
    expect(items.filter((e) => e.action.startsWith('subscriber.'))).toHaveLength(1);
  });

  it('never admits twice for a retried admission', async () => {
    const t = await h.tenant({ waitlist: ['--origins', ORIGIN] });
    for (let i = 0; i < 5; i++) await publicPost(h.server, t.waitlistId, { email: `in${i}@example.com` });
    const first = AdmissionsResultSchema.parse(
      await (await post(t.key, `${t.waitlistId}/admissions`, { count: 2 }, 'admit-1')).json(),
    );
    const retry = await post(t.key, `${t.waitlistId}/admissions`, { count: 2 }, 'admit-1');
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(AdmissionsResultSchema.parse(await retry.json())).toEqual(first);
    expect((await (await apiList(h.server, t.key, t.waitlistId, '?status=admitted')).json()).total).toBe(2);
    // A new key admits anew.
    await post(t.key, `${t.waitlistId}/admissions`, { count: 2 }, 'admit-2');
    expect((await (await apiList(h.server, t.key, t.waitlistId, '?status=admitted')).json()).total).toBe(4);
  });

  it('refuses the same key with another body (422), also on another endpoint, and keeps refusals', async () => {
    const t = await h.tenant();
    expect((await post(t.key, `${t.waitlistId}/subscribers`, { email: 'a@example.com' }, 'k')).status).toBe(
      202,
    );
    for (const [path, body] of [
      [`${t.waitlistId}/subscribers`, { email: 'b@example.com' }],
      [`${t.waitlistId}/admissions`, { count: 1 }],
    ] as const) {
      const reused = await post(t.key, path, body, 'k');
      expect(reused.status).toBe(422);
      expect((await errorOf(reused)).code).toBe('idempotency_key_reused');
    }
    // A 400 is an answer too: kept and given again.
    const bad = await post(t.key, `${t.waitlistId}/subscribers`, { email: 'not an email' }, 'k-bad');
    expect(bad.status).toBe(400);
    const badAgain = await post(t.key, `${t.waitlistId}/subscribers`, { email: 'not an email' }, 'k-bad');
    expect([badAgain.status, badAgain.headers.get('idempotent-replayed')]).toEqual([400, 'true']);
    // A malformed header is a 400 of its own.
    const malformed = await post(
      t.key,
      `${t.waitlistId}/subscribers`,
      { email: 'c@example.com' },
      'x'.repeat(256),
    );
    expect(malformed.status).toBe(400);
  });

  it('answers 409 while the first request with the key is still running, then replays it', async () => {
    const t = await h.tenant({ waitlist: ['--mx-check', 'on'] });
    held = new Promise((resolve) => {
      release = resolve;
    });
    arrived = new Promise((resolve) => {
      asked = resolve;
    });
    const first = post(t.key, `${t.waitlistId}/subscribers`, { email: 'held@slow.example' }, 'busy');
    await arrived;
    const meanwhile = await post(
      t.key,
      `${t.waitlistId}/subscribers`,
      { email: 'held@slow.example' },
      'busy',
    );
    expect(meanwhile.status).toBe(409);
    expect((await errorOf(meanwhile)).code).toBe('idempotency_key_in_use');
    release();
    expect((await first).status).toBe(202);
    const after = await post(t.key, `${t.waitlistId}/subscribers`, { email: 'held@slow.example' }, 'busy');
    expect([after.status, after.headers.get('idempotent-replayed')]).toEqual([202, 'true']);
  });

  it('keeps each API key’s answers apart', async () => {
    const t = await h.tenant({ waitlist: ['--referrals', 'on'] });
    const other = await h.cli<{ value: string }>([
      'key',
      'create',
      '--operator',
      t.operatorId,
      '--name',
      'Two',
      '--preset',
      'full',
    ]);
    const one = await post(t.key, `${t.waitlistId}/subscribers`, { email: 'p@example.com' }, 'shared');
    const two = await post(other.value, `${t.waitlistId}/subscribers`, { email: 'q@example.com' }, 'shared');
    expect([one.status, two.status]).toEqual([202, 202]);
    expect(two.headers.get('idempotent-replayed')).toBeNull();
    expect((await two.json()).referral_code).not.toBe((await one.json()).referral_code);
  });
});

function erase(key: string, waitlistId: string, id: string) {
  return fetch(`${h.server.url}/v1/api/waitlists/${waitlistId}/subscribers/${id}`, {
    method: 'DELETE',
    headers: { Authorization: `Bearer ${key}` },
  });
}

describe('kept answers after an erasure (docs/subscribers.md#erasure, docs/protocol.md#idempotency-key)', () => {
  it('replays an admission without the erased one: the others, and nobody admitted anew', async () => {
    const t = await h.tenant({ waitlist: ['--origins', ORIGIN] });
    for (let i = 0; i < 5; i++) await publicPost(h.server, t.waitlistId, { email: `kept${i}@example.com` });
    const first = AdmissionsResultSchema.parse(
      await (await post(t.key, `${t.waitlistId}/admissions`, { count: 3 }, 'admit-erased')).json(),
    );
    expect(first.items).toHaveLength(3);
    const gone = first.items[1] as (typeof first.items)[number];
    expect((await erase(t.key, t.waitlistId, gone.id)).status).toBe(204);

    const retry = await post(t.key, `${t.waitlistId}/admissions`, { count: 3 }, 'admit-erased');
    expect([retry.status, retry.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
    const replayed = AdmissionsResultSchema.parse(await retry.json());
    expect(replayed.items).toEqual(first.items.filter((s) => s.id !== gone.id));
    expect(JSON.stringify(replayed)).not.toContain(gone.email);
    const total = async (status: string) =>
      (
        (await (await apiList(h.server, t.key, t.waitlistId, `?status=${status}`)).json()) as {
          total: number;
        }
      ).total;
    expect({ admitted: await total('admitted'), waiting: await total('waiting') }).toEqual({
      admitted: 2,
      waiting: 2,
    });
  });

  it('replays a create of an erased subscriber without its token, code or URL, creating nobody', async () => {
    const t = await h.tenant({ waitlist: ['--referrals', 'on'] });
    const email = 'erased-then-retried@example.com';
    const first = await post(t.key, `${t.waitlistId}/subscribers`, { email }, 'create-erased');
    expect(first.status).toBe(202);
    const made = AcceptedSignupSchema.parse(await first.json());
    expect(made.status_token).not.toBe('');
    const { items } = (await (await apiList(h.server, t.key, t.waitlistId)).json()) as {
      items: { id: string }[];
    };
    expect(items).toHaveLength(1);
    expect((await erase(t.key, t.waitlistId, items[0]?.id as string)).status).toBe(204);

    const retry = await post(t.key, `${t.waitlistId}/subscribers`, { email }, 'create-erased');
    expect([retry.status, retry.headers.get('idempotent-replayed')]).toEqual([202, 'true']);
    const text = await retry.text();
    expect(AcceptedSignupSchema.parse(JSON.parse(text))).toEqual({
      status: 'accepted',
      status_token: '',
      referral_code: '',
      status_url: '',
    });
    for (const held of [made.status_token, made.referral_code]) expect(text).not.toContain(held);
    expect(((await (await apiList(h.server, t.key, t.waitlistId)).json()) as { total: number }).total).toBe(
      0,
    );
    expect((await fetch(`${h.server.url}/s/${made.status_token}`)).status).toBe(404);
  });

  it('keeps an answer without whoever was erased after the request wrote, before it was kept', async () => {
    const dir = tempDir();
    const store = await openStore(dir.db);
    try {
      const operators = operatorServices(store, {
        now: () => Date.now(),
        nowMicros: () => Date.now() * 1000,
      });
      const tenant = must(await operators.tenants.create('T', 'pro'));
      const waitlist = must(
        await operators.waitlists.create({ tenantId: tenant.id }, 'W', { referrals: true }),
      );
      const signUp = (email: string) =>
        store.write(async (tx) => {
          const result = await tx.subscribers.signUp(
            { waitlistId: waitlist.id, email, emailNorm: email, referralCode: undefined, confirm: false },
            Date.now() * 1000,
          );
          if (result.outcome === 'waitlist_gone') throw new Error('the waitlist is there');
          return result.subscriber;
        });
      const stays = await signUp('stays@example.com');
      const leaves = await signUp('leaves@example.com');
      const keep = async (idemKey: string, answer: unknown) => {
        await store.write((tx) => tx.idempotency.claim('key_1', idemKey, 'hash', Date.now()));
        await store.write((tx) => tx.idempotency.complete('key_1', idemKey, JSON.stringify(answer)));
      };
      const replay = async (idemKey: string) => {
        const decision = await store.write((tx) =>
          tx.idempotency.claim('key_1', idemKey, 'hash', Date.now()),
        );
        if (decision.kind !== 'replay') throw new Error(`a replay, not ${decision.kind}`);
        return JSON.parse(decision.answer);
      };
      const created = (s: typeof stays) => ({
        ok: true,
        value: {
          status: 'accepted',
          status_token: s.status_token,
          referral_code: s.referral_code,
          status_url: 'u',
        },
      });
      await store.write((tx) => tx.subscribers.erase(waitlist.id, leaves.id));
      await keep('admission', { ok: true, value: { items: [{ id: stays.id }, { id: leaves.id }] } });
      await keep('create-gone', created(leaves));
      await keep('create-here', created(stays));
      expect(await replay('admission')).toEqual({ ok: true, value: { items: [{ id: stays.id }] } });
      expect((await replay('create-gone')).value).toEqual({
        status: 'accepted',
        status_token: '',
        referral_code: '',
        status_url: '',
      });
      expect(await replay('create-here')).toEqual(created(stays));
      // Those kept are indexed: erasing the one still there takes it out of both answers.
      await store.write((tx) => tx.subscribers.erase(waitlist.id, stays.id));
      expect(await replay('admission')).toEqual({ ok: true, value: { items: [] } });
      expect((await replay('create-here')).value.status_token).toBe('');
    } finally {
      await store.close();
      dir.cleanup();
    }
  });

  it('says whom an answer names and what is left of it without them, by the rule', () => {
    const admission = JSON.stringify({ ok: true, value: { items: [{ id: 'sub_a' }, { id: 'sub_b' }] } });
    const created = JSON.stringify({
      ok: true,
      value: {
        status: 'accepted',
        status_token: 'tok',
        referral_code: 'CODE',
        status_url: 'https://x/s/tok',
      },
    });
    const refused = JSON.stringify({ ok: false, refusal: { code: 'invalid_email', message: 'm' } });
    const quiet = JSON.stringify({
      ok: true,
      value: { status: 'accepted', status_token: '', referral_code: '', status_url: '' },
    });
    expect(mentionsIn(admission)).toEqual({ ids: ['sub_a', 'sub_b'], statusTokens: [] });
    expect(mentionsIn(created)).toEqual({ ids: [], statusTokens: ['tok'] });
    for (const nobody of [refused, quiet, 'not json'])
      expect(mentionsIn(nobody)).toEqual({ ids: [], statusTokens: [] });
    expect(JSON.parse(withoutItem(admission, 'sub_a'))).toEqual({
      ok: true,
      value: { items: [{ id: 'sub_b' }] },
    });
    expect(withoutErased(admission, 'sub_b')).toBe(withoutItem(admission, 'sub_b'));
    expect(JSON.parse(withoutCreated(created))).toEqual(JSON.parse(quiet));
    expect(withoutErased(created, 'sub_x')).toBe(withoutCreated(created));
    expect(withoutErased(refused, 'sub_a')).toBe(refused);
  });
});

describe('Request-Id', () => {
  it('is on every answer of both areas, different each time, and in the log line of the request', async () => {
    const t = await h.tenant({ waitlist: ['--origins', ORIGIN, '--challenge', 'on'] });
    const answers = [
      await apiList(h.server, t.key, t.waitlistId),
      await apiList(h.server, 'wlk_live_nope', t.waitlistId),
      await apiList(h.server, t.key, 'wl_missing'),
      await publicPost(h.server, t.waitlistId, { email: 'r@example.com' }),
      await publicPost(h.server, 'wl_missing', { email: 'r@example.com' }),
      await fetch(`${h.server.url}/v1/public/waitlists/${t.waitlistId}/subscribers`, {
        method: 'OPTIONS',
        headers: { Origin: ORIGIN },
      }),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 401, 404, 428, 404, 204]);
    const ids = answers.map((r) => r.headers.get('request-id') as string);
    for (const id of ids) expect(id).toMatch(/^req_[A-Za-z0-9_-]{16,}$/);
    expect(new Set(ids).size).toBe(ids.length);
    await new Promise((resolve) => setTimeout(resolve, 50)); // let the last lines reach the pipe
    const logged = h.server
      .output()
      .split('\n')
      .filter((l) => l.includes('"msg":"request"'))
      .map((l) => JSON.parse(l).request_id);
    for (const id of ids) expect(logged).toContain(id);
  });
});

describe('expiry, with a controllable clock', () => {
  it('decides by the rule: replay, reused, in use, abandoned, and nothing after 24 hours', () => {
    const done = { requestHash: 'h', state: 'done' as const, answer: '{}', createdAt: 0 };
    expect(decide(undefined, 'h', 0)).toEqual({ kind: 'run' });
    expect(decide(done, 'h', IDEMPOTENCY_TTL_MS - 1)).toEqual({ kind: 'replay', answer: '{}' });
    expect(decide(done, 'other', IDEMPOTENCY_TTL_MS - 1)).toEqual({ kind: 'reused' });
    expect(decide(done, 'other', IDEMPOTENCY_TTL_MS)).toEqual({ kind: 'run' });
    const running = { ...done, state: 'in_progress' as const, answer: null };
    expect(decide(running, 'h', 59_999)).toEqual({ kind: 'in_use' });
    expect(decide(running, 'h', 60_000)).toEqual({ kind: 'run' });
  });

  it('forgets a kept answer 24 hours after the first request, on a real store', async () => {
    const dir = tempDir();
    let now = Date.UTC(2026, 0, 1);
    const clock: Clock = { now: () => now, nowMicros: () => now * 1000 };
    const store = await openStore(dir.db, { clock });
    try {
      const operators = operatorServices(store, clock);
      const tenant = must(await operators.tenants.create('T', 'pro'));
      const { operator } = must(
        await operators.tenants.createOperator(
          { tenantId: tenant.id },
          { email: 'op@example.com', role: 'admin', password: 'correct horse battery' },
        ),
      );
      const waitlist = must(await operators.waitlists.create({ tenantId: tenant.id }, 'W', {}));
      const { value } = must(await operators.keys.create(acting(operator), 'K', 'full'));
      const log = { request: () => {}, info: () => {}, error: () => {} };
      const api = new ApiRequests({
        store,
        clock,
        secret: 'test-secret-0123456789',
        config: { baseUrl: '', appUrl: '', trustProxy: false, keyRateLimit: 1000, sendsMail: false },
        log,
        mx: { check: async () => 'accepts' } as never,
        ...throttles(store, 1000),
        erasureCleanup: new ErasureCleanup(store, log, clock, true),
      });
      const create = (email: string) =>
        api.create({
          authorization: `Bearer ${value}`,
          waitlistId: waitlist.id,
          ip: undefined,
          idempotencyKey: 'daily',
          readBody: async () => ({ ok: true, value: { email }, digest: email }),
        });
      expect((await create('first@example.com')).ok).toBe(true);
      now += IDEMPOTENCY_TTL_MS - 1;
      expect(await create('second@example.com')).toMatchObject({
        ok: false,
        refusal: { code: 'idempotency_key_reused' },
      });
      now += 1;
      const later = await create('second@example.com');
      expect(later).toMatchObject({ ok: true });
      expect(later.replayed).toBeUndefined();
    } finally {
      await store.close();
      dir.cleanup();
    }
  });
});
