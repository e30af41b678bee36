/**
 * PostgreSQL's schema steps that change stored data, run on a database written by the older
 * schema (the `server-pg` project only: vitest.config.ts, POSTGRES_ONLY).
 */
import { tempDir } from '@waitlistkit/testkit';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgresStore } from '../src/store/postgres/index.js';
import { MIGRATIONS } from '../src/store/postgres/migrations.js';
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
