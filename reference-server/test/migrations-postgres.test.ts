/**
 * PostgreSQL's schema steps that change stored data, run on a database written by the older
 * schema (the `server-pg` project only: vitest.config.ts, POSTGRES_ONLY).
 */
import { tempDir } from '@waitlistkit/testkit';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgresStore } from '../src/store/postgres/index.js';
import { MIGRATIONS, migrate } from '../src/store/postgres/migrations.js';
import { sql } from './database.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

describe('the migration indexing whom kept answers name', () => {
  it('indexes the answers kept before it, and empties a create answer of someone erased before it', async () => {
    const step = MIGRATIONS.findIndex((m) => m.includes('CREATE TABLE idempotency_names'));
    expect(step).toBeGreaterThan(0);
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
    const old = new pg.Client({ connectionString: tmp.db });
    await old.connect();
    try {
      for (const migration of MIGRATIONS.slice(0, step)) await old.query(migration);
      await old.query('CREATE TABLE schema_version (version INTEGER NOT NULL)');
      await old.query('INSERT INTO schema_version VALUES ($1)', [step]);
      await old.query(`
        INSERT INTO tenants VALUES ('ten_1', 'T', 'pro', '2026-01-01T00:00:00Z');
        INSERT INTO waitlists (id, tenant_id, name, settings, created_at, updated_at)
          VALUES ('wl_1', 'ten_1', 'W', '{}', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z');
        INSERT INTO subscribers (id, waitlist_id, seq, email, email_norm, email_search, referral_code,
          status_token, rank_key, joined_us) VALUES
          ('sub_1', 'wl_1', 1, 'a@example.com', 'a@example.com', 'a@example.com', 'AAAAAA', 'tok_1', 1, 1),
          ('sub_2', 'wl_1', 2, 'b@example.com', 'b@example.com', 'b@example.com', 'BBBBBB', 'tok_2', 2, 2);
      `);
      for (const [idemKey, answer] of [
        ['admission', admitted],
        ['create', created('tok_2', 'BBBBBB')],
        ['create-of-erased', created('tok_erased', 'EEEEEE')],
        ['refusal', refused],
        ['running', null],
      ] as const) {
        await old.query(
          `INSERT INTO idempotency (key_id, idem_key, request_hash, state, answer, created_at)
           VALUES ('key_1', $1, 'h', $2, $3, 1)`,
          [idemKey, answer === null ? 'in_progress' : 'done', answer],
        );
      }
    } finally {
      await old.end();
    }

    const store = await openPostgresStore(tmp.db, { nowMicros: () => Date.now() * 1000, connections: 2 });
    try {
      const names = () =>
        sql<{ idem_key: string; subscriber_id: string }>(
          tmp.db,
          'SELECT idem_key, subscriber_id FROM idempotency_names ORDER BY idem_key, subscriber_id',
        );
      const answer = async (idemKey: string) =>
        JSON.parse(
          (
            await sql<{ answer: string }>(tmp.db, 'SELECT answer FROM idempotency WHERE idem_key = ?', [
              idemKey,
            ])
          )[0]?.answer as string,
        );
      expect(await names()).toEqual([
        { idem_key: 'admission', subscriber_id: 'sub_1' },
        { idem_key: 'admission', subscriber_id: 'sub_2' },
        { idem_key: 'create', subscriber_id: 'sub_2' },
      ]);
      expect(await answer('create-of-erased')).toEqual({
        ok: true,
        value: { status: 'accepted', status_token: '', referral_code: '', status_url: '' },
      });
      expect(await answer('refusal')).toEqual(JSON.parse(refused));
      expect(await answer('create')).toEqual(JSON.parse(created('tok_2', 'BBBBBB')));

      // An erasure after it finds them through the index; a forgotten answer takes its names along.
      await store.write((tx) => tx.subscribers.erase('wl_1', 'sub_2'));
      expect((await answer('admission')).value.items).toEqual([{ id: 'sub_1' }]);
      expect((await answer('create')).value).toMatchObject({ status_token: '', referral_code: '' });
      await sql(tmp.db, "DELETE FROM idempotency WHERE idem_key = 'admission'");
      expect(await names()).toEqual([]);
    } finally {
      await store.close();
    }
  });
});

/** Each step is tried on a database of its own, made at the schema before it. */
const fresh = tempDir();
afterAll(() => fresh.cleanup());

