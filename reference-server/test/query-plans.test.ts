/**
 * Query plans that the sizes of BENCHMARKS.md item 5 depend on, read with EXPLAIN QUERY PLAN on
 * the migrated schema: a statement that finds rows by a list of ids looks them up by primary key,
 * and never walks a whole waitlist through an index that starts with waitlist_id (at 1M
 * subscribers that walk made an admission of 1,000 take most of a second); a search asks the
 * trigram index and reads only its candidates; the total of the channel filter's `direct` counts
 * the other channels' index entries only; the outbox's claim, erasure and pruning go by index;
 * the dashboard reads top referrers and whom one referred as ranges of their indexes.
 */
import { SubscriberStatus } from '@waitlistkit/protocol';
import { tempDir } from '@waitlistkit/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../src/domain/settings.js';
import type { Connection } from '../src/store/sqlite/connection.js';
import { openDatabase } from '../src/store/sqlite/database.js';
import { sqlite } from '../src/store/sqlite/dialect.js';
import { listSubscribers, SEARCH_FROM, searchPage } from '../src/store/sqlite/line.js';
import { OTHER_CHANNELS } from '../src/store/statements/channel-page.js';
import * as idempotency from '../src/store/statements/idempotency.js';
import * as lifecycle from '../src/store/statements/lifecycle.js';
import * as line from '../src/store/statements/line.js';
import * as outbox from '../src/store/statements/outbox.js';

// The shared statements as SQLite runs them.
const ANSWERS_NAMING = idempotency.ANSWERS_NAMING(sqlite);
const WAITING_BY_IDS = lifecycle.WAITING_BY_IDS(sqlite);
const SUBSCRIBERS_BY_IDS = line.SUBSCRIBERS_BY_IDS(sqlite);
const DUE_DELIVERIES = sqlite.dueDeliveries;
const CLAIM_DELIVERIES = outbox.CLAIM_DELIVERIES(sqlite);
const { FORGET_ATTEMPTS, FORGET_DELIVERIES, FORGET_EVENTS, PRUNE_DELIVERIES } = outbox;
const PRUNE_ATTEMPTS = outbox.PRUNE_ATTEMPTS(sqlite);
const PRUNE_EVENTS = outbox.PRUNE_EVENTS(sqlite);

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

describe("the channel filter's direct total", () => {
  it('counts the rows of the other channels in their own indexes alone, waiting and admitted', async () => {
    for (const admitted of [false, true]) {
      const details = await plan(OTHER_CHANNELS(sqlite, admitted), ['wl_1']);
      expect(
        details.filter((d) => /USING COVERING INDEX subscribers_(credited|channel) /.test(d)),
      ).toHaveLength(2);
      expect(details.filter((d) => /SCAN subscribers\b|USING INDEX/.test(d))).toEqual([]);
    }
  });
});

describe('an erasure in the kept answers', () => {
  it('finds the answers naming the erased through the index of names, not by reading every answer', async () => {
    const details = await plan(ANSWERS_NAMING, ['sub_1']);
    expect(details.some((d) => d.includes('USING COVERING INDEX idempotency_names_subscriber'))).toBe(true);
    expect(details.some((d) => /SEARCH i USING PRIMARY KEY \(key_id=\? AND idem_key=\?\)/.test(d))).toBe(
      true,
    );
    expect(details.filter((d) => /SCAN/.test(d))).toEqual([]);
  });
});

describe('the outbox claim', () => {
  it('reads the first due deliveries of each live destination by index, never the whole backlog', async () => {
    const details = await plan(DUE_DELIVERIES, [0, '{"mail":1}', 4]);
    expect(details.some((d) => d.includes('USING INDEX deliveries_pending'))).toBe(true);
    expect(details.filter((d) => /SCAN d\b|SCAN deliveries\b/.test(d))).toEqual([]);
  });

  it('takes the chosen deliveries by primary key', async () => {
    const details = await plan(CLAIM_DELIVERIES, ['["dlv_1"]', 0, 1000]);
    expect(
      details.some((d) => /SEARCH deliveries USING INDEX sqlite_autoindex_deliveries_1 \(id=\?\)/.test(d)),
    ).toBe(true);
    expect(details.filter((d) => /SCAN deliveries\b/.test(d))).toEqual([]);
  });
});

