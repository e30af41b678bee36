/**
 * Reading the line, as the SQLite adapter's line.ts does and with the same counts: pages in
 * position order, search, one subscriber, the status page, with positions computed when asked
 * (contract §7, §12). The maths is domain/positions.ts; this file only counts.
 *
 * The one difference is search: a literal substring of the email's search text, found through
 * the trigram index (`LIKE` with `%`, `_` and `\` escaped, which the index understands), with an
 * exact total.
 */
import { SubscriberStatus } from '@waitlistkit/protocol';
import { nonReferrerPosition, referrerPosition } from '../../domain/positions.js';
import type { ListedSubscriber, ListPage, PageQuery, StatusView } from '../../domain/records.js';
import { searchText } from '../../domain/search.js';
import { settingsFromJson, type WaitlistSettings } from '../../domain/settings.js';
import {
  LINE_COLUMNS,
  LINE_ORDER,
  type LineRow,
  type LineSize,
  listed,
  listedInOrder,
  type Ranks,
  STATUS_COLUMNS,
  type StatusRow,
  statusView,
} from '../line-rows.js';
import { countsAtMost } from '../range-counts.js';
import type { Connection } from './connection.js';

async function lineSize(db: Connection, waitlistId: string): Promise<LineSize> {
  const row = await db.get<LineSize>(
    'SELECT last_seq AS joined, admitted_count + erased_count AS removed FROM waitlists WHERE id = $1',
    [waitlistId],
  );
  return { joined: row?.joined ?? 0, removed: row?.removed ?? 0 };
}

/** For each threshold t, how many rows of `kind` have their column at most t (see ../range-counts.ts). */
const PREFIX = {
  // Waiting referrers, by rank key.
  rank: { from: 'subscribers', where: 'referral_count > 0 AND admitted_us IS NULL', column: 'rank_key' },
  // Rows out of join order, by seq: referrers and admitted.
  displaced: { from: 'subscribers', where: '(referral_count > 0 OR admitted_us IS NOT NULL)', column: 'seq' },
  // Erased rows, by seq.
  erased: { from: 'erased_seqs', where: 'true', column: 'seq' },
} as const;

function prefixCounts(
  db: Connection,
  waitlistId: string,
  kind: keyof typeof PREFIX,
  thresholds: readonly number[],
): Promise<(t: number) => number> {
  const { from, where, column } = PREFIX[kind];
  // One statement of the same text whatever the number of ranges: as a subquery per range (the
  // SQLite adapter's countEach) PostgreSQL took longer to plan it (about 5 ms for a page of 25 at
  // 1M subscribers) than to run it.
  return countsAtMost(thresholds, async (ranges) => {
    const rows = await db.all<{ n: number }>(
      `SELECT (SELECT count(*) FROM ${from}
                WHERE waitlist_id = $1 AND ${where} AND ${column} > r.lo AND ${column} <= r.hi) AS n
         FROM unnest($2::bigint[], $3::bigint[]) WITH ORDINALITY AS r (lo, hi, i) ORDER BY r.i`,
      [waitlistId, ranges.map((r) => r.after), ranges.map((r) => r.upTo)],
    );
    return rows.map((row) => row.n);
  });
}

/** Positions in the line of waiting rows read out of rank order (see domain/positions). */
export async function positionsOf(
  db: Connection,
  waitlistId: string,
  rows: readonly Ranks[],
  boost: number,
  size?: LineSize,
): Promise<number[]> {
  if (rows.length === 0) return [];
  const { removed } = size ?? (await lineSize(db, waitlistId));
  if (boost === 0 && removed === 0) return rows.map((r) => r.seq);
  const thresholds = rows.map((r) => (r.referral_count === 0 ? r.seq : r.rank_key - 1));
  const rankAtMost = await prefixCounts(db, waitlistId, 'rank', thresholds);
  const displaced = await prefixCounts(db, waitlistId, 'displaced', thresholds);
  const erased = await prefixCounts(db, waitlistId, 'erased', thresholds);
  const counts = { rankAtMost, seqAtMost: (t: number) => displaced(t) + erased(t) };
  const positions: number[] = [];
  for (const row of rows) {
    if (row.referral_count === 0) {
      positions.push(nonReferrerPosition(row.seq, counts));
      continue;
    }
    const ties = await db.get<{ n: number }>(
      `SELECT count(*) AS n FROM subscribers
        WHERE waitlist_id = $1 AND referral_count > 0 AND admitted_us IS NULL AND rank_key = $2
          AND (referral_count > $3 OR (referral_count = $3 AND seq < $4))`,
      [waitlistId, row.rank_key, row.referral_count, row.seq],
    );
    positions.push(referrerPosition(row.rank_key, counts, ties?.n ?? 0));
  }
  return positions;
}

/**
 * A page of the waitlist: the line in position order (`waiting`), or those let in, newest
 * admission first (`admitted`); optionally filtered by a literal substring of the email.
 */
