/**
 * seed.ts's waitlist on PostgreSQL: the same subscribers (`subscriberRows`, the same seed makes
 * the same people, referrals and join times as on SQLite), loaded in one transaction in batches
 * of 10,000 rows, each one `INSERT … SELECT … FROM unnest(…)` of column arrays (one round trip per
 * batch). The schema is the server's own (its command line created the tenant and waitlist on
 * the empty database, which ran its migrations).
 *
 * What SQLite reads off the rows, PostgreSQL keeps on the waitlist's row (see the store's
 * migrations): `last_seq` and `last_joined_us` are set to the last subscriber's, as its sign-up
 * would have left them; `admitted_count` and `erased_count` keep their 0, as everyone is seeded
 * waiting. The table's indexes and keys are dropped for the load and made again after it (from
 * PostgreSQL's own definitions of them: see dropIndexes), so foreign keys are checked once, when
 * they are added back, not row by row (the session's triggers are off meanwhile, as the SQLite
 * seeder turns `foreign_keys` off). With the triggers off, the day counts they keep
 * (docs/insights.md#stats) are made once from the loaded rows, as the migration that made the
 * table counted existing rows, so they agree with the rows as on SQLite. Then
 * `VACUUM ANALYZE`, which autovacuum would run shortly after such a load anyway: statistics for
 * the planner and a visibility map for index-only counts.
 */
import { type PgClient, withClient } from './postgres.js';
import { type SeedFacts, SUBSCRIBER_COLUMNS, subscriberRows } from './seed.js';

const BATCH = 10_000;
const TYPES: Record<(typeof SUBSCRIBER_COLUMNS)[number], string> = {
  id: 'text',
  seq: 'bigint',
  email: 'text',
  email_norm: 'text',
  email_search: 'text',
  referral_code: 'text',
  status_token: 'text',
  referred_by: 'text',
  referral_count: 'bigint',
  rank_key: 'bigint',
  joined_us: 'bigint',
  credited: 'boolean',
  fields: 'text',
  source: 'text',
  source_channel: 'text',
};

const INSERT = `INSERT INTO subscribers (waitlist_id, ${SUBSCRIBER_COLUMNS.join(', ')})
  SELECT $1, * FROM unnest(${SUBSCRIBER_COLUMNS.map((c, i) => `$${i + 2}::${TYPES[c]}[]`).join(', ')})`;

/**
 * The day counts of the seeded rows, as the daily_signup trigger would have left them: a sign-up
 * on its day under its channel (`referral` when credited), counting a credit there too. Seeded
 * rows are never confirmed nor admitted.
 */
const DAY_COUNTS = `INSERT INTO daily_counts (waitlist_id, day, channel, signups, referred, credits)
  SELECT waitlist_id, joined_us / 86400000000,
         CASE WHEN credited THEN 'referral' ELSE coalesce(source_channel, 'direct') END,
         count(*), count(*) FILTER (WHERE credited), count(*) FILTER (WHERE credited)
    FROM subscribers WHERE waitlist_id = $1 GROUP BY 1, 2, 3`;

/**
 * Drops the indexes of `subscribers` and the constraints they back (unique keys, the primary key,
 * and the foreign keys that need them), inside the caller's transaction; resolves to a function
 * that makes them again from the definitions PostgreSQL printed for them, the same names and
 * columns as the migrations made (a foreign key made again checks every row once). Building an
 * index over a million rows at once is many times faster than growing it row by row.
 */
