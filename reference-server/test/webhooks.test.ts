/**
 * Webhooks through the outbox (docs/webhooks.md#the-outbox), end to end: a real server, a real HTTP receiver
 * on loopback, signatures checked with the `standardwebhooks` package (an implementation we did
 * not write), retries on the schedule, redirects not followed, filters, URL rules, a slow
 * receiver that never delays a 202, and a SIGKILL in the middle of a burst that loses nothing.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { webhooks } from '@waitlistkit/client';
import { WebhookEventSchema } from '@waitlistkit/protocol';
import { cli, type RunningServer, seedTenant, startServer, tempDir } from '@waitlistkit/testkit';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from './database.js';
import { type Harness, harness, ORIGIN, publicPost, SECRET, until } from './helpers.js';
import { deliveriesUntil, type Reply, receiver } from './webhook-receiver.js';

const ENV = { WAITLIST_WEBHOOK_ALLOW_PRIVATE: '1', WAITLIST_WEBHOOK_RETRY_SCHEDULE: '0,0,0' };

let h: Harness;
beforeAll(async () => {
  h = await harness(ENV);
});
afterAll(() => h.close());

async function endpoint(
  tenant: { operatorId: string },
  url: string,
  extra: string[] = [],
  env: Record<string, string | undefined> = ENV,
) {
  return cli<{ id: string; secret: string; url: string; events: string[] }>(
    ['webhook', 'create', '--operator', tenant.operatorId, '--url', url, ...extra],
    { db: h.db, env },
  );
}

/** A tenant with its waitlist and a second one, `other`, both open to ORIGIN. */
async function tenantOfTwoWaitlists() {
  const t = await h.tenant({ waitlist: ['--origins', ORIGIN] });
  const other = await h.cli<{ waitlist_id: string }>([
    'waitlist',
    'create',
    '--tenant',
    t.tenantId,
    '--name',
    'Other',
    '--origins',
    ORIGIN,
  ]);
  return { t, other };
}

type Listed = { id: string; state: string; attempts: { status: number | null }[] };

/** An endpoint's deliveries with their attempts, newest first, through the command line. */
async function deliveriesOf(hookId: string, state?: string): Promise<Listed[]> {
  const listed = await h.cli<{ items: Listed[] }>([
    'webhook',
    'deliveries',
    '--webhook',
    hookId,
    ...(state ? ['--state', state] : []),
  ]);
  return listed.items;
}

/** A receiver that holds every request until `release()`, then answers `status`. */
async function holding(status: number) {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const r = await receiver(async () => {
    await held;
    return status;
  });
  return { ...r, release };
}

