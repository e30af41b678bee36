/**
 * What both adapters read to confirm an email (contract §15): the subscriber holding a token,
 * with its waitlist, and what the confirmation mail is made of; and how each becomes what the
 * confirmation page and the mail worker are given.
 */
import { isConfirmed } from '../domain/confirmation.js';
import { settingsFromJson } from '../domain/settings.js';
import type { ConfirmationMail, ConfirmationView } from './store.js';
import { isTrue, type StoredBoolean } from './stored-boolean.js';

export interface TokenRow {
  id: string;
  waitlist_id: string;
  tenant_id: string;
  name: string;
  settings: string;
  status_token: string;
  referred_by: string | null;
  confirm_token: string;
  confirmed_us: number | null;
}

/** The columns of a `TokenRow`, from `subscribers s JOIN waitlists w`. */
export const TOKEN_COLUMNS =
  's.id, s.waitlist_id, w.tenant_id, w.name, w.settings, s.status_token, s.referred_by, s.confirm_token, s.confirmed_us';

export function viewFromRow(row: TokenRow): ConfirmationView {
  const settings = settingsFromJson(row.settings);
  return {
    subscriberId: row.id,
    waitlistName: row.name,
    confirmed: row.confirmed_us !== null,
    statusToken: settings.referrals ? row.status_token : undefined,
  };
}

export interface MailRow {
  email: string;
  confirm_token: string | null;
  confirmed_us: number | null;
  name: string;
  settings: string;
  archived: StoredBoolean;
}

/** The columns of a `MailRow`, from `subscribers s JOIN waitlists w`. */
export const MAIL_COLUMNS = 's.email, s.confirm_token, s.confirmed_us, w.name, w.settings, w.archived';

/** The mail, or undefined for a subscriber who never had to confirm. */
export function mailFromRow(row: MailRow): ConfirmationMail | undefined {
  if (row.confirm_token === null) return undefined;
  const confirmEmail = settingsFromJson(row.settings).confirm_email;
  return {
    email: row.email,
    token: row.confirm_token,
    waitlistName: row.name,
    needed: !isTrue(row.archived) && !isConfirmed(confirmEmail, row),
  };
}
