/**
 * A subscriber's row as both adapters read the line (the same columns in SQLite and
 * PostgreSQL), and how it becomes the API's `ListedSubscriber`: one mapping for both stores.
 */
import { SubscriberStatus } from '@waitlistkit/protocol';
import { isConfirmed } from '../domain/confirmation.js';
import type { ListedSubscriber } from '../domain/records.js';
import type { WaitlistSettings } from '../domain/settings.js';
import { isoFromMicros } from './time.js';

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
}

/** What a position is computed from. */
export type Ranks = Pick<LineRow, 'seq' | 'rank_key' | 'referral_count'>;

export const LINE_COLUMNS =
  'id, email, joined_us, referral_code, referral_count, seq, rank_key, admitted_us, confirm_token, confirmed_us';
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
  };
}

/** How many joined, and how many of those left the line (admitted or erased). */
export interface LineSize {
  joined: number;
  removed: number;
}
