/**
 * SQLite's `LineEngine` (../statements/line.ts): the line's size read off the rows, the counts
 * positions are computed from, and search through the trigram index (docs/subscribers.md#positions, docs/subscribers.md#lifecycle). The
 * maths is domain/positions.ts; this file only counts.
 */
import { SubscriberStatus } from '@waitlistkit/protocol';
import { nonReferrerPosition, referrerPosition } from '../../domain/positions.js';
import type { ListPage, PageQuery } from '../../domain/records.js';
import { searchText } from '../../domain/search.js';
import type { WaitlistSettings } from '../../domain/settings.js';
import { countEach, countsAtMost } from '../range-counts.js';
import { type LineEngine, listPage, PREFIX, prefixRows, TIES } from '../statements/line.js';
import { LINE_COLUMNS, type LineRow, type LineSize, listed, type Ranks } from '../statements/line-rows.js';
import type { Connection } from './connection.js';
import { sqlite } from './dialect.js';
import { insertOrMatchSubscriber, lastSeq } from './subscribers.js';
import { indexable, trigramQuery, trigramSample } from './trigrams.js';

/** The line's size: how many joined, read off the rows (see subscribers.ts), and the waitlist's counters. */
export async function lineSize(db: Connection, waitlistId: string): Promise<LineSize> {
  const row = await db.get<LineSize>(
    `SELECT ${lastSeq('?1')} AS joined, admitted_count + erased_count AS removed, admitted_count AS admitted
       FROM waitlists WHERE id = ?1`,
    [waitlistId],
  );
  return { joined: row?.joined ?? 0, removed: row?.removed ?? 0, admitted: row?.admitted ?? 0 };
}

/**
 * For each threshold t, how many rows of `kind` have their column at most t: one statement, a
 * subquery per range (see ../range-counts.ts).
 */
