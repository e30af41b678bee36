/**
 * A page of the list filtered by channel (docs/subscribers.md#attribution), on both stores. The
 * channel is derived when asked: `referral` when a referrer was credited, else the channel the
 * source gives. Both inputs are kept on the row for this filter (`credited`, and `source_channel`,
 * NULL for `direct`), each behind an index (subscribers_credited, subscribers_channel) that also
 * holds whether the row is in the line, so a rare channel is counted and read through its index;
 * the common `direct` is most of the line, read in line order, and counted as the line's size
 * less the other channels' index entries. The total is exact.
 */
import { SubscriberStatus } from '@waitlistkit/protocol';
import type { ListPage, PageQuery } from '../../domain/records.js';
import { searchText } from '../../domain/search.js';
import type { WaitlistSettings } from '../../domain/settings.js';
import type { Db } from '../db.js';
import type { Dialect } from '../dialect.js';
import type { LineEngine } from './line.js';
import { LINE_COLUMNS, LINE_ORDER, type LineRow, listed } from './line-rows.js';

/** The channel's condition on a row, and its parameters. */
function channelIs(d: Dialect, channel: string): { sql: string; params: unknown[] } {
  if (channel === 'referral')
    return { sql: `(credited = ${d.true} OR source_channel = 'referral')`, params: [] };
  if (channel === 'direct') return { sql: `(credited = ${d.false} AND source_channel IS NULL)`, params: [] };
  return { sql: `(credited = ${d.false} AND source_channel = ?)`, params: [channel] };
}

/** `text` as a LIKE pattern matching itself only. */
const literal = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function channelPage<C extends Db>(
  db: C,
  d: Dialect,
  line: LineEngine<C>,
  waitlistId: string,
  settings: WaitlistSettings,
  query: PageQuery & { channel: string },
  offset: number,
): Promise<ListPage> {
  const admitted = query.status === SubscriberStatus.admitted;
  const channel = channelIs(d, query.channel);
  let where = `waitlist_id = ? AND admitted_us IS ${admitted ? 'NOT NULL' : 'NULL'} AND ${channel.sql}`;
  const params: unknown[] = [waitlistId, ...channel.params];
  if (query.q !== '') {
    where += ` AND email_search LIKE ? ESCAPE '\\'`;
    params.push(`%${literal(searchText(query.q))}%`);
  }
  const total =
    query.channel === 'direct' && query.q === ''
      ? await directTotal(db, d, line, waitlistId, admitted)
      : Number(
          (await db.get<{ n: number }>(`SELECT count(*) AS n FROM subscribers WHERE ${where}`, params))?.n ??
            0,
        );
  if (offset >= total) return { items: [], total };
  const order = admitted ? 'ORDER BY admitted_us DESC' : LINE_ORDER;
  const rows = await db.all<LineRow>(
    `SELECT ${LINE_COLUMNS} FROM subscribers WHERE ${where} ${order} LIMIT ? OFFSET ?`,
    [...params, query.limit, offset],
  );
  const positions = admitted
    ? rows.map(() => null)
    : await line.positionsOf(db, waitlistId, rows, settings.referral_boost);
  return { items: rows.map((row, i) => listed(row, positions[i] ?? null, settings)), total };
}

/**
 * How many of the waiting (or the admitted) are credited, and how many have a channel and no
 * credit: the rows not `direct`, each counted in its own index alone (subscribers_credited,
 * subscribers_channel hold the state they are counted by).
 */
export const OTHER_CHANNELS = (d: Dialect, admitted: boolean) => {
  const state = `admitted_us IS ${admitted ? 'NOT NULL' : 'NULL'}`;
  return `SELECT
    (SELECT count(*) FROM subscribers WHERE waitlist_id = ?1 AND credited = ${d.true} AND ${state}) AS credited,
    (SELECT count(*) FROM subscribers
      WHERE waitlist_id = ?1 AND source_channel IS NOT NULL AND credited = ${d.false} AND ${state}) AS attributed`;
};

/** How many of the waiting (or the admitted) are `direct`: all of them less the other channels' rows. */
async function directTotal<C extends Db>(
  db: C,
  d: Dialect,
  line: LineEngine<C>,
  waitlistId: string,
  admitted: boolean,
): Promise<number> {
  const size = await line.size(db, waitlistId);
  const others = await db.get<{ credited: number; attributed: number }>(OTHER_CHANNELS(d, admitted), [
    waitlistId,
  ]);
  const of = admitted ? size.admitted : size.joined - size.removed;
  return of - Number(others?.credited ?? 0) - Number(others?.attributed ?? 0);
}
