/**
 * Email confirmation (docs/subscribers.md#email-confirmation), the rules without the mail: who counts as confirmed, and
 * when a re-sign-up may send the mail again. The mail itself is `confirmation-mail.ts`; the
 * referral credit it defers is `referrals.ts`.
 */

/** A re-sign-up of an unconfirmed address mails again at most this often. */
export const MAIL_AGAIN_AFTER_US = 10 * 60 * 1_000_000;

/** Whether a re-sign-up at `nowUs` sends the mail again, the last one having been queued at `lastUs`. */
export function mailsAgain(lastUs: number | null, nowUs: number): boolean {
  return lastUs === null || nowUs - lastUs >= MAIL_AGAIN_AFTER_US;
}

/**
 * Whether a subscriber counts as confirmed: always on a waitlist that does not confirm emails
 * (the contract's rule, whatever was true when they joined), and otherwise once they pressed the
 * button or when they joined before confirmation was turned on (no token was ever sent).
 */
export function isConfirmed(
  confirmEmail: boolean,
  row: { confirm_token: string | null; confirmed_us: number | null },
): boolean {
  return !confirmEmail || row.confirm_token === null || row.confirmed_us !== null;
}

/** The link in the mail: a page with a button, never a confirmation by itself. */
export function confirmUrl(appUrl: string, token: string): string {
  return `${appUrl}/c/${token}`;
}
