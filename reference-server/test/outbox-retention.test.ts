/**
 * What the outbox keeps, and for how long: erasure removes the deliveries and events that carry
 * the erased person's data, found by the subscriber they carry, and keeps other people's (a
 * referrer's pending referral.credited names the erased person only by an id that names nobody
 * any more); the periodic sweep forgets finished deliveries, their attempts and sent events past
 * WAITLIST_OUTBOX_RETENTION_DAYS, a batch at a time, and nothing still pending.
 */
import { cli, type RunningServer, seedTenant, startServer, tempDir } from '@waitlistkit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from './database.js';
import { type Harness, harness, ORIGIN, publicPost, SECRET, until } from './helpers.js';
import { receiver } from './webhook-receiver.js';

// A failed attempt is tried again an hour later: a delivery answered 500 stays pending.
const ENV = { WAITLIST_WEBHOOK_ALLOW_PRIVATE: '1', WAITLIST_WEBHOOK_RETRY_SCHEDULE: '3600' };
const DAY_MS = 86_400_000;

let r: Awaited<ReturnType<typeof receiver>>;
beforeAll(async () => {
  r = await receiver((x) => (x.path.startsWith('/down') ? 500 : 200));
});
afterAll(() => r.close());

interface Row {
  id: string;
  event_type: string;
  state: string;
  body: string;
  attempts: number;
}

/** The tenant's deliveries, each with whose data it carries (the subject of its event). */
async function deliveries(db: string, tenantId: string) {
  const rows = await sql<Row>(
    db,
    'SELECT id, event_type, state, body, attempts FROM deliveries WHERE tenant_id = ? ORDER BY created_at, id',
    [tenantId],
  );
  return rows.map((row) => {
    const data = JSON.parse(row.body).data as { id: string; referrer?: { id: string } };
    return { ...row, about: data.referrer?.id ?? data.id };
  });
}

describe('erasure', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness(ENV);
  });
  afterAll(() => h.close());

  it("removes the erased person's deliveries and events, and keeps the referrer's pending referral.credited", async () => {
    const t = await h.tenant({ waitlist: ['--origins', ORIGIN, '--referrals', 'on'] });
    await cli(['webhook', 'create', '--operator', t.operatorId, '--url', `${r.url}/down-erasure`], {
      db: h.db,
      env: ENV,
    });
    const referrer = (await (
      await publicPost(h.server, t.waitlistId, { email: 'referrer@example.com' })
    ).json()) as { referral_code: string };
    expect(
      (
        await publicPost(h.server, t.waitlistId, {
          email: 'Erased.Person@example.com',
          referral_code: referrer.referral_code,
        })
      ).status,
    ).toBe(202);
    await h.cli([
      'subscriber',
      'admit',
      '--operator',
      t.operatorId,
      '--waitlist',
      t.waitlistId,
      '--count',
      '2',
    ]);
    // Five deliveries, each attempted once and pending again: created x2, credited, admitted x2.
    const before = await until('every delivery attempted', async () => {
      const rows = await deliveries(h.db, t.tenantId);
      return rows.length === 5 && rows.every((d) => d.attempts === 1 && d.state === 'pending') && rows;
    });
    const erasedId = before.find((d) => d.body.includes('Erased.Person@example.com'))?.about as string;
    const referrerId = before.find((d) => d.event_type === 'referral.credited')?.about as string;
    expect(new Set(before.map((d) => d.about))).toEqual(new Set([erasedId, referrerId]));

    await h.cli([
      'subscriber',
      'delete',
      '--operator',
      t.operatorId,
      '--waitlist',
      t.waitlistId,
      '--email',
      'erased.person@example.com',
    ]);

    const after = await until('the deletion event', async () => {
      const rows = await deliveries(h.db, t.tenantId);
      return rows.some((d) => d.event_type === 'subscriber.deleted') && rows;
    });
    // The referrer's three stay, pending: their credit names the erased person by id alone.
    expect(
      after
        .filter((d) => d.event_type !== 'subscriber.deleted')
        .map((d) => [d.event_type, d.about === referrerId, d.state])
        .sort(),
    ).toEqual([
      ['referral.credited', true, 'pending'],
      ['subscriber.admitted', true, 'pending'],
      ['subscriber.created', true, 'pending'],
    ]);
    expect(
      JSON.parse(after.find((d) => d.event_type === 'referral.credited')?.body ?? '').data,
    ).toMatchObject({
      referrer: { id: referrerId },
      subscriber_id: erasedId,
    });
    expect(after.find((d) => d.event_type === 'subscriber.deleted')?.about).toBe(erasedId);
    // Nothing carries the address; the erased deliveries' attempts went with them.
    const gone = before.filter((d) => d.about === erasedId).map((d) => d.id);
    expect(gone).toHaveLength(2);
    const [left] = await sql<{ attempts: number; bodies: number; events: number }>(
      h.db,
      `SELECT (SELECT count(*) FROM delivery_attempts WHERE delivery_id IN (?, ?)) AS attempts,
              (SELECT count(*) FROM deliveries WHERE body LIKE ?) AS bodies,
              (SELECT count(*) FROM events WHERE data LIKE ?) AS events`,
      [...gone, '%Erased.Person%', '%Erased.Person%'],
    );
    expect(left).toEqual({ attempts: 0, bodies: 0, events: 0 });
    // Its events: only the deletion; the referrer's events, the credit among them, stay.
    const events = await sql<{ type: string; subject_id: string }>(
      h.db,
      'SELECT type, subject_id FROM events WHERE tenant_id = ? ORDER BY seq',
      [t.tenantId],
    );
    expect(events.filter((e) => e.subject_id === erasedId).map((e) => e.type)).toEqual([
      'subscriber.deleted',
    ]);
    expect(events.filter((e) => e.subject_id === referrerId).map((e) => e.type)).toEqual([
      'subscriber.created',
      'referral.credited',
      'subscriber.admitted',
    ]);
  });
});