export async function listSubscribers(
  db: Connection,
  waitlistId: string,
  settings: WaitlistSettings,
  query: PageQuery,
): Promise<ListPage> {
  const offset = (query.page - 1) * query.limit;
  const boost = settings.referral_boost;
  if (query.q !== '') return search(db, waitlistId, settings, query, offset);
  if (query.status === SubscriberStatus.admitted) {
    const total =
      (await db.get<{ n: number }>('SELECT admitted_count AS n FROM waitlists WHERE id = $1', [waitlistId]))
        ?.n ?? 0;
    if (offset >= total) return { items: [], total };
    const rows = await db.all<LineRow>(
      `SELECT ${LINE_COLUMNS} FROM subscribers
        WHERE waitlist_id = $1 AND admitted_us IS NOT NULL ORDER BY admitted_us DESC LIMIT $2 OFFSET $3`,
      [waitlistId, query.limit, offset],
    );
    return { items: rows.map((row) => listed(row, null, settings)), total };
  }
  const size = await lineSize(db, waitlistId);
  const total = size.joined - size.removed;
  if (offset >= total) return { items: [], total };
  // With no boost and nobody out of the line, rank keys are exactly 1..n: a deep page is a seek.
  const rows =
    boost === 0 && size.removed === 0
      ? await db.all<LineRow>(
          `SELECT ${LINE_COLUMNS} FROM subscribers
            WHERE waitlist_id = $1 AND admitted_us IS NULL AND rank_key > $2 ${LINE_ORDER} LIMIT $3`,
          [waitlistId, offset, query.limit],
        )
      : await db.all<LineRow>(
          `SELECT ${LINE_COLUMNS} FROM subscribers
            WHERE waitlist_id = $1 AND admitted_us IS NULL ${LINE_ORDER} LIMIT $2 OFFSET $3`,
          [waitlistId, query.limit, offset],
        );
  return { items: rows.map((row, i) => listed(row, offset + i + 1, settings)), total };
}

/** `text` as a LIKE pattern matching itself only: the wildcards and the escape character escaped. */
const literal = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

async function search(
  db: Connection,
  waitlistId: string,
  settings: WaitlistSettings,
  query: PageQuery,
  offset: number,
): Promise<ListPage> {
  const pattern = `%${literal(searchText(query.q))}%`;
  const [filter, order] =
    query.status === SubscriberStatus.admitted
      ? ['admitted_us IS NOT NULL', 'ORDER BY admitted_us DESC']
      : ['admitted_us IS NULL', LINE_ORDER];
  // Every hit is read anyway (the exact total, and the order over all of them), so the hits are
  // found on their own first: through the trigram index, then sorted. Written as one query,
  // PostgreSQL 15 costs the window's count as if LIMIT could stop it early, and prefers walking
  // the whole line in order through subscribers_line, filtering each row: at 1M subscribers a
  // needle of 8,000 hits took 300-450 ms that way, about 60 ms this way (issue 16, item 5).
  const hits = await db.all<LineRow & { total: number }>(
    `WITH hits AS MATERIALIZED (
       SELECT ${LINE_COLUMNS} FROM subscribers
        WHERE waitlist_id = $1 AND ${filter} AND email_search LIKE $2)
     SELECT *, count(*) OVER () AS total FROM hits ${order} LIMIT $3 OFFSET $4`,
    [waitlistId, pattern, query.limit, offset],
  );
  if (hits.length === 0) {
    // No row at all on page 1 means no match; past it, the count needs its own pass.
    if (offset === 0) return { items: [], total: 0 };
    const total =
      (
        await db.get<{ n: number }>(
          `SELECT count(*) AS n FROM subscribers WHERE waitlist_id = $1 AND ${filter} AND email_search LIKE $2`,
          [waitlistId, pattern],
        )
      )?.n ?? 0;
    return { items: [], total };
  }
  const positions =
    query.status === SubscriberStatus.admitted
      ? hits.map(() => null)
      : await positionsOf(db, waitlistId, hits, settings.referral_boost);
  return {
    items: hits.map((hit, i) => listed(hit, positions[i] ?? null, settings)),
    total: (hits[0] as { total: number }).total,
  };
}

/** One subscriber of the waitlist, with its position when waiting. */
export async function getSubscriber(
  db: Connection,
  waitlistId: string,
  settings: WaitlistSettings,
  id: string,
): Promise<ListedSubscriber | undefined> {
  const row = await db.get<LineRow>(
    `SELECT ${LINE_COLUMNS} FROM subscribers WHERE id = $1 AND waitlist_id = $2`,
    [id, waitlistId],
  );
  if (!row) return undefined;
  const position =
    row.admitted_us === null
      ? ((await positionsOf(db, waitlistId, [row], settings.referral_boost))[0] ?? null)
      : null;
  return listed(row, position, settings);
}

export async function findByStatusToken(db: Connection, token: string): Promise<StatusView | undefined> {
  const row = await db.get<StatusRow>(
    `SELECT ${STATUS_COLUMNS}
       FROM subscribers s JOIN waitlists w ON w.id = s.waitlist_id WHERE s.status_token = $1`,
    [token],
  );
  if (!row) return undefined;
  const settings = settingsFromJson(row.settings);
  const size = await lineSize(db, row.waitlist_id);
  const position =
    row.admitted_us === null
      ? ((await positionsOf(db, row.waitlist_id, [row], settings.referral_boost, size))[0] ?? null)
      : null;
  return statusView(row, settings, size, position);
}

/** These subscribers of the waitlist, in the order given (missing ids left out). */
export async function subscribersByIds(
  db: Connection,
  waitlistId: string,
  settings: WaitlistSettings,
  ids: readonly string[],
): Promise<ListedSubscriber[]> {
  const rows = await db.all<LineRow>(
    `SELECT ${LINE_COLUMNS} FROM subscribers WHERE waitlist_id = $1 AND id = ANY ($2::text[])`,
    [waitlistId, ids],
  );
  return listedInOrder(ids, rows, settings, (waiting) =>
    positionsOf(db, waitlistId, waiting, settings.referral_boost),
  );
}

/** The id of the subscriber with this normalised email on the waitlist. */
export async function idByEmail(
  db: Connection,
  waitlistId: string,
  emailNorm: string,
): Promise<string | undefined> {
  const row = await db.get<{ id: string }>(
    'SELECT id FROM subscribers WHERE waitlist_id = $1 AND email_norm = $2',
    [waitlistId, emailNorm],
  );
  return row?.id;
}
