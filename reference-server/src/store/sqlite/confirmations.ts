/**
 * Email confirmation's reads and its one write (contract §15). The token is looked up on a
 * unique partial index; confirming sets `confirmed_us` once and, in the same transaction,
 * credits the referral that sign-up only noted and records the events.
 */
import { creditFor } from '../../domain/referrals.js';
import { settingsFromJson } from '../../domain/settings.js';
import {
  MAIL_COLUMNS,
  type MailRow,
  mailFromRow,
  TOKEN_COLUMNS,
  type TokenRow,
  viewFromRow,
} from '../confirmation-rows.js';
import { subscriberConfirmed } from '../events.js';
import type { ConfirmationMail, ConfirmationView } from '../store.js';
import type { Connection } from './connection.js';
import { addEvent } from './outbox.js';
import { applyCredit } from './subscribers.js';

function byToken(db: Connection, token: string): Promise<TokenRow | undefined> {
  return db.get<TokenRow>(
    `SELECT ${TOKEN_COLUMNS}
       FROM subscribers s JOIN waitlists w ON w.id = s.waitlist_id
      WHERE s.confirm_token = ? AND w.archived = 0`,
    [token],
  );
}

export async function confirmationView(db: Connection, token: string): Promise<ConfirmationView | undefined> {
  const row = await byToken(db, token);
  return row && viewFromRow(row);
}

export async function confirm(
  db: Connection,
  token: string,
  nowUs: number,
): Promise<{ subscriberId: string; first: boolean } | undefined> {
  const row = await byToken(db, token);
  if (!row) return undefined;
  if (row.confirmed_us !== null) return { subscriberId: row.id, first: false };
  await db.run('UPDATE subscribers SET confirmed_us = ? WHERE id = ?', [nowUs, row.id]);
  const at = Math.floor(nowUs / 1000);
  const event = { tenantId: row.tenant_id, waitlistId: row.waitlist_id, subscriberId: row.id, atMs: at };
  if (row.referred_by !== null) {
    const referrer = await db.get<{ id: string; seq: number; referral_count: number }>(
      'SELECT id, seq, referral_count FROM subscribers WHERE id = ? AND waitlist_id = ?',
      [row.referred_by, row.waitlist_id],
    );
    const credit = creditFor(settingsFromJson(row.settings), true, referrer);
    if (credit) await applyCredit(db, credit, event);
  }
  await addEvent(db, subscriberConfirmed(event), at);
  return { subscriberId: row.id, first: true };
}

export async function confirmationMail(
  db: Connection,
  subscriberId: string,
): Promise<ConfirmationMail | undefined> {
  const row = await db.get<MailRow>(
    `SELECT ${MAIL_COLUMNS}
       FROM subscribers s JOIN waitlists w ON w.id = s.waitlist_id WHERE s.id = ?`,
    [subscriberId],
  );
  return row && mailFromRow(row);
}
