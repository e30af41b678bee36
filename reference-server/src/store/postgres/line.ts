/**
 * PostgreSQL's `LineEngine` (../statements/line.ts): the line's size, kept on the waitlist's row,
 * the counts positions are computed from (the same counts as SQLite's, in one statement of one
 * text), and search through the trigram GIN index (docs/subscribers.md#positions, docs/subscribers.md#lifecycle). The maths is
 * domain/positions.ts; this file only counts.
 */
import { SubscriberStatus } from '@waitlistkit/protocol';
import { nonReferrerPosition, referrerPosition } from '../../domain/positions.js';
import type { ListPage, PageQuery } from '../../domain/records.js';
import { searchText } from '../../domain/search.js';
import type { WaitlistSettings } from '../../domain/settings.js';
import { countsAtMostEach } from '../range-counts.js';
import { type LineEngine, PREFIX, prefixRows, tiedBefore } from '../statements/line.js';
import {
  LINE_COLUMNS,
  LINE_ORDER,
  type LineRow,
  type LineSize,
  listed,
  type Ranks,
} from '../statements/line-rows.js';
import type { Connection } from './connection.js';
import { postgres } from './dialect.js';
import { insertOrMatchSubscriber } from './subscribers.js';
import { trigramPatterns, trigramSample } from './trigrams.js';

/** The line's size, from the waitlist's counters (its last_seq advanced by every sign-up). */
export async function lineSize(db: Connection, waitlistId: string): Promise<LineSize> {
  const row = await db.get<LineSize>(
    `SELECT last_seq AS joined, admitted_count + erased_count AS removed, admitted_count AS admitted
       FROM waitlists WHERE id = ?`,
    [waitlistId],
  );
  return { joined: row?.joined ?? 0, removed: row?.removed ?? 0, admitted: row?.admitted ?? 0 };
}

const KINDS = Object.keys(PREFIX) as (keyof typeof PREFIX)[];

/**
 * For each threshold t, how many rows of each kind have their column at most t (see
 * ../range-counts.ts): one statement, one round trip, a row per range with a count of each kind.
 * One statement of the same text whatever the number of ranges: as a subquery per range
 * (SQLite's countEach) PostgreSQL took longer to plan it (about 5 ms for a page of 25 at 1M
 * subscribers) than to run it.
 */
function prefixCounts(
  db: Connection,
  waitlistId: string,
  thresholds: readonly number[],
): Promise<Record<keyof typeof PREFIX, (t: number) => number>> {
  const counts = KINDS.map((kind) => {
    const { column } = PREFIX[kind];
    return `(SELECT count(*) FROM ${prefixRows(postgres, kind)} AND ${column} > r.lo AND ${column} <= r.hi) AS ${kind}`;
  });
  return countsAtMostEach(thresholds, KINDS, (ranges) =>
    db.all<Record<keyof typeof PREFIX, number>>(
      `SELECT ${counts.join(', ')}
         FROM unnest(?2::bigint[], ?3::bigint[]) WITH ORDINALITY AS r (lo, hi, i) ORDER BY r.i`,
      [waitlistId, ranges.map((r) => r.after), ranges.map((r) => r.upTo)],
    ),
  );
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
  const { rank, displaced, erased } = await prefixCounts(db, waitlistId, thresholds);
  const counts = { rankAtMost: rank, seqAtMost: (t: number) => displaced(t) + erased(t) };
  const referrers = rows.filter((r) => r.referral_count > 0);
  const ties = referrers.length === 0 ? [] : await tiesOf(db, waitlistId, referrers);
  let referrer = 0;
  return rows.map((row) =>
    row.referral_count === 0
      ? nonReferrerPosition(row.seq, counts)
      : referrerPosition(row.rank_key, counts, ties[referrer++] ?? 0),
  );
}

/**
 * Each referrer's ties (../statements/line.ts TIES, for many) in one statement: a round trip each was
 * most of what a boost added to a search (25 referrers on its page, 7 ms at 1M).
 */
