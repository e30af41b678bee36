/** Schema steps that change stored data, run on a real SQLite file written by the older schema. */
import { SubscriberStatus } from '@waitlistkit/protocol';
import { tempDir } from '@waitlistkit/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../src/domain/settings.js';
import { Connection } from '../src/store/sqlite/connection.js';
import { openDatabase } from '../src/store/sqlite/database.js';
import { sqlite } from '../src/store/sqlite/dialect.js';
import { listSubscribers } from '../src/store/sqlite/line.js';
import { MIGRATIONS } from '../src/store/sqlite/migrations.js';
import { insertOrMatchSubscriber } from '../src/store/sqlite/subscribers.js';
import { erase } from '../src/store/statements/lifecycle.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

describe('migration 3', () => {
  it('recomputes search texts that SQLite lower-cased as ASCII only, and leaves the others', async () => {
    const old = await Connection.open(tmp.db);
    for (const step of MIGRATIONS.slice(0, 2)) await old.exec(step as string);
    await old.exec('PRAGMA user_version = 2');
    await old.exec(`
      INSERT INTO tenants VALUES ('ten_1', 'T', 'pro', '2026-01-01T00:00:00Z');
      INSERT INTO waitlists VALUES ('wl_1', 'ten_1', 'W', 0, '{}', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z');
      INSERT INTO subscribers (id, waitlist_id, seq, email, email_norm, email_search, referral_code,
        status_token, rank_key, joined_us) VALUES
        ('sub_1', 'wl_1', 1, 'Kunde@BÜCHER.example', 'kunde@xn--bcher-kva.example', 'kunde@bÜcher.example', 'AAAAAA', 't1', 1, 1),
        ('sub_2', 'wl_1', 2, 'Plain@Example.com', 'plain@example.com', 'plain@example.com', 'BBBBBB', 't2', 2, 2);
    `);
    await old.close();

    const db = await openDatabase(tmp.db);
    try {
      const rows = await db.reader.all<{ id: string; email_search: string }>(
        'SELECT id, email_search FROM subscribers ORDER BY seq',
      );
      expect(rows).toEqual([
        { id: 'sub_1', email_search: 'kunde@bücher.example' },
        { id: 'sub_2', email_search: 'plain@example.com' },
      ]);
      expect((await db.reader.get<{ user_version: number }>('PRAGMA user_version'))?.user_version).toBe(
        MIGRATIONS.length,
      );
    } finally {
      await db.close();
    }
  });
});

describe('migration 8', () => {
  it('indexes the search texts of a database written before the trigram index, and keeps it in step', async () => {
    const path = `${tmp.dir}/before-fts.db`;
    const old = await Connection.open(path);
    for (const step of MIGRATIONS.slice(0, 7)) {
      if (typeof step === 'string') await old.exec(step);
      else await step(old);
    }
    await old.exec('PRAGMA user_version = 7');
    const emails = Array.from({ length: 500 }, (_, i) => `Person.${i}@Example${i % 3}.com`);
    await old.exec(`
      BEGIN;
      INSERT INTO tenants VALUES ('ten_1', 'T', 'pro', '2026-01-01T00:00:00Z');
      INSERT INTO waitlists (id, tenant_id, name, settings, created_at, updated_at)
        VALUES ('wl_1', 'ten_1', 'W', '{}', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z');
    `);
    for (const [i, email] of emails.entries()) {
      await old.run(
        `INSERT INTO subscribers (id, waitlist_id, seq, email, email_norm, email_search, referral_code,
           status_token, rank_key, joined_us) VALUES (?, 'wl_1', ?, ?, ?, ?, ?, ?, ?, ?)`,
        [`sub_${i}`, i + 1, email, email.toLowerCase(), email.toLowerCase(), `C${i}`, `t${i}`, i + 1, i + 1],
      );
    }
    await old.exec('COMMIT');
    await old.close();

    const db = await openDatabase(path);
    try {
      expect((await db.reader.get<{ user_version: number }>('PRAGMA user_version'))?.user_version).toBe(
        MIGRATIONS.length,
      );
      const search = (q: string) =>
        db.snapshot((tx) =>
          listSubscribers(
            tx,
            'wl_1',
            DEFAULT_SETTINGS,
            { page: 1, limit: 200, q, status: SubscriberStatus.waiting },
            'index',
          ),
        );
      // Rows written before the index existed are found through it.
      const hits = await search('PERSON.42');
      expect(hits.items.map((s) => [s.email, s.position])).toEqual(
        emails.flatMap((e, i) => (e.toLowerCase().includes('person.42') ? [[e, i + 1]] : [])),
      );
      expect(hits.total).toBe(11);
      // Secure delete is on, and the triggers keep the index in step with what comes after.
      expect(
        await db.reader.get<{ v: number }>("SELECT v FROM subscribers_fts_config WHERE k = 'secure-delete'"),
      ).toEqual({ v: 1 });
      await db.writer.submit(async (tx) => {
        await erase(tx, sqlite, 'wl_1', 'sub_42');
        await insertOrMatchSubscriber(
          tx,
          {
            waitlistId: 'wl_1',
            email: 'Late.Person.42@Example.com',
            emailNorm: 'late.person.42@example.com',
            referralCode: undefined,
            confirm: false,
          },
          10_000,
        );
      });
      expect((await search('person.42@')).items.map((s) => s.email)).toEqual(['Late.Person.42@Example.com']);
      await db.writer.submit((tx) =>
        tx.run("INSERT INTO subscribers_fts (subscribers_fts, rank) VALUES ('integrity-check', 1)"),
      );
    } finally {
      await db.close();
    }
  });
});

