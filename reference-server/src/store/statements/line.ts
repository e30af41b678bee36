/**
 * Reading the line (docs/subscribers.md#positions, docs/subscribers.md#lifecycle) as both stores do: pages in position order and of those let
 * in, one subscriber, several by id, the status page, and the rows positions are corrected by.
 * What each store does its own way, on its hot paths, is its `LineEngine` (sqlite/line.ts,
 * postgres/line.ts): joining the line, its size, counting for positions, and search.
 *
 * Admitted subscribers keep their rows but leave the line: the line's indexes are partial
 * (`admitted_us IS NULL`). Join numbers (seq) stay dense over everyone who ever joined, erased
 * seqs included (erased_seqs), so a waiting subscriber's position is its seq, corrected by counts
 * over the few rows out of join order (`PREFIX`). A page of the line reads only its own index
 * entries.
 */
import { SubscriberStatus } from '@waitlistkit/protocol';
import type {
  ListedSubscriber,
  ListPage,
  PageQuery,
  SignupInput,
  SignupResult,
  StatusView,
} from '../../domain/records.js';
import { settingsFromJson, type WaitlistSettings } from '../../domain/settings.js';
import type { Db } from '../db.js';
import { type Dialect, perDialect } from '../dialect.js';
import { channelPage } from './channel-page.js';
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
} from './line-rows.js';

/**
 * The subscribers' statements each store writes its own way: joining the line (SQLite reads the
 * last join number off the rows, its single writer ordering the sign-ups, and batches them;
 * PostgreSQL keeps it on the waitlist's row, locked), the line's size, the counts positions are
 * computed from (domain/positions.ts), and search (SQLite's trigram FTS index and its choice of
 * plan; PostgreSQL's trigram GIN index in one CTE).
 */
export interface LineEngine<C extends Db = Db> {
  /** `Subscribers.signUp`, inside the caller's write. */
  signUp(db: C, input: SignupInput, nowUs: number): Promise<SignupResult>;
  size(db: C, waitlistId: string): Promise<LineSize>;
  /** Positions of waiting rows read out of line order; `size` when the caller read it already. */
  positionsOf(
    db: C,
    waitlistId: string,
    rows: readonly Ranks[],
    boost: number,
    size?: LineSize,
  ): Promise<number[]>;
  /** A page of the rows whose email contains `query.q`, from `offset`. */
  search(
    db: C,
    waitlistId: string,
    settings: WaitlistSettings,
    query: PageQuery,
    offset: number,
  ): Promise<ListPage>;
}

/**
 * The rows out of join order, each counted up to a threshold of `column` (see
 * ../range-counts.ts): waiting referrers by rank key; referrers and admitted by seq; erased by seq.
 */
export const PREFIX = {
  rank: {
    table: 'subscribers',
    index: 'subscribers_referrers_rank',
    where: ' AND referral_count > 0 AND admitted_us IS NULL',
    column: 'rank_key',
  },
  displaced: {
    table: 'subscribers',
    index: 'subscribers_displaced_seq',
    where: ' AND (referral_count > 0 OR admitted_us IS NOT NULL)',
    column: 'seq',
  },
  erased: { table: 'erased_seqs', index: undefined, where: '', column: 'seq' },
} as const;

/** The rows of `kind` of the waitlist `?1`, as `FROM … WHERE …` to add a range of its column to. */
export const prefixRows = (d: Dialect, kind: keyof typeof PREFIX) => {
  const { table, index, where } = PREFIX[kind];
  return `${table}${index ? d.indexedBy(index) : ''} WHERE waitlist_id = ?1${where}`;
};

/** Rows tied with a referrer and before it: its rank key, and more referrals or joined first. */
export const tiedBefore = (rankKey: string, referrals: string, seq: string) =>
  `rank_key = ${rankKey} AND (referral_count > ${referrals} OR (referral_count = ${referrals} AND seq < ${seq}))`;

/** A referrer's ties: waiting referrers of its rank key before it (more referrals, or joined first). */
export const TIES = perDialect(
  (d) => `SELECT count(*) AS n FROM ${prefixRows(d, 'rank')} AND ${tiedBefore('?2', '?3', '?4')}`,
);

const ADMITTED_COUNT = 'SELECT admitted_count AS n FROM waitlists WHERE id = ?';
const ADMITTED_PAGE = perDialect(
  (d) => `SELECT ${LINE_COLUMNS} FROM subscribers${d.indexedBy('subscribers_admitted')}
  WHERE waitlist_id = ? AND admitted_us IS NOT NULL ORDER BY admitted_us DESC LIMIT ? OFFSET ?`,
);
/** A page of the line found by rank key, where the keys are exactly 1..n. */
const LINE_SEEK = perDialect(
  (d) => `SELECT ${LINE_COLUMNS} FROM subscribers${d.indexedBy('subscribers_line')}
  WHERE waitlist_id = ? AND admitted_us IS NULL AND rank_key > ? ${LINE_ORDER} LIMIT ?`,
);
const LINE_SKIP = perDialect(
  (d) => `SELECT ${LINE_COLUMNS} FROM subscribers${d.indexedBy('subscribers_line')}
  WHERE waitlist_id = ? AND admitted_us IS NULL ${LINE_ORDER} LIMIT ? OFFSET ?`,
);