describe("the outbox's erasure and pruning", () => {
  it("finds an erased person's deliveries, their attempts and events by index, never by reading bodies", async () => {
    const statements = [
      [
        FORGET_ATTEMPTS,
        ['deliveries_subscriber (subscriber_id=?)', 'delivery_attempts_delivery (delivery_id=?)'],
      ],
      [FORGET_DELIVERIES, ['deliveries_subscriber (subscriber_id=?)']],
      [FORGET_EVENTS, ['events_subject (subject_id=?)']],
    ] as const;
    for (const [sql, indexes] of statements) {
      const details = await plan(sql, ['sub_1']);
      for (const index of indexes) expect(details.join('; '), sql).toContain(index);
      expect(details.filter((d) => /SCAN /.test(d))).toEqual([]);
    }
  });

  it('finds the oldest finished deliveries, their attempts and sent events by index', async () => {
    const statements = [
      [PRUNE_DELIVERIES, [0, 500], 'deliveries_finished (next_at<?)'],
      [PRUNE_ATTEMPTS, ['["dlv_1"]'], 'delivery_attempts_delivery (delivery_id=?)'],
      [PRUNE_EVENTS, [0, 500], 'events_dispatched (at<?)'],
    ] as const;
    for (const [sql, params, index] of statements) {
      const details = await plan(sql, [...params]);
      expect(details.join('; '), sql).toContain(index);
      expect(details.filter((d) => /SCAN (?!json_each)/.test(d) || /TEMP B-TREE/.test(d))).toEqual([]);
    }
  });
});

const STATUSES = ['waiting', 'admitted'] as const;

/**
 * Statistics as ANALYZE would write them for one waitlist of 1M subscribers: what the planner
 * weighs a join order by. Without them (the server never runs ANALYZE) it guesses.
 */
const MILLION = `
  INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES
    ('subscribers', NULL, '1000000'),
    ('subscribers', 'subscribers_line', '900000 900000 1 1 1'),
    ('subscribers', 'subscribers_search', '1000000 1000000 1 1 1 1 1'),
    ('subscribers', 'subscribers_admitted', '100000 100000 1'),
    ('subscribers', 'sqlite_autoindex_subscribers_1', '1000000 1');
  ANALYZE sqlite_schema;`;