async function tiesOf(db: Connection, waitlistId: string, referrers: readonly Ranks[]): Promise<number[]> {
  const rows = await db.all<{ n: number }>(
    `SELECT (SELECT count(*) FROM ${prefixRows(postgres, 'rank')}
              AND ${tiedBefore('r.rank_key', 'r.referrals', 'r.seq')}) AS n
       FROM unnest(?2::bigint[], ?3::bigint[], ?4::bigint[]) WITH ORDINALITY AS r (rank_key, referrals, seq, i)
      ORDER BY r.i`,
    [
      waitlistId,
      referrers.map((r) => r.rank_key),
      referrers.map((r) => r.referral_count),
      referrers.map((r) => r.seq),
    ],
  );
  return rows.map((row) => row.n);
}

/** `text` as a LIKE pattern matching itself only: the wildcards and the escape character escaped. */
const literal = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The rows that `q` matches: those of the waitlist whose search text contains the needle ($2) as
 * it is, found through the trigram index by the LIKE patterns given (trigrams.ts), numbered from
 * $`first`.
 */
function searchMatches(filter: string, patterns: readonly string[], first: number): string {
  const likes = patterns.map((_, i) => `email_search LIKE $${first + i}`).join(' AND ');
  return `waitlist_id = $1 AND ${filter} AND ${likes} AND strpos(email_search, $2) > 0`;
}

/**
 * A literal substring of the email's search text, found through the trigram index, with an
 * exact total: the hits' narrow columns first, then the page's rows whole.
 */
async function search(
  db: Connection,
  waitlistId: string,
  settings: WaitlistSettings,
  query: PageQuery,
  offset: number,
): Promise<ListPage> {
  const needle = searchText(query.q);
  // A needle with no trigram the index can be asked for as it is gives its whole self as the
  // pattern (`%`, `_` and `\\` escaped), and pg_trgm takes what it can from it.
  const patterns = trigramPatterns(needle, await trigramSample(db)) ?? [`%${literal(needle)}%`];
  const [filter, order] =
    query.status === SubscriberStatus.admitted
      ? ['admitted_us IS NOT NULL', 'ORDER BY admitted_us DESC']
      : ['admitted_us IS NULL', LINE_ORDER];
  // Every hit is read anyway (the exact total, and the order over all of them), so the hits are
  // found on their own first: through the trigram index, then sorted. Written as one query,
  // PostgreSQL 15 costs the window's count as if LIMIT could stop it early, and prefers walking
  // the whole line in order through subscribers_line, filtering each row: at 1M subscribers a
  // needle of 8,000 hits took 300-450 ms that way, about 60 ms this way (issue 16, item 5).
  const hits = await db.all<Ranks & { id: string; total: number }>(
    `WITH hits AS MATERIALIZED (
       SELECT id, seq, rank_key, referral_count, admitted_us FROM subscribers
        WHERE ${searchMatches(filter, patterns, 5)})
     SELECT id, seq, rank_key, referral_count, count(*) OVER () AS total FROM hits ${order} LIMIT $3 OFFSET $4`,
    [waitlistId, needle, query.limit, offset, ...patterns],
  );
  if (hits.length === 0) {
    // No row at all on page 1 means no match; past it, the count needs its own pass.
    if (offset === 0) return { items: [], total: 0 };
    const total =
      (
        await db.get<{ n: number }>(
          `SELECT count(*) AS n FROM subscribers WHERE ${searchMatches(filter, patterns, 3)}`,
          [waitlistId, needle, ...patterns],
        )
      )?.n ?? 0;
    return { items: [], total };
  }
  const rows = await db.all<LineRow>(`SELECT ${LINE_COLUMNS} FROM subscribers WHERE id = ANY($1::text[])`, [
    hits.map((h) => h.id),
  ]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const positions =
    query.status === SubscriberStatus.admitted
      ? hits.map(() => null)
      : await positionsOf(db, waitlistId, hits, settings.referral_boost);
  return {
    items: hits.map((hit, i) => listed(byId.get(hit.id) as LineRow, positions[i] ?? null, settings)),
    total: (hits[0] as { total: number }).total,
  };
}

/** What PostgreSQL does its own way with the line (see ../statements/line.ts). */
export const postgresLine: LineEngine<Connection> = {
  signUp: insertOrMatchSubscriber,
  size: lineSize,
  positionsOf,
  search,
};
