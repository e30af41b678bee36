/**
 * Query plans that the sizes of BENCHMARKS.md item 5 depend on, read with EXPLAIN QUERY PLAN on
 * the migrated schema: a statement that finds rows by a list of ids looks them up by primary key,
 * and never walks a whole waitlist through an index that starts with waitlist_id (at 1M
 * subscribers that walk made an admission of 1,000 take most of a second).
 */
import { tempDir } from '@waitlistkit/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/store/sqlite/database.js';
import { WAITING_BY_IDS } from '../src/store/sqlite/lifecycle.js';
import { SUBSCRIBERS_BY_IDS } from '../src/store/sqlite/line.js';
import { CLAIM_DELIVERIES } from '../src/store/sqlite/outbox.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

async function plan(sql: string, params: unknown[]): Promise<string[]> {
  const db = await openDatabase(tmp.db);
  try {
    const rows = await db.reader.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, params);
    return rows.map((r) => r.detail);
  } finally {
    await db.close();
  }
}

describe('statements by a list of ids', () => {
  for (const [name, sql] of [
    ['subscribersByIds (the answer of an admission)', SUBSCRIBERS_BY_IDS],
    ['the waiting among subscriber_ids (an admission by ids)', WAITING_BY_IDS],
  ] as const) {
    it(`${name}: by primary key, not through the waitlist`, async () => {
      const details = await plan(sql, ['wl_1', '["sub_1","sub_2"]']);
      expect(details.some((d) => /INDEX sqlite_autoindex_subscribers_1 \(id=\?\)/.test(d))).toBe(true);
      expect(details.filter((d) => d.includes('waitlist_id=?') || /SCAN subscribers/.test(d))).toEqual([]);
    });
  }
});

describe('the outbox claim', () => {
  it('reads the first due deliveries of each live destination by index, never the whole backlog', async () => {
    const details = await plan(CLAIM_DELIVERIES, [0, 1000, 32, '[]', 4]);
    expect(details.some((d) => d.includes('USING INDEX deliveries_pending'))).toBe(true);
    expect(details.filter((d) => /SCAN d\b|SCAN deliveries\b/.test(d))).toEqual([]);
  });
});

describe("the overview's counts", () => {
  it('reads index ranges only: sign-ups by join time, top referrers in index order', async () => {
    const joined = await plan(
      'SELECT count(*) FROM subscribers WHERE waitlist_id = ? AND joined_us >= ? AND joined_us < ?',
      ['wl_1', 0, 1],
    );
    expect(joined.join('; ')).toContain(
      'USING COVERING INDEX subscribers_joined (waitlist_id=? AND joined_us>? AND joined_us<?)',
    );
    const top = (
      await plan(
        'SELECT id FROM subscribers WHERE waitlist_id = ? AND referral_count > 0 ORDER BY referral_count DESC, seq LIMIT 10',
        ['wl_1'],
      )
    ).join('; ');
    expect(top).toContain('USING INDEX subscribers_top_referrers');
    expect(top).not.toContain('TEMP B-TREE');
  });
});
