/**
 * PostgreSQL's schema steps that change stored data, run on a database written by the older
 * schema (the SQLite ones are in migrations.test.ts).
 */
import { tempDir } from '@waitlistkit/testkit';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS, migrate } from '../src/store/postgres/migrations.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

describe('the migration that gives deliveries their subscriber', () => {
  it('fills it for the deliveries already written, so erasure finds them by index', async () => {
    const pool = new pg.Pool({ connectionString: tmp.db, max: 2 });
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