describe('the migration that gives deliveries their subscriber', () => {
  it('fills it for the deliveries already written, so erasure finds them by index', async () => {
    const path = `${tmp.dir}/before-subscriber-column.db`;
    const step = MIGRATIONS.findIndex((m) => typeof m === 'string' && m.includes('ADD COLUMN subscriber_id'));
    const old = await Connection.open(path);
    for (const m of MIGRATIONS.slice(0, step)) {
      if (typeof m === 'string') await old.exec(m);
      else await m(old);
    }
    await old.exec(`PRAGMA user_version = ${step}`);
    const body = (type: string, data: object) => JSON.stringify({ type, timestamp: '', data });
    await old.exec(`
      INSERT INTO tenants VALUES ('ten_1', 'T', 'pro', '2026-01-01T00:00:00Z');
      INSERT INTO operators VALUES ('op_1', 'ten_1', 'a@x.example', 'a@x.example', 'admin', 'h', '');
      INSERT INTO waitlists (id, tenant_id, name, settings, created_at, updated_at)
        VALUES ('wl_1', 'ten_1', 'W', '{}', '', '');
      INSERT INTO webhook_endpoints (id, tenant_id, url, secret, state, created_at, created_by)
        VALUES ('wh_1', 'ten_1', 'https://h.example', 's', 'active', '', 'op_1');
      INSERT INTO events (seq, message_id, tenant_id, waitlist_id, type, subject_id, data, at, dispatched) VALUES
        (1, 'msg_1', 'ten_1', 'wl_1', 'subscriber.created', 'sub_new', NULL, 1, 1),
        (2, 'msg_2', 'ten_1', 'wl_1', 'referral.credited', 'sub_ref', '{"subscriber_id":"sub_new"}', 1, 1),
        (3, 'msg_3', 'ten_1', 'wl_1', 'subscriber.deleted', 'sub_gone', '{"id":"sub_gone"}', 1, 1);
    `);
    const delivery = `INSERT INTO deliveries (id, channel, event_seq, endpoint_id, tenant_id, message_id, event_type,
      body, state, attempts, next_at, created_at) VALUES (?, ?, ?, ?, 'ten_1', ?, ?, ?, 'pending', 0, 1, 1)`;
    for (const row of [
      [
        'dlv_created',
        'webhook',
        1,
        'wh_1',
        'msg_1',
        'subscriber.created',
        body('subscriber.created', { id: 'sub_new' }),
      ],
      [
        'dlv_credited',
        'webhook',
        2,
        'wh_1',
        'msg_2',
        'referral.credited',
        body('referral.credited', { referrer: { id: 'sub_ref' }, subscriber_id: 'sub_new' }),
      ],
      [
        'dlv_deleted',
        'webhook',
        3,
        'wh_1',
        'msg_3',
        'subscriber.deleted',
        body('subscriber.deleted', { id: 'sub_gone' }),
      ],
      // Its event gone (erased before this migration): the body says whose it is.
      [
        'dlv_orphan',
        'webhook',
        9,
        'wh_1',
        'msg_9',
        'subscriber.admitted',
        body('subscriber.admitted', { id: 'sub_adm' }),
      ],
      [
        'dlv_mail',
        'mail',
        null,
        null,
        'msg_m',
        'confirmation',
        JSON.stringify({ subscriber_id: 'sub_mail' }),
      ],
    ])
      await old.run(delivery, row);
    await old.close();

    const db = await openDatabase(path);
    try {
      expect(await db.reader.all('SELECT id, subscriber_id FROM deliveries ORDER BY id')).toEqual([
        { id: 'dlv_created', subscriber_id: 'sub_new' },
        { id: 'dlv_credited', subscriber_id: 'sub_ref' },
        { id: 'dlv_deleted', subscriber_id: null },
        { id: 'dlv_mail', subscriber_id: 'sub_mail' },
        { id: 'dlv_orphan', subscriber_id: 'sub_adm' },
      ]);
      // And a mail queued from now on records its addressee.
      await db.writer.submit((tx) =>
        tx.run('INSERT INTO confirmation_mail_queue VALUES (?, ?, ?)', ['sub_later', 'wl_1', 5_000]),
      );
      expect(
        await db.reader.get(
          "SELECT subscriber_id FROM deliveries WHERE id NOT IN ('dlv_mail') AND channel = 'mail'",
        ),
      ).toEqual({ subscriber_id: 'sub_later' });
    } finally {
      await db.close();
    }
  });
});

