/**
 * A subscriber's row as both stores read the line (the same columns in SQLite and PostgreSQL),
 * and how it becomes the API's `ListedSubscriber`, alone or in the order of given ids; and the
 * row the status page reads, and its view: one mapping for both stores.
 */
import { type Language, SubscriberStatus } from '@waitlistkit/protocol';
import { isConfirmed } from '../../domain/confirmation.js';
import { languageOf } from '../../domain/language-of.js';
import type { ListedSubscriber, StatusView } from '../../domain/records.js';
import type { WaitlistSettings } from '../../domain/settings.js';
import { shownFields, shownSource } from '../../domain/signup-extras.js';
import { isTrue, type StoredBoolean } from '../stored-boolean.js';
import { isoFromMicros } from '../time.js';

export interface LineRow {
  id: string;
  email: string;
  joined_us: number;
  referral_code: string;
  referral_count: number;
  seq: number;
  rank_key: number;
  admitted_us: number | null;
  confirm_token: string | null;
  confirmed_us: number | null;
  fields: string | null;
  source: string | null;
  source_channel: string | null;
  credited: StoredBoolean;
  unsubscribed_us: number | null;
  lang: Language | null;
}

/** What a position is computed from. */
export type Ranks = Pick<LineRow, 'seq' | 'rank_key' | 'referral_count'>;

export const LINE_COLUMNS =
  'id, email, joined_us, referral_code, referral_count, seq, rank_key, admitted_us, confirm_token, confirmed_us, fields, source, source_channel, credited, unsubscribed_us, lang';
/** The line's order: rank key, then more referrals first, then who joined first. */
export const LINE_ORDER = 'ORDER BY rank_key, referral_count DESC, seq';

export function listed(row: LineRow, position: number | null, settings: WaitlistSettings): ListedSubscriber {
  return {
    id: row.id,
    email: row.email,
    joined_at: isoFromMicros(row.joined_us),
    position: row.admitted_us === null ? position : null,
    referral_code: settings.referrals ? row.referral_code : '',
    referral_count: row.referral_count,
    status: row.admitted_us === null ? SubscriberStatus.waiting : SubscriberStatus.admitted,
    admitted_at: row.admitted_us === null ? null : isoFromMicros(row.admitted_us),
    confirmed: isConfirmed(settings.confirm_email, row),
    fields: shownFields(settings.fields, row.fields),
    ...shownSource(row, isTrue(row.credited)),
    unsubscribed: row.unsubscribed_us !== null,
    lang: row.lang,
  };
}

/** How many joined, how many of those left the line (admitted or erased), and how many were admitted. */
export interface LineSize {
  joined: number;
  removed: number;
  admitted: number;
}

/**
 * `rows` in the order of `ids`, missing ones left out, listed with the positions `positionsOf`
 * computes together for the waiting ones.
 */
export async function listedInOrder(
  ids: readonly string[],
  rows: readonly LineRow[],
  settings: WaitlistSettings,
  positionsOf: (waiting: readonly LineRow[]) => Promise<number[]>,
): Promise<ListedSubscriber[]> {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const present = ids.map((id) => byId.get(id)).filter((r): r is LineRow => r !== undefined);
  const waiting = present.filter((r) => r.admitted_us === null);
  const positions = await positionsOf(waiting);
  const positionOf = new Map(waiting.map((r, i) => [r.id, positions[i] ?? null]));
  return present.map((r) => listed(r, positionOf.get(r.id) ?? null, settings));
}

/** A subscriber's row with its waitlist's, as the status page reads it by the subscriber's token. */
export interface StatusRow extends Ranks {
  waitlist_id: string;
  settings: string;
  archived: StoredBoolean;
  referral_code: string;
  admitted_us: number | null;
  waitlist_name: string;
  confirm_token: string | null;
  confirmed_us: number | null;
  lang: string | null;
}

/** The columns of a `StatusRow`, from `subscribers s JOIN waitlists w`. */
export const STATUS_COLUMNS = `s.waitlist_id, w.settings, w.archived, w.name AS waitlist_name,
            s.referral_code, s.referral_count, s.seq, s.rank_key, s.admitted_us, s.confirm_token, s.confirmed_us, s.lang`;

export function statusView(
  row: StatusRow,
  settings: WaitlistSettings,
  size: LineSize,
  position: number | null,
): StatusView {
  return {
    waitlistId: row.waitlist_id,
    waitlistName: row.waitlist_name,
    archived: isTrue(row.archived),
    settings,
    referralCode: row.referral_code,
    referralCount: row.referral_count,
    admitted: row.admitted_us !== null,
    confirmed: isConfirmed(settings.confirm_email, row),
    position,
    total: size.joined - size.removed,
    lang: languageOf(row, settings),
  };
}
