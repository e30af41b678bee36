/**
 * Email confirmation's reads and its one write (docs/subscribers.md#email-confirmation). The token is looked up on a
 * unique partial index; confirming sets `confirmed_us` once and, in the same write, credits the
 * referral that sign-up only noted and records the events.
 */
import { isConfirmed, mailsAgain } from '../../domain/confirmation.js';
import { languageOf } from '../../domain/language-of.js';
import { creditFor } from '../../domain/referrals.js';
import { settingsFromJson } from '../../domain/settings.js';
import type { Db } from '../db.js';
import { type Dialect, perDialect } from '../dialect.js';
import type { ConfirmationMail, Confirmations, ConfirmationView } from '../store.js';
import { isTrue, type StoredBoolean } from '../stored-boolean.js';
import { subscriberConfirmed } from './events.js';
import { lockRow } from './locks.js';
import { addEvent } from './outbox.js';
import { applyCredit } from './referrals.js';

/** The subscriber holding a confirmation token, with its waitlist. */
interface TokenRow {
  id: string;
  waitlist_id: string;
  tenant_id: string;
  name: string;
  settings: string;
  status_token: string;
  referred_by: string | null;
  confirm_token: string;
  confirmed_us: number | null;
  lang: string | null;
}

/** What the confirmation mail is made of, with whether it is still needed. */
interface MailRow {
  email: string;
  confirm_token: string | null;
  confirmed_us: number | null;
  name: string;
  settings: string;
  archived: StoredBoolean;
  lang: string | null;
}

const BY_TOKEN = perDialect(
  (d) => `SELECT s.id, s.waitlist_id, w.tenant_id, w.name, w.settings, s.status_token, s.referred_by,
         s.confirm_token, s.confirmed_us, s.lang
    FROM subscribers s JOIN waitlists w ON w.id = s.waitlist_id
   WHERE s.confirm_token = ? AND w.archived = ${d.false}`,
);

const MAIL = `SELECT s.email, s.confirm_token, s.confirmed_us, s.lang, w.name, w.settings, w.archived
  FROM subscribers s JOIN waitlists w ON w.id = s.waitlist_id WHERE s.id = ?`;

function viewFromRow(row: TokenRow): ConfirmationView {
  const settings = settingsFromJson(row.settings);
  return {
    subscriberId: row.id,
    waitlistName: row.name,
    confirmed: row.confirmed_us !== null,
    statusToken: settings.referrals ? row.status_token : undefined,
    lang: languageOf(row, settings),
  };
}

/** The mail, or undefined for a subscriber who never had to confirm. */
function mailFromRow(row: MailRow): ConfirmationMail | undefined {
  if (row.confirm_token === null) return undefined;
  const settings = settingsFromJson(row.settings);
  return {
    email: row.email,
    token: row.confirm_token,
    waitlistName: row.name,
    needed: !isTrue(row.archived) && !isConfirmed(settings.confirm_email, row),
    lang: languageOf(row, settings),
  };
}

/**
 * A sign-up that matched someone still to confirm queues their confirmation mail again, when it
 * is due again (domain/confirmation.ts). Setting confirm_mailed_us is what queues it: the
 * schema's trigger subscribers_confirm_mail_again, on both stores.
 */
export async function mailAgainWhenDue(
  db: Db,
  matched: { id: string; unconfirmed: boolean; mailedUs: number | null },
  nowUs: number,
): Promise<void> {
  if (!matched.unconfirmed || !mailsAgain(matched.mailedUs, nowUs)) return;
  await db.run('UPDATE subscribers SET confirm_mailed_us = ? WHERE id = ?', [nowUs, matched.id]);
}

export function confirmationsOn(db: Db, d: Dialect): Confirmations {
  const byToken = (token: string) => db.get<TokenRow>(BY_TOKEN(d), [token]);
  return {
    byToken: async (token) => {
      const row = await byToken(token);
      return row && viewFromRow(row);
    },
    // Under the waitlist's lock where writers run at once, and read again under it: two presses
    // of the button in two processes confirm once and credit the referral once.
    async confirm(token, nowUs) {
      const found = await byToken(token);
      const row =
        found && (await lockRow(db, d, 'waitlists', found.waitlist_id)) ? await byToken(token) : found;
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
    },
    mail: async (subscriberId) => {
      const row = await db.get<MailRow>(MAIL, [subscriberId]);
      return row && mailFromRow(row);
    },
  };
}