describe('the migration that gives deliveries their subscriber', () => {
  it('fills it for the deliveries already written, so erasure finds them by index', async () => {
    const pool = new pg.Pool({ connectionString: fresh.db, max: 2 });
    try {
      const step = MIGRATIONS.findIndex((m) => m.includes('ADD COLUMN subscriber_id'));
      for (const m of MIGRATIONS.slice(0, step)) await pool.query(m);
      await pool.query('CREATE TABLE schema_version (version INTEGER NOT NULL)');
      await pool.query('INSERT INTO schema_version VALUES ($1)', [step]);
      const body = (type: string, data: object) => JSON.stringify({ type, timestamp: '', data });
      await pool.query(`
        INSERT INTO tenants VALUES ('ten_1', 'T', 'pro', '2026-01-01T00:00:00Z');
        INSERT INTO operators VALUES ('op_1', 'ten_1', 'a@x.example', 'a@x.example', 'admin', 'h', '');
        INSERT INTO waitlists (id, tenant_id, name, settings, created_at, updated_at)
          VALUES ('wl_1', 'ten_1', 'W', '{}', '', '');
        INSERT INTO webhook_endpoints (id, tenant_id, url, secret, state, created_at, created_by)
          VALUES ('wh_1', 'ten_1', 'https://h.example', 's', 'active', '', 'op_1');
        INSERT INTO events (seq, message_id, tenant_id, waitlist_id, type, subject_id, data, at, dispatched)
          OVERRIDING SYSTEM VALUE VALUES
          (1, 'msg_1', 'ten_1', 'wl_1', 'subscriber.created', 'sub_new', NULL, 1, true),
          (2, 'msg_2', 'ten_1', 'wl_1', 'referral.credited', 'sub_ref', '{"subscriber_id":"sub_new"}', 1, true),
          (3, 'msg_3', 'ten_1', 'wl_1', 'subscriber.deleted', 'sub_gone', '{"id":"sub_gone"}', 1, true);
      `);
      const delivery = `INSERT INTO deliveries (id, channel, event_seq, endpoint_id, tenant_id, message_id, event_type,
        body, state, attempts, next_at, created_at) VALUES ($1, $2, $3, $4, 'ten_1', $5, $6, $7, 'pending', 0, 1, 1)`;
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
        await pool.query(delivery, row as unknown[]);

      await migrate(pool);
      expect((await pool.query('SELECT version FROM schema_version')).rows).toEqual([
        { version: MIGRATIONS.length },
      ]);
      expect((await pool.query('SELECT id, subscriber_id FROM deliveries ORDER BY id')).rows).toEqual([
        { id: 'dlv_created', subscriber_id: 'sub_new' },
        { id: 'dlv_credited', subscriber_id: 'sub_ref' },
        { id: 'dlv_deleted', subscriber_id: null },
        { id: 'dlv_mail', subscriber_id: 'sub_mail' },
        { id: 'dlv_orphan', subscriber_id: 'sub_adm' },
      ]);
    } finally {
      await pool.end();
    }
  });
});

describe('the migration counting the days', () => {
  const own = tempDir();
  afterAll(() => own.cleanup());

  it('counts the subscribers written before it by the days of their sign-up, confirmation, credit and admission', async () => {
    const step = MIGRATIONS.findIndex((m) => m.includes('CREATE TABLE daily_counts'));
    expect(step).toBeGreaterThan(0);
    const day = (n: number) => n * 86_400_000_000 + 3_600_000_000;
    const old = new pg.Client({ connectionString: own.db });
    await old.connect();
    try {
      for (const migration of MIGRATIONS.slice(0, step)) await old.query(migration);
      await old.query('CREATE TABLE schema_version (version INTEGER NOT NULL)');
      await old.query('INSERT INTO schema_version VALUES ($1)', [step]);
      await old.query(`
        INSERT INTO tenants VALUES ('ten_1', 'T', 'pro', '2026-01-01T00:00:00Z');
        INSERT INTO waitlists (id, tenant_id, name, settings, created_at, updated_at)
          VALUES ('wl_1', 'ten_1', 'W', '{}', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z');
        INSERT INTO subscribers (id, waitlist_id, seq, email, email_norm, email_search, referral_code,
          status_token, rank_key, joined_us, confirmed_us, admitted_us, referred_by, credited, source_channel) VALUES
          ('sub_1', 'wl_1', 1, 'a@example.com', 'a@example.com', 'a@example.com', 'AAAAAA', 'tok_1', 1,
           ${day(20000)}, ${day(20001)}, ${day(20002)}, NULL, false, NULL),
          ('sub_2', 'wl_1', 2, 'b@example.com', 'b@example.com', 'b@example.com', 'BBBBBB', 'tok_2', 2,
           ${day(20000) + 1}, ${day(20003)}, NULL, 'sub_1', true, 'ads'),
          ('sub_3', 'wl_1', 3, 'c@example.com', 'c@example.com', 'c@example.com', 'CCCCCC', 'tok_3', 3,
           ${day(20001)}, NULL, NULL, NULL, false, 'ads');
      `);
    } finally {
      await old.end();
    }

    const store = await openPostgresStore(own.db, { nowMicros: () => Date.now() * 1000, connections: 2 });
    try {
      const days = async () =>
        (
          await sql<Record<string, string | number>>(
            own.db,
            `SELECT day, channel, views, signups, confirmed, referred, credits, admitted
               FROM daily_counts WHERE waitlist_id = 'wl_1' ORDER BY day, channel`,
          )
        ).map((row) => Object.values(row).map(String).join(' '));
      const counted = [
        '20000 direct 0 1 0 0 0 0',
        '20000 referral 0 1 0 1 0 0',
        '20001 ads 0 1 0 0 0 0',
        '20001 direct 0 0 1 0 0 0',
        '20002 direct 0 0 0 0 0 1',
        '20003 referral 0 0 1 0 1 0',
      ];
      expect(await days()).toEqual(counted);
      // The triggers it adds count nothing for an erasure.
      await store.write((tx) => tx.subscribers.erase('wl_1', 'sub_3'));
      expect(await days()).toEqual(counted);
    } finally {
      await store.close();
    }
  });
});