describe('webhooks', () => {
  it('signs subscriber.created per Standard Webhooks, checked by the standardwebhooks package', async () => {
    const r = await receiver(() => 200);
    try {
      const t = await h.tenant({ waitlist: ['--origins', ORIGIN, '--referrals', 'on'] });
      const hook = await endpoint(t, `${r.url}/hook`);
      expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
      const listed = await h.cli<{ items: Record<string, unknown>[] }>([
        'webhook',
        'list',
        '--tenant',
        t.tenantId,
      ]);
      expect(listed.items).toEqual([expect.objectContaining({ id: hook.id, url: `${r.url}/hook` })]);
      expect(JSON.stringify(listed)).not.toContain(hook.secret);

      const signup = await publicPost(h.server, t.waitlistId, { email: 'Hooked@Example.com' });
      const { status_token } = (await signup.json()) as { status_token: string };
      const [got] = await until('the delivery', () => r.received.length > 0 && r.received);
      const event = new Webhook(hook.secret).verify(
        got?.body as string,
        got?.headers as Record<string, string>,
      ) as {
        type: string;
        data: Record<string, unknown>;
      };
      // And by our own client's helper, which also checks the body is an event of the contract.
      const ours = webhooks.unwrap(got?.body as string, got?.headers as Record<string, string>, hook.secret);
      expect(ours).toEqual(event);
      expect(got?.headers['content-type']).toBe('application/json');
      expect(got?.headers['webhook-id']).toMatch(/^msg_/);
      expect(event.type).toBe('subscriber.created');
      expect(event.data).toMatchObject({
        email: 'Hooked@Example.com',
        waitlist_id: t.waitlistId,
        status: 'waiting',
        position: 1,
        confirmed: true,
      });
      expect(got?.body).not.toContain(status_token);
      // Tampering is caught by the same verifier.
      expect(() =>
        new Webhook(hook.secret).verify(`${got?.body} `, got?.headers as Record<string, string>),
      ).toThrow();
    } finally {
      await r.close();
    }
  });

  it('carries the answers to fields, the source and the channel in subscriber.created', async () => {
    const r = await receiver(() => 200);
    const files = tempDir();
    try {
      const t = await h.tenant({ waitlist: ['--origins', ORIGIN] });
      const fields = join(files.dir, 'fields.json');
      writeFileSync(
        fields,
        JSON.stringify([{ key: 'company', label: 'Company', type: 'text', required: true }]),
      );
      await h.cli(['waitlist', 'update', '--waitlist', t.waitlistId, '--fields', fields]);
      const hook = await endpoint(t, `${r.url}/hook`);
      const signup = await publicPost(h.server, t.waitlistId, {
        email: 'asked@example.com',
        fields: { company: 'Acme' },
        source: { utm_source: 'newsletter', landing: 'https://landing.example/launch?x=1' },
      });
      expect(signup.status).toBe(202);
      const [got] = await until('the delivery', () => r.received.length > 0 && r.received);
      const headers = got?.headers as Record<string, string>;
      const event = new Webhook(hook.secret).verify(got?.body as string, headers) as {
        data: Record<string, unknown>;
      };
      expect(webhooks.unwrap(got?.body as string, headers, hook.secret)).toEqual(event);
      expect(event.data).toMatchObject({
        email: 'asked@example.com',
        fields: { company: 'Acme' },
        source: { utm_source: 'newsletter', landing: 'https://landing.example/launch' },
        channel: 'newsletter',
      });
    } finally {
      await r.close();
      files.cleanup();
    }
  });

  it('retries a failing endpoint on the schedule with the same webhook-id, records each attempt, then gives up; resend sends again', async () => {
    let failures = 3;
    const r = await receiver(() => (failures-- > 0 ? 500 : 200));
    try {
      const t = await h.tenant({ waitlist: ['--origins', ORIGIN] });
      const hook = await endpoint(t, `${r.url}/flaky`);
      await publicPost(h.server, t.waitlistId, { email: 'retry@example.com' });
      await until('four attempts', () => r.received.length >= 4);
      expect(new Set(r.received.map((x) => x.headers['webhook-id'])).size).toBe(1);
      const deliveries = async (state?: string) =>
        (
          await h.cli<{ items: { id: string; state: string; attempts: { status: number | null }[] }[] }>([
            'webhook',
            'deliveries',
            '--webhook',
            hook.id,
            ...(state ? ['--state', state] : []),
          ])
        ).items;
      const delivered = await deliveriesUntil(
        () => deliveries(),
        (items) => items[0]?.state === 'delivered',
      );
      expect(delivered[0]?.attempts.map((a) => a.status)).toEqual([500, 500, 500, 200]);

      // Always failing: four attempts (one, then the three retries of the schedule), then failed.
      failures = 100;
      await publicPost(h.server, t.waitlistId, { email: 'never@example.com' });
      const failed = await deliveriesUntil(
        () => deliveries('failed'),
        (items) => items.length === 1,
      );
      expect(failed[0]?.attempts).toHaveLength(4);
      failures = 0;
      const resent = await h.cli<{ state: string }>([
        'webhook',
        'resend',
        '--operator',
        t.operatorId,
        '--delivery',
        failed[0]?.id as string,
      ]);
      expect(resent.state).toBe('pending');
      await deliveriesUntil(
        () => deliveries('delivered'),
        (items) => items.length === 2,
      );
    } finally {
      await r.close();
    }
  });

  it('gives a delivery sent again after its schedule ran out the whole schedule again', async () => {
    const r = await receiver(() => 500);
    try {
      const t = await h.tenant({ waitlist: ['--origins', ORIGIN] });
      const hook = await endpoint(t, `${r.url}/spent`);
      await publicPost(h.server, t.waitlistId, { email: 'spent@example.com' });
      const [failed] = await deliveriesUntil(
        () => deliveriesOf(hook.id, 'failed'),
        (items) => items.length === 1,
      );
      expect(failed?.attempts).toHaveLength(4);
      await h.cli(['webhook', 'resend', '--operator', t.operatorId, '--delivery', failed?.id as string]);
      // One attempt, then the three retries of the schedule, as the first time.
      const [again] = await deliveriesUntil(
        () => deliveriesOf(hook.id, 'failed'),
        (items) => (items[0]?.attempts.length ?? 0) > 4,
      );
      expect(again?.attempts.map((a) => a.status)).toEqual(Array(8).fill(500));
      expect(r.received).toHaveLength(8);
    } finally {
      await r.close();
    }
  });

  it('keeps a delivery failed when its endpoint is deleted while an attempt is in flight', async () => {
    const r = await holding(500);
    try {
      const t = await h.tenant({ waitlist: ['--origins', ORIGIN] });
      const hook = await endpoint(t, `${r.url}/deleted`);
      await publicPost(h.server, t.waitlistId, { email: 'in-flight@example.com' });
      await until('the held attempt', () => r.received.length === 1);
      await h.cli(['webhook', 'delete', '--operator', t.operatorId, '--webhook', hook.id]);
      expect((await deliveriesOf(hook.id))[0]?.state).toBe('failed');
      r.release();
      const [recorded] = await deliveriesUntil(
        () => deliveriesOf(hook.id),
        (items) => items[0]?.attempts.length === 1,
      );
      // The attempt is listed; the deletion's verdict stands (a 500 would have made it pending).
      expect(recorded?.attempts[0]?.status).toBe(500);
      expect(recorded?.state).toBe('failed');
    } finally {
      r.release();
      await r.close();
    }
  });

  it('does not follow redirects', async () => {
    const r = await receiver((x): Reply => (x.path === '/moved' ? [302, { Location: '/elsewhere' }] : 200));
    try {
      const t = await h.tenant({ waitlist: ['--origins', ORIGIN] });
      const hook = await endpoint(t, `${r.url}/moved`);
      await publicPost(h.server, t.waitlistId, { email: 'redirect@example.com' });
      await until('four attempts', () => r.received.length >= 4);
      expect(r.received.every((x) => x.path === '/moved')).toBe(true);
      const { items } = await h.cli<{ items: { attempts: { status: number }[] }[] }>([
        'webhook',
        'deliveries',
        '--webhook',
        hook.id,
      ]);
      expect(items[0]?.attempts[0]?.status).toBe(302);
    } finally {
      await r.close();
    }
  });

  it('sends only the event types and the waitlist an endpoint asked for; admissions and erasures too', async () => {
    const r = await receiver(() => 200);
    try {
      const { t, other } = await tenantOfTwoWaitlists();
      await endpoint(t, `${r.url}/admitted`, [
        '--events',
        'subscriber.admitted,subscriber.deleted',
        '--waitlist',
        t.waitlistId,
      ]);
      for (const wl of [t.waitlistId, other.waitlist_id]) {
        expect(
          (await publicPost(h.server, wl, { email: `first@${wl === t.waitlistId ? 'one' : 'two'}.example` }))
            .status,
        ).toBe(202);
        await h.cli(['subscriber', 'admit', '--operator', t.operatorId, '--waitlist', wl, '--count', '1']);
      }
      const [admitted] = await until('the admission event', () => r.received.length > 0 && r.received);
      const body = WebhookEventSchema.parse(JSON.parse(admitted?.body as string));
      expect(body).toMatchObject({
        type: 'subscriber.admitted',
        data: { status: 'admitted', waitlist_id: t.waitlistId },
      });
      const erased = await h.cli<{ deleted: string }>([
        'subscriber',
        'delete',
        '--operator',
        t.operatorId,
        '--waitlist',
        t.waitlistId,
        '--email',
        'first@one.example',
      ]);
      const deleted = await until('the deletion event', () =>
        r.received.find((x) => x.body.includes('subscriber.deleted')),
      );
      expect(WebhookEventSchema.parse(JSON.parse(deleted.body)).data).toEqual({
        id: erased.deleted,
        waitlist_id: t.waitlistId,
      });
      // Nothing of the other waitlist, and no sign-up events.
      expect(r.received.map((x) => JSON.parse(x.body).type)).toEqual([
        'subscriber.admitted',
        'subscriber.deleted',
      ]);
    } finally {
      await r.close();
    }
  });

  it('records an event only when a live endpoint wants its type and waitlist: a sign-up wanted by none writes none', async () => {
    const { t, other } = await tenantOfTwoWaitlists();
    const recorded = async () =>
      (
        await sql<{ type: string; waitlist_id: string }>(
          h.db,
          'SELECT type, waitlist_id FROM events WHERE tenant_id = ? ORDER BY seq',
          [t.tenantId],
        )
      ).map((e) => `${e.type} ${e.waitlist_id === t.waitlistId ? 'one' : 'other'}`);
    // Admissions of the first waitlist only: a sign-up there, and anything of the other, is wanted by nobody.
    await endpoint(t, 'http://127.0.0.1:9/admitted', [
      '--events',
      'subscriber.admitted',
      '--waitlist',
      t.waitlistId,
    ]);
    for (const wl of [t.waitlistId, other.waitlist_id]) {
      expect(
        (await publicPost(h.server, wl, { email: `a@${wl === t.waitlistId ? 'one' : 'other'}.example` }))
          .status,
      ).toBe(202);
      await h.cli(['subscriber', 'admit', '--operator', t.operatorId, '--waitlist', wl, '--count', '1']);
    }
    expect(await recorded()).toEqual(['subscriber.admitted one']);
    // An endpoint of every type and waitlist wants them all from then on.
    await endpoint(t, 'http://127.0.0.1:9/all');
    expect((await publicPost(h.server, other.waitlist_id, { email: 'b@other.example' })).status).toBe(202);
    expect(await recorded()).toEqual(['subscriber.admitted one', 'subscriber.created other']);
  });

  it('refuses http, private, loopback and link-local destinations unless they are allowed', async () => {
    const t = await h.tenant();
    const strict = { WAITLIST_WEBHOOK_ALLOW_PRIVATE: undefined };
    for (const url of [
      'http://hooks.example.com/x',
      'https://127.0.0.1/x',
      'https://10.1.2.3/x',
      'https://169.254.169.254/latest',
      'https://[::1]/x',
      'https://localhost/x',
      'not a url',
    ]) {
      await expect(endpoint(t, url, [], strict), url).rejects.toThrow(/usage_error/);
    }
  });

  it("refuses a tenant's 21st live endpoint, and takes one again once one is deleted", async () => {
    const t = await h.tenant();
    const other = await h.tenant();
    const hooks = [];
    for (let i = 0; i < 20; i++) hooks.push(await endpoint(t, `https://127.0.0.1/cap${i}`));
    await expect(endpoint(t, 'https://127.0.0.1/cap20')).rejects.toThrow(
      /"code":"conflict".*20 webhook endpoints, the most it may have: delete one before adding another/,
    );
    // Another tenant's endpoints are its own.
    await endpoint(other, 'https://127.0.0.1/theirs');
    const listed = await h.cli<{ items: unknown[] }>(['webhook', 'list', '--tenant', t.tenantId]);
    expect(listed.items).toHaveLength(20);
    await h.cli(['webhook', 'delete', '--operator', t.operatorId, '--webhook', hooks[0]?.id as string]);
    await endpoint(t, 'https://127.0.0.1/cap20');
  });

  it('answers a sign-up at once while the receiver is stuck', async () => {
    const r = await holding(200);
    const { release } = r;
    try {
      const t = await h.tenant({ waitlist: ['--origins', ORIGIN] });
      await endpoint(t, `${r.url}/stuck`);
      await publicPost(h.server, t.waitlistId, { email: 'first@example.com' });
      await until('the held delivery', () => r.received.length === 1);
      // The receiver has not answered; the next sign-ups are answered all the same.
      const answers = await Promise.all(
        [1, 2, 3].map((i) => publicPost(h.server, t.waitlistId, { email: `next${i}@example.com` })),
      );
      expect(answers.map((a) => a.status)).toEqual([202, 202, 202]);
      release();
      await until('every delivery', () => r.received.length >= 4);
    } finally {
      release();
      await r.close();
    }
  });
});