describe('pruning', () => {
  it('forgets finished deliveries with their attempts and sent events past the retention, a batch at a time, and keeps what is pending or recent', async () => {
    const dir = tempDir();
    let server: RunningServer | undefined;
    try {
      const env = { ...ENV, WAITLIST_SECRET: SECRET };
      const t = await seedTenant(dir.db, { waitlist: ['--origins', ORIGIN, '--ip-limit', '1000'] });
      server = await startServer({ db: dir.db, env });
      const running = server;
      const create = (path: string) =>
        cli<{ id: string }>(['webhook', 'create', '--operator', t.operatorId, '--url', `${r.url}${path}`], {
          db: dir.db,
          env,
        });
      const up = await create('/up');
      await create('/down-pruning');
      for (let i = 0; i < 3; i++)
        expect((await publicPost(running, t.waitlistId, { email: `kept${i}@example.com` })).status).toBe(202);
      // Three delivered to /up, three pending again after a 500 at /down.
      await until('every delivery attempted', async () => {
        const rows = await deliveries(dir.db, t.tenantId);
        return rows.length === 6 && rows.every((d) => d.attempts === 1) && rows;
      });
      await server.stop();

      // Everything 31 days old but one delivered delivery, 29 days old; and 1,200 more delivered
      // ones from long ago with an attempt each, more than two batches.
      const [young] = await sql<{ id: string }>(
        dir.db,
        "SELECT id FROM deliveries WHERE state = 'delivered' ORDER BY id LIMIT 1",
      );
      await sql(
        dir.db,
        'UPDATE deliveries SET next_at = next_at - ?, created_at = created_at - ? WHERE id <> ?',
        [31 * DAY_MS, 31 * DAY_MS, young?.id],
      );
      await sql(dir.db, 'UPDATE deliveries SET next_at = next_at - ? WHERE id = ?', [29 * DAY_MS, young?.id]);
      // The pending ones are old too, but due again only tomorrow: the restarted server's worker
      // must not attempt them (and fail them for good) before the test has looked.
      await sql(dir.db, "UPDATE deliveries SET next_at = ? WHERE state = 'pending'", [Date.now() + DAY_MS]);
      await sql(dir.db, 'UPDATE delivery_attempts SET at = at - ?', [31 * DAY_MS]);
      await sql(dir.db, 'UPDATE events SET at = at - ?', [31 * DAY_MS]);
      const longAgo = Date.now() - 400 * DAY_MS;
      await sql(
        dir.db,
        `WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1200)
         INSERT INTO deliveries (id, channel, event_seq, endpoint_id, tenant_id, message_id, event_type, body,
                                 state, attempts, next_at, created_at)
         SELECT 'dlv_old' || i, 'webhook', 0, ?, ?, 'msg_old' || i, 'subscriber.created', '{"data":{}}',
                'delivered', 1, ?, ? FROM n`,
        [up.id, t.tenantId, longAgo, longAgo],
      );
      await sql(
        dir.db,
        `INSERT INTO delivery_attempts (delivery_id, at, status, error, duration_ms)
         SELECT id, next_at, 200, NULL, 5 FROM deliveries WHERE id LIKE 'dlv_old%'`,
      );

      // A server starting sweeps at once, then every minute.
      server = await startServer({ db: dir.db, env });
      const started = server;
      await until('the outbox pruned', () => started.output().includes('"msg":"outbox pruned"'), 60_000);
      const left = await deliveries(dir.db, t.tenantId);
      expect(left.map((d) => [d.state, d.id === young?.id]).sort()).toEqual([
        ['delivered', true],
        ['pending', false],
        ['pending', false],
        ['pending', false],
      ]);
      const [counts] = await sql<{ attempts: number; orphans: number; events: number }>(
        dir.db,
        `SELECT (SELECT count(*) FROM delivery_attempts) AS attempts,
                (SELECT count(*) FROM delivery_attempts WHERE delivery_id NOT IN (SELECT id FROM deliveries)) AS orphans,
                (SELECT count(*) FROM events) AS events`,
      );
      expect(counts).toEqual({ attempts: 4, orphans: 0, events: 0 });
      const line = started
        .output()
        .split('\n')
        .find((l) => l.includes('"msg":"outbox pruned"'));
      expect(JSON.parse(line ?? '{}')).toMatchObject({ deliveries: 1202, events: 3 });
    } finally {
      await server?.stop();
      dir.cleanup();
    }
  }, 120_000);
});

describe('WAITLIST_OUTBOX_RETENTION_DAYS', () => {
  it('refuses to start with 0 or anything but a whole number of days', async () => {
    const dir = tempDir();
    try {
      for (const days of ['0', 'thirty', '-1', '1.5', '30d', '99999999']) {
        await expect(
          startServer({ db: dir.db, env: { WAITLIST_SECRET: SECRET, WAITLIST_OUTBOX_RETENTION_DAYS: days } }),
          days,
        ).rejects.toThrow(
          // As the server prints it: inside its JSON error line.
          JSON.stringify(
            `WAITLIST_OUTBOX_RETENTION_DAYS must be a whole number from 1 to 36500, not ${JSON.stringify(days)}.`,
          ).slice(1, -1),
        );
      }
    } finally {
      dir.cleanup();
    }
  }, 120_000);
});