/**
 * A page of the waitlist: the line in position order (`waiting`), or those let in, newest
 * admission first (`admitted`); optionally filtered by a literal substring of the email.
 */
export async function listPage<C extends Db>(
  db: C,
  d: Dialect,
  line: LineEngine<C>,
  waitlistId: string,
  settings: WaitlistSettings,
  query: PageQuery,
): Promise<ListPage> {
  const offset = (query.page - 1) * query.limit;
  const { channel } = query;
  if (channel) return channelPage(db, d, line, waitlistId, settings, { ...query, channel }, offset);
  if (query.q !== '') return line.search(db, waitlistId, settings, query, offset);
  if (query.status === SubscriberStatus.admitted) {
    const total = (await db.get<{ n: number }>(ADMITTED_COUNT, [waitlistId]))?.n ?? 0;
    if (offset >= total) return { items: [], total };
    const rows = await db.all<LineRow>(ADMITTED_PAGE(d), [waitlistId, query.limit, offset]);
    return { items: rows.map((row) => listed(row, null, settings)), total };
  }
  const size = await line.size(db, waitlistId);
  const total = size.joined - size.removed;
  if (offset >= total) return { items: [], total };
  // With no boost and nobody out of the line, rank keys are exactly 1..n (the boost and the keys
  // change in one transaction), so a deep page is a seek, not a skip.
  const rows =
    settings.referral_boost === 0 && size.removed === 0
      ? await db.all<LineRow>(LINE_SEEK(d), [waitlistId, offset, query.limit])
      : await db.all<LineRow>(LINE_SKIP(d), [waitlistId, query.limit, offset]);
  return { items: rows.map((row, i) => listed(row, offset + i + 1, settings)), total };
}

/**
 * Rows of a waitlist by id (parameters: the waitlist, the ids), looked up by primary key: see
 * `Dialect.unindexed` for why SQLite must be kept off the waitlist's indexes here.
 */
export const SUBSCRIBERS_BY_IDS = perDialect(
  (d) =>
    `SELECT ${LINE_COLUMNS} FROM subscribers WHERE ${d.unindexed('waitlist_id')} = ? AND ${d.anyOf('id')}`,
);

/** These subscribers of the waitlist, in the order given (missing ids left out). */
export async function subscribersByIds<C extends Db>(
  db: C,
  d: Dialect,
  line: LineEngine<C>,
  waitlistId: string,
  settings: WaitlistSettings,
  ids: readonly string[],
): Promise<ListedSubscriber[]> {
  const rows = await db.all<LineRow>(SUBSCRIBERS_BY_IDS(d), [waitlistId, ids]);
  return listedInOrder(ids, rows, settings, (waiting) =>
    line.positionsOf(db, waitlistId, waiting, settings.referral_boost),
  );
}

/** One subscriber of the waitlist, with its position when waiting. */
export async function getSubscriber<C extends Db>(
  db: C,
  line: LineEngine<C>,
  waitlistId: string,
  settings: WaitlistSettings,
  id: string,
): Promise<ListedSubscriber | undefined> {
  const row = await db.get<LineRow>(
    `SELECT ${LINE_COLUMNS} FROM subscribers WHERE id = ? AND waitlist_id = ?`,
    [id, waitlistId],
  );
  if (!row) return undefined;
  const position =
    row.admitted_us === null
      ? ((await line.positionsOf(db, waitlistId, [row], settings.referral_boost))[0] ?? null)
      : null;
  return listed(row, position, settings);
}

/** The status page's view of the subscriber holding this token. */
export async function findByStatusToken<C extends Db>(
  db: C,
  line: LineEngine<C>,
  token: string,
): Promise<StatusView | undefined> {
  const row = await db.get<StatusRow>(
    `SELECT ${STATUS_COLUMNS}
       FROM subscribers s JOIN waitlists w ON w.id = s.waitlist_id WHERE s.status_token = ?`,
    [token],
  );
  if (!row) return undefined;
  const settings = settingsFromJson(row.settings);
  const size = await line.size(db, row.waitlist_id);
  const position =
    row.admitted_us === null
      ? ((await line.positionsOf(db, row.waitlist_id, [row], settings.referral_boost, size))[0] ?? null)
      : null;
  return statusView(row, settings, size, position);
}