describe('durability', () => {
  it('gives back at shutdown the deliveries it had claimed and not attempted, for the next server at once', async () => {
    const r = await holding(204);
    const dir = tempDir();
    let server: RunningServer | undefined;
    try {
      const env = { ...ENV, WAITLIST_SECRET: SECRET };
      const t = await seedTenant(dir.db, { waitlist: ['--origins', ORIGIN] });
      await cli(['webhook', 'create', '--operator', t.operatorId, '--url', `${r.url}/shutdown`], {
        db: dir.db,
        env,
      });
      server = await startServer({ db: dir.db, env });
      const running = server;
      const emails = Array.from({ length: 10 }, (_, i) => `shut${i}@example.com`);
      for (const email of emails)
        expect((await publicPost(running, t.waitlistId, { email })).status).toBe(202);
      const leased = async () =>
        (
          await sql<{ n: number }>(
            dir.db,
            'SELECT count(*) AS n FROM deliveries WHERE lease_until IS NOT NULL',
          )
        )[0]?.n;
      // Four attempts under way at the endpoint, held by the receiver; the other six claimed too.
      await until('four attempts held by the receiver', () => r.received.length === 4);
      await until('every delivery claimed', async () => (await leased()) === 10);
      expect(r.received).toHaveLength(4);
      const stopping = running.stop();
      r.release();
      await stopping;
      server = undefined;
      const states = await sql<{ state: string; leased: number; n: number }>(
        dir.db,
        `SELECT state, lease_until IS NOT NULL AS leased, count(*) AS n FROM deliveries
          GROUP BY state, lease_until IS NOT NULL ORDER BY state`,
      );
      expect(states.map((s) => ({ ...s, leased: Boolean(s.leased) }))).toEqual([
        { state: 'delivered', leased: false, n: 4 },
        { state: 'pending', leased: false, n: 6 },
      ]);
      // Not after the 60 s lease: the next server sends them at once.
      server = await startServer({ db: dir.db, env });
      await until('the six sent by the next server', () => r.received.length === 10, 20_000);
    } finally {
      r.release();
      await server?.stop();
      await r.close();
      dir.cleanup();
    }
  }, 60_000);

  it('loses no subscriber.created delivery of an answered sign-up when the server is killed mid-burst', async () => {
    const seen = new Set<string>();
    const r = await receiver(async (x) => {
      seen.add(JSON.parse(x.body).data.email);
      await new Promise((resolve) => setTimeout(resolve, 20)); // a slow receiver
      return 200;
    });
    const dir = tempDir();
    let server: RunningServer | undefined;
    try {
      const env = { ...ENV, WAITLIST_SECRET: SECRET };
      const t = await seedTenant(dir.db, { waitlist: ['--origins', ORIGIN, '--ip-limit', '100000'] });
      await cli(['webhook', 'create', '--operator', t.operatorId, '--url', `${r.url}/burst`], {
        db: dir.db,
        env,
      });
      server = await startServer({ db: dir.db, env });
      const running = server;
      const accepted: string[] = [];
      const burst = Array.from({ length: 300 }, (_, i) => `burst${i}@example.com`).map(async (email) => {
        const res = await publicPost(running, t.waitlistId, { email }).catch(() => undefined);
        if (res?.status === 202) accepted.push(email);
      });
      await until('half the burst answered', () => accepted.length >= 100);
      await server.stop('SIGKILL');
      await Promise.all(burst);
      expect(accepted.length).toBeGreaterThanOrEqual(100);
      server = await startServer({ db: dir.db, env });
      // The deliveries the killed server had claimed and not yet sent wait out its 60 s lease.
      await until('every answered sign-up delivered', () => accepted.every((e) => seen.has(e)), 90_000);
    } finally {
      await server?.stop();
      await r.close();
      dir.cleanup();
    }
  }, 150_000);
});