describe('search', () => {
  for (const stats of ['without statistics', 'with statistics of 1M subscribers'] as const) {
    for (const status of STATUSES) {
      it(`reads only the candidates by rowid (${status}, ${stats}); the scan stays on its narrow index`, async () => {
        // A file of its own: the statistics stay there.
        const db = await openDatabase(
          stats === 'without statistics' ? tmp.db : `${tmp.dir}/stats-${status}.db`,
        );
        try {
          if (stats !== 'without statistics') {
            await db.writer.submit(async (tx) => {
              await tx.exec('ANALYZE');
              await tx.exec('DELETE FROM sqlite_stat1');
              await tx.exec(MILLION);
            });
          }
          const explain = async (sql: string) =>
            (
              await db.writer.submit((tx) =>
                tx.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, [
                  'wl_1',
                  '"mar" AND "a.g"',
                  'maria',
                  25,
                  0,
                ]),
              )
            ).map((r) => r.detail);
          const index = await explain(searchPage(SEARCH_FROM.index, status));
          const fts = index.findIndex((d) => /SCAN f VIRTUAL TABLE INDEX \d+:M/.test(d));
          expect(fts).toBeGreaterThanOrEqual(0);
          expect(fts).toBeLessThan(
            index.findIndex((d) => /SEARCH s USING INTEGER PRIMARY KEY \(rowid=\?\)/.test(d)),
          );
          expect(index.filter((d) => /SCAN s\b|USING (COVERING )?INDEX/.test(d))).toEqual([]);
          const scan = await explain(searchPage(SEARCH_FROM.scan, status));
          expect(
            scan.some((d) => /SEARCH s USING COVERING INDEX subscribers_search \(waitlist_id=\?\)/.test(d)),
          ).toBe(true);
        } finally {
          await db.close();
        }
      });
    }
  }

  it('takes the index for a needle with few candidates and the scan for one matching a large share', async () => {
    const db = await openDatabase(tmp.db);
    try {
      // A waitlist of 20,000 (on a database with another of 20,000 alike), written in one statement each.
      await db.writer.submit(async (tx) => {
        await tx.exec(`
          INSERT INTO tenants VALUES ('ten_big', 'T', 'pro', '2026-01-01T00:00:00Z');
          INSERT INTO waitlists (id, tenant_id, name, settings, created_at, updated_at) VALUES
            ('wl_big', 'ten_big', 'Big', '{}', '', ''), ('wl_other', 'ten_big', 'Other', '{}', '', '');`);
        for (const waitlist of ['wl_big', 'wl_other']) {
          await tx.run(
            `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
             INSERT INTO subscribers (id, waitlist_id, seq, email, email_norm, email_search, referral_code,
               status_token, rank_key, joined_us)
             SELECT ?1 || '_' || i, ?1, i, 'user.' || i || '@example.com', 'user.' || i || '@example.com',
                    'user.' || i || '@example.com', ?1 || i, ?1 || 't' || i, i, i FROM n`,
            [waitlist],
          );
        }
      });
      const statements = (q: string) =>
        db.snapshot(async (tx) => {
          const seen: string[] = [];
          const noted =
            <K extends 'get' | 'all' | 'run'>(method: K) =>
            (sql: string, params?: readonly unknown[]) => {
              seen.push(sql);
              return tx[method](sql, params);
            };
          const spy = { get: noted('get'), all: noted('all'), run: noted('run') } as unknown as Connection;
          const page = await listSubscribers(spy, 'wl_big', DEFAULT_SETTINGS, {
            page: 1,
            limit: 25,
            q,
            status: SubscriberStatus.waiting,
          });
          const from = seen.some((sql) => sql.includes(SEARCH_FROM.index))
            ? 'index'
            : seen.some((sql) => sql.includes(SEARCH_FROM.scan))
              ? 'scan'
              : 'neither';
          return { from, total: page.total };
        });
      // 11 rows of this waitlist match, 22 candidates in all: the index.
      expect(await statements('user.1234')).toEqual({ from: 'index', total: 11 });
      // Every row matches: the sample says more candidates than one in 16 rows, so the scan.
      expect(await statements('example')).toEqual({ from: 'scan', total: 20_000 });
      // Two characters have no trigram: the scan.
      expect(await statements('.1')).toEqual({ from: 'scan', total: 11_111 });
    } finally {
      await db.close();
    }
  });
});

describe("the dashboard's reads of referrals", () => {
  it('reads the top referrers in index order', async () => {
    const top = (
      await plan(
        'SELECT id FROM subscribers WHERE waitlist_id = ? AND referral_count > 0 ORDER BY referral_count DESC, seq LIMIT 10',
        ['wl_1'],
      )
    ).join('; ');
    expect(top).toContain('USING INDEX subscribers_top_referrers');
    expect(top).not.toContain('TEMP B-TREE');
  });

  it("reads whom one referred, newest first, and counts them, in one referrer's range of an index", async () => {
    const newest = (
      await plan(
        'SELECT id FROM subscribers WHERE referred_by = ? AND credited = 1 ORDER BY seq DESC LIMIT 20',
        ['sub_1'],
      )
    ).join('; ');
    expect(newest).toContain('USING INDEX subscribers_referred_by (referred_by=? AND credited=?)');
    expect(newest).not.toContain('TEMP B-TREE');
    const counted = (
      await plan('SELECT count(*) FROM subscribers WHERE referred_by = ? AND credited = 1', ['sub_1'])
    ).join('; ');
    expect(counted).toContain('USING COVERING INDEX subscribers_referred_by (referred_by=? AND credited=?)');
  });
});