describe('the migration indexing whom kept answers name', () => {
  it('indexes the answers kept before it, and empties a create answer of someone erased before it', async () => {
    const path = `${tmp.dir}/before-names.db`;
    const step = MIGRATIONS.findIndex(
      (m) => typeof m === 'string' && m.includes('CREATE TABLE idempotency_names'),
    );
    expect(step).toBeGreaterThan(0);
    const old = await Connection.open(path);
    for (const migration of MIGRATIONS.slice(0, step)) {
      if (typeof migration === 'string') await old.exec(migration);
      else await migration(old);
    }
    await old.exec(`PRAGMA user_version = ${step}`);
    const created = (token: string, code: string) =>
      JSON.stringify({
        ok: true,
        value: {
          status: 'accepted',
          status_token: token,
          referral_code: code,
          status_url: `https://x/s/${token}`,
        },
      });
    const admitted = JSON.stringify({ ok: true, value: { items: [{ id: 'sub_1' }, { id: 'sub_2' }] } });
    const refused = JSON.stringify({ ok: false, refusal: { code: 'invalid_email', message: 'No.' } });
    await old.exec(`
      INSERT INTO tenants VALUES ('ten_1', 'T', 'pro', '2026-01-01T00:00:00Z');
      INSERT INTO waitlists (id, tenant_id, name, settings, created_at, updated_at)
        VALUES ('wl_1', 'ten_1', 'W', '{}', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z');
      INSERT INTO subscribers (id, waitlist_id, seq, email, email_norm, email_search, referral_code,
        status_token, rank_key, joined_us) VALUES
        ('sub_1', 'wl_1', 1, 'a@example.com', 'a@example.com', 'a@example.com', 'AAAAAA', 'tok_1', 1, 1),
        ('sub_2', 'wl_1', 2, 'b@example.com', 'b@example.com', 'b@example.com', 'BBBBBB', 'tok_2', 2, 2);
    `);
    const keep = (idemKey: string, answer: string | null) =>
      old.run(
        `INSERT INTO idempotency (key_id, idem_key, request_hash, state, answer, created_at)
         VALUES ('key_1', ?, 'h', ?, ?, 1)`,
        [idemKey, answer === null ? 'in_progress' : 'done', answer],
      );
    await keep('admission', admitted);
    await keep('create', created('tok_2', 'BBBBBB'));
    await keep('create-of-erased', created('tok_erased', 'EEEEEE'));
    await keep('refusal', refused);
    await keep('running', null);
    await old.close();

    const db = await openDatabase(path);
    try {
      const names = () =>
        db.reader.all<{ idem_key: string; subscriber_id: string }>(
          'SELECT idem_key, subscriber_id FROM idempotency_names ORDER BY idem_key, subscriber_id',
        );
      const answer = async (idemKey: string) =>
        (
          await db.reader.get<{ answer: string }>('SELECT answer FROM idempotency WHERE idem_key = ?', [
            idemKey,
          ])
        )?.answer;
      expect(await names()).toEqual([
        { idem_key: 'admission', subscriber_id: 'sub_1' },
        { idem_key: 'admission', subscriber_id: 'sub_2' },
        { idem_key: 'create', subscriber_id: 'sub_2' },
      ]);
      expect(JSON.parse((await answer('create-of-erased')) as string)).toEqual({
        ok: true,
        value: { status: 'accepted', status_token: '', referral_code: '', status_url: '' },
      });
      expect(await answer('refusal')).toBe(refused);
      expect(await answer('create')).toBe(created('tok_2', 'BBBBBB'));

      // An erasure after it finds them through the index; a forgotten answer takes its names along.
      await db.writer.submit((tx) => erase(tx, sqlite, 'wl_1', 'sub_2'));
      expect(JSON.parse((await answer('admission')) as string).value.items).toEqual([{ id: 'sub_1' }]);
      expect(JSON.parse((await answer('create')) as string).value).toMatchObject({
        status_token: '',
        referral_code: '',
      });
      await db.writer.submit((tx) => tx.run("DELETE FROM idempotency WHERE idem_key = 'admission'"));
      expect(await names()).toEqual([]);
    } finally {
      await db.close();
    }
  });
});