function prefixCounts(
  db: Connection,
  waitlistId: string,
  kind: keyof typeof PREFIX,
  thresholds: readonly number[],
): Promise<(t: number) => number> {
  const { column } = PREFIX[kind];
  return countsAtMost(thresholds, (ranges) =>
    countEach(
      db,
      ranges.map(
        (_, i) =>
          `SELECT count(*) FROM ${prefixRows(sqlite, kind)}
             AND ${column} > ?${2 * i + 2} AND ${column} <= ?${2 * i + 3}`,
      ),
      [waitlistId, ...ranges.flatMap((r) => [r.after, r.upTo])],
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
  // Nobody out of join order: the position is the join number.
  if (boost === 0 && removed === 0) return rows.map((r) => r.seq);
  // A non-referrer needs both counts at its seq; a referrer at its rank key minus one.
  const thresholds = rows.map((r) => (r.referral_count === 0 ? r.seq : r.rank_key - 1));
  const [rankAtMost, displaced, erased] = await Promise.all([
    prefixCounts(db, waitlistId, 'rank', thresholds),
    prefixCounts(db, waitlistId, 'displaced', thresholds),
    prefixCounts(db, waitlistId, 'erased', thresholds),
  ]);
  const counts = { rankAtMost, seqAtMost: (t: number) => displaced(t) + erased(t) };
  return Promise.all(
    rows.map(async (row) => {
      if (row.referral_count === 0) return nonReferrerPosition(row.seq, counts);
      const ties = await db.get<{ n: number }>(TIES(sqlite), [
        waitlistId,
        row.rank_key,
        row.referral_count,
        row.seq,
      ]);
      return referrerPosition(row.rank_key, counts, ties?.n ?? 0);
    }),
  );
}

/**
 * A page of the waitlist (see `listPage`), searched through the plan given (the server's is
 * `auto`; tests and benchmarks name one).
 */
export function listSubscribers(
  db: Connection,
  waitlistId: string,
  settings: WaitlistSettings,
  query: PageQuery,
  plan: SearchPlan = 'auto',
): Promise<ListPage> {
  const line: LineEngine<Connection> =
    plan === 'auto'
      ? sqliteLine
      : { ...sqliteLine, search: (tx, id, s, q, offset) => search(tx, id, s, q, offset, plan) };
  return listPage(db, sqlite, line, waitlistId, settings, query);
}

/**
 * How `q` finds its rows. `index`: candidates from the trigram index (subscribers_fts), each then
 * read by rowid and kept only when its search text really contains the needle. `scan`: one pass
 * over the waitlist's narrow search index. `auto` (what the server does): the index, unless the
 * needle is too short for it or the sample (trigrams.ts) says it offers more candidates than one
 * in INDEX_SHARE rows of the waitlist, where reading each candidate costs more than scanning the
 * whole waitlist.
 */
export type SearchPlan = 'auto' | 'index' | 'scan';

/**
 * A scan reads a waitlist's rows from the narrow search index in order, about 0.1 µs each; the
 * index path reads each candidate by rowid from the table, about 1.5 µs each, after the trigram
 * lookup. At 16 the two cost about the same; below it the index wins by far (bench item 5). Near
 * that share the sample's estimate is within about half a row in a hundred (2,000 texts drawn),
 * which moves the choice only where both cost about the same.
 */
const INDEX_SHARE = 16;

/** The waitlist's rows, waiting or not: the scan's length. */
async function rowsOf(db: Connection, waitlistId: string): Promise<number> {
  const row = await db.get<{ n: number }>(
    `SELECT ${lastSeq('?1')} - (SELECT erased_count FROM waitlists WHERE id = ?1) AS n`,
    [waitlistId],
  );
  return row?.n ?? 0;
}

/** The FTS5 query the index is asked, or undefined when the scan answers instead (see SearchPlan). */
async function indexMatch(
  db: Connection,
  waitlistId: string,
  needle: string,
  plan: SearchPlan,
): Promise<string | undefined> {
  if (plan === 'scan' || !indexable(needle)) return undefined;
  const sample = await trigramSample(db);
  const query = trigramQuery(needle, sample);
  if (query === undefined || plan === 'index') return query?.match;
  const offered = query.share * sample.rows;
  return offered * INDEX_SHARE <= (await rowsOf(db, waitlistId)) ? query.match : undefined;
}

/**
 * Where the rows that `q` matches are read from: the trigram index's candidates (?2: its FTS5
 * query), each read by rowid (the CROSS JOIN keeps the index the outer loop), or the scan of the
 * waitlist's narrow search index.
 */
export const SEARCH_FROM = {
  index: 'subscribers_fts AS f CROSS JOIN subscribers AS s ON s.rowid = f.rowid AND subscribers_fts MATCH ?2',
  scan: 'subscribers AS s INDEXED BY subscribers_search',
} as const;

/**
 * The rows that `q` matches, from either source: those of the waitlist whose search text contains
 * the needle (?3) as it is, so `%` and `_` are characters like any other and the index's own
 * case folding cannot add a row.
 */
export const SEARCH_MATCHES = 's.waitlist_id = ?1 AND instr(s.email_search, ?3) > 0';

/** The two orders of a search page, over the hits' columns. */
const SEARCH_ORDERS = {
  waiting: ['s.admitted_us IS NULL', 'ORDER BY rank_key, referral_count DESC, seq'],
  admitted: ['s.admitted_us IS NOT NULL', 'ORDER BY admitted_us DESC'],
} as const;

/**
 * A page of the matches (?4 rows from ?5) in order, each with their count: the matches are kept
 * once in a table of their own, counted and sorted from it. count(*) OVER () over the same rows
 * kept, read back and sorted them again: 3 ms more at 1M for 8,292 hits (bench item 5).
 */
export function searchPage(from: string, status: keyof typeof SEARCH_ORDERS): string {
  const [filter, order] = SEARCH_ORDERS[status];
  return `WITH hits AS MATERIALIZED (
      SELECT s.rowid AS row, s.seq, s.rank_key, s.referral_count, s.admitted_us
        FROM ${from} WHERE ${SEARCH_MATCHES} AND ${filter})
    SELECT row, seq, rank_key, referral_count, (SELECT count(*) FROM hits) AS total
      FROM hits ${order} LIMIT ?4 OFFSET ?5`;
}

/**
 * A page of the rows whose search text contains the needle: one statement finds the matches,
 * their count and the page in order, from the narrow columns; only the page's rows are then
 * read whole.
 */
async function search(
  db: Connection,
  waitlistId: string,
  settings: WaitlistSettings,
  query: PageQuery,
  offset: number,
  plan: SearchPlan,
): Promise<ListPage> {
  const needle = searchText(query.q);
  const match = await indexMatch(db, waitlistId, needle, plan);
  const from = match === undefined ? SEARCH_FROM.scan : SEARCH_FROM.index;
  const status = query.status === SubscriberStatus.admitted ? 'admitted' : 'waiting';
  const params = [waitlistId, match ?? null, needle];
  const hits = await db.all<Ranks & { row: number; total: number }>(searchPage(from, status), [
    ...params,
    query.limit,
    offset,
  ]);
  if (hits.length === 0) {
    // No row at all on page 1 means no match; past it, the count needs its own pass.
    if (offset === 0) return { items: [], total: 0 };
    const total =
      (
        await db.get<{ n: number }>(
          `SELECT count(*) AS n FROM ${from} WHERE ${SEARCH_MATCHES} AND ${SEARCH_ORDERS[status][0]}`,
          params,
        )
      )?.n ?? 0;
    return { items: [], total };
  }
  const rows = await db.all<LineRow & { row: number }>(
    `SELECT rowid AS row, ${LINE_COLUMNS} FROM subscribers WHERE rowid IN (${hits.map(() => '?').join(', ')})`,
    hits.map((h) => h.row),
  );
  const byRow = new Map(rows.map((r) => [r.row, r]));
  const positions =
    status === 'admitted'
      ? hits.map(() => null)
      : await positionsOf(db, waitlistId, hits, settings.referral_boost);
  return {
    items: hits.map((hit, i) => listed(byRow.get(hit.row) as LineRow, positions[i] ?? null, settings)),
    total: (hits[0] as { total: number }).total,
  };
}

/** What SQLite does its own way with the line (see ../statements/line.ts). */
export const sqliteLine: LineEngine<Connection> = {
  signUp: insertOrMatchSubscriber,
  size: lineSize,
  positionsOf,
  search: (db, waitlistId, settings, query, offset) =>
    search(db, waitlistId, settings, query, offset, 'auto'),
};