async function dropIndexes(client: PgClient): Promise<() => Promise<void>> {
  const { rows: constraints } = await client.query<{ conname: string; owner: string; def: string }>(
    `SELECT conname, conrelid::regclass::text AS owner, contype, pg_get_constraintdef(oid) AS def
       FROM pg_constraint
      WHERE contype IN ('p', 'u', 'f')
        AND (conrelid = 'subscribers'::regclass OR confrelid = 'subscribers'::regclass)
      ORDER BY contype = 'f' DESC`,
  );
  const { rows: indexes } = await client.query<{ name: string; def: string }>(
    `SELECT indexrelid::regclass::text AS name, pg_get_indexdef(indexrelid) AS def FROM pg_index
      WHERE indrelid = 'subscribers'::regclass
        AND indexrelid NOT IN (SELECT conindid FROM pg_constraint WHERE contype IN ('p', 'u'))`,
  );
  const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
  for (const c of constraints)
    await client.query(`ALTER TABLE ${c.owner} DROP CONSTRAINT ${quote(c.conname)}`);
  for (const i of indexes) await client.query(`DROP INDEX ${i.name}`);
  return async () => {
    for (const i of indexes) await client.query(i.def);
    // Keys first, then the foreign keys that refer to them.
    for (const c of [...constraints].reverse()) {
      await client.query(`ALTER TABLE ${c.owner} ADD CONSTRAINT ${quote(c.conname)} ${c.def}`);
    }
  };
}

/**
 * Seeds `n` subscribers into `waitlistId` of the database at `url` (none there yet), with
 * seed.ts's STORED_EXTRAS when `extras`; returns seed.ts's facts.
 */
export async function seedSubscribersPg(
  url: string,
  waitlistId: string,
  n: number,
  { extras = false, launch = false } = {},
): Promise<SeedFacts> {
  return withClient(url, async (client) => {
    const existing = await client.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM subscribers WHERE waitlist_id = $1',
      [waitlistId],
    );
    if (existing.rows[0]?.n !== 0) throw new Error(`waitlist ${waitlistId} already has subscribers`);
    const { rows, facts } = subscriberRows(n, { extras, launch });
    await client.query('BEGIN');
    try {
      await client.query('SET LOCAL synchronous_commit = off');
      await client.query('SET LOCAL session_replication_role = replica');
      const rebuild = await dropIndexes(client);
      // PostgreSQL inserts a batch while the next one is made here: one waits for the other only
      // when it is ahead.
      const columns = () => SUBSCRIBER_COLUMNS.map((): unknown[] => []);
      let batch = columns();
      let inserting: Promise<unknown> = Promise.resolve();
      const flush = async () => {
        await inserting;
        if (batch[0]?.length) {
          inserting = client.query(INSERT, [waitlistId, ...batch]);
          // Awaited at the next flush; until then its failure is not unhandled.
          inserting.catch(() => undefined);
        }
        batch = columns();
      };
      for (const row of rows) {
        for (const [c, value] of row.entries()) batch[c]?.push(value);
        if (batch[0]?.length === BATCH) await flush();
      }
      await flush();
      await inserting;
      await rebuild();
      const updated = await client.query(
        'UPDATE waitlists SET last_seq = $2, last_joined_us = $3 WHERE id = $1',
        [waitlistId, n, facts.lastJoinedUs],
      );
      if (updated.rowCount !== 1) throw new Error(`waitlist ${waitlistId} not found`);
      await client.query(DAY_COUNTS, [waitlistId]);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
    await client.query('VACUUM ANALYZE subscribers, waitlists');
    return facts;
  });
}

/**
 * Positions of `ids` by sorting the whole line in SQL (seed.ts's `positionsBySorting`, on
 * PostgreSQL): the order of docs/subscribers.md#positions over the waiting subscribers.
 */
export function positionsBySortingPg(
  url: string,
  waitlistId: string,
  ids: readonly string[],
): Promise<Map<string, number>> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<{ id: string; position: number }>(
      `SELECT id, position::int FROM (
         SELECT id, row_number() OVER (ORDER BY rank_key, referral_count DESC, seq) AS position
           FROM subscribers WHERE waitlist_id = $1 AND admitted_us IS NULL) line
        WHERE id = ANY ($2::text[])`,
      [waitlistId, ids],
    );
    return new Map(rows.map((r) => [r.id, r.position]));
  });
}