describe('the migration counting the days', () => {
  it('counts the subscribers written before it by the days of their sign-up, confirmation, credit and admission', async () => {
    const path = `${tmp.dir}/before-days.db`;
    const step = MIGRATIONS.findIndex(
      (m) => typeof m === 'string' && m.includes('CREATE TABLE daily_counts'),
    );
    expect(step).toBeGreaterThan(0);
    const old = await Connection.open(path);
    for (const migration of MIGRATIONS.slice(0, step)) {
      if (typeof migration === 'string') await old.exec(migration);
      else await migration(old);
    }
    await old.exec(`PRAGMA user_version = ${step}`);
    const day = (n: number) => n * 86_400_000_000 + 3_600_000_000;
    await old.exec(`
      INSERT INTO tenants VALUES ('ten_1', 'T', 'pro', '2026-01-01T00:00:00Z');
      INSERT INTO waitlists (id, tenant_id, name, settings, created_at, updated_at)
        VALUES ('wl_1', 'ten_1', 'W', '{}', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z');
      INSERT INTO subscribers (id, waitlist_id, seq, email, email_norm, email_search, referral_code,
        status_token, rank_key, joined_us, confirmed_us, admitted_us, referred_by, credited, source_channel) VALUES
        ('sub_1', 'wl_1', 1, 'a@example.com', 'a@example.com', 'a@example.com', 'AAAAAA', 'tok_1', 1,
         ${day(20000)}, ${day(20001)}, ${day(20002)}, NULL, 0, NULL),
        ('sub_2', 'wl_1', 2, 'b@example.com', 'b@example.com', 'b@example.com', 'BBBBBB', 'tok_2', 2,
         ${day(20000) + 1}, ${day(20003)}, NULL, 'sub_1', 1, 'ads'),
        ('sub_3', 'wl_1', 3, 'c@example.com', 'c@example.com', 'c@example.com', 'CCCCCC', 'tok_3', 3,
         ${day(20001)}, NULL, NULL, NULL, 0, 'ads');
    `);
    await old.close();

    const db = await openDatabase(path);
    try {
      const days = () =>
        db.reader.all(
          `SELECT day, channel, views, signups, confirmed, referred, credits, admitted
             FROM daily_counts WHERE waitlist_id = 'wl_1' ORDER BY day, channel`,
        );
      const counted = [
        {
          day: 20000,
          channel: 'direct',
          views: 0,
          signups: 1,
          confirmed: 0,
          referred: 0,
          credits: 0,
          admitted: 0,
        },
        {
          day: 20000,
          channel: 'referral',
          views: 0,
          signups: 1,
          confirmed: 0,
          referred: 1,
          credits: 0,
          admitted: 0,
        },
        {
          day: 20001,
          channel: 'ads',
          views: 0,
          signups: 1,
          confirmed: 0,
          referred: 0,
          credits: 0,
          admitted: 0,
        },
        {
          day: 20001,
          channel: 'direct',
          views: 0,
          signups: 0,
          confirmed: 1,
          referred: 0,
          credits: 0,
          admitted: 0,
        },
        {
          day: 20002,
          channel: 'direct',
          views: 0,
          signups: 0,
          confirmed: 0,
          referred: 0,
          credits: 0,
          admitted: 1,
        },
        {
          day: 20003,
          channel: 'referral',
          views: 0,
          signups: 0,
          confirmed: 1,
          referred: 0,
          credits: 1,
          admitted: 0,
        },
      ];
      expect(await days()).toEqual(counted);
      // The triggers it adds count nothing for an erasure.
      await db.writer.submit((tx) => erase(tx, sqlite, 'wl_1', 'sub_3'));
      expect(await days()).toEqual(counted);
    } finally {
      await db.close();
    }
  });
});
