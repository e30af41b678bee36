/** Schema steps that change stored data, run on a real SQLite file written by the older schema. */
import { tempDir } from '@waitlistkit/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { Connection } from '../src/store/sqlite/connection.js';
import { openDatabase } from '../src/store/sqlite/database.js';
import { MIGRATIONS } from '../src/store/sqlite/migrations.js';

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
