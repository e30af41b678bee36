/** Schema steps that change stored data, run on a real SQLite file written by the older schema. */
import { SubscriberStatus } from '@waitlistkit/protocol';
import { tempDir } from '@waitlistkit/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../src/domain/settings.js';
import { Connection } from '../src/store/sqlite/connection.js';
import { openDatabase } from '../src/store/sqlite/database.js';
import { erase } from '../src/store/sqlite/lifecycle.js';
import { listSubscribers } from '../src/store/sqlite/line.js';
import { MIGRATIONS } from '../src/store/sqlite/migrations.js';
import { insertOrMatchSubscriber } from '../src/store/sqlite/subscribers.js';

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
        await erase(tx, 'wl_1', 'sub_42');
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
      await db.writer.submit((tx) => erase(tx, 'wl_1', 'sub_2'));
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
