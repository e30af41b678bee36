/**
 * PostgreSQL's sign-up (its `LineEngine.signUp`, ../statements/line.ts): the subscriber is
 * created, or the one with the same normalised email matched.
 *
 * Where SQLite's single writer applies sign-ups one after another, several processes sign up
 * here at once. Each sign-up first locks its waitlist's row (`FOR NO KEY UPDATE`), so those of
 * one waitlist take turns, whichever process they arrive at, and every statement after the lock
 * sees what the previous holder committed: the email already on the waitlist (one row per email,
 * identical answers), the last join number and time (dense seqs, strictly increasing join
 * times), the referrer's count (one credit each) and the boost its rank key is made with.
 * Sign-ups of different waitlists do not wait for each other.
 */
import { generateReferralCode, normalizeReferralCode } from '@waitlistkit/protocol';
import { newCapabilityToken, newId } from '../../domain/ids.js';
import type { SignupInput, SignupResult } from '../../domain/records.js';
import { creditFor } from '../../domain/referrals.js';
import { searchText } from '../../domain/search.js';
import { settingsFromJson } from '../../domain/settings.js';
import { mailAgainWhenDue } from '../statements/confirmations.js';
import { applyCredit } from '../statements/referrals.js';
import type { Connection } from './connection.js';

export interface LockedWaitlist {
  tenant_id: string;
  settings: string;
  archived: boolean;
  version: number;
  last_seq: number;
  last_joined_us: number;
}

/**
 * Locks the waitlist's row until the transaction ends, and reads it: what every write that
 * numbers, ranks, counts or credits the waitlist's subscribers does first.
 */
export function lockWaitlist(db: Connection, waitlistId: string): Promise<LockedWaitlist | undefined> {
  return db.get<LockedWaitlist>(LOCK_WAITLIST, [waitlistId]);
}

export const LOCK_WAITLIST = `SELECT tenant_id, settings, archived, version, last_seq, last_joined_us
  FROM waitlists WHERE id = $1 FOR NO KEY UPDATE`;

/** What a sign-up reads after taking the lock: the email's row, the code's owner. */
interface Facts {
  /** id, referral code, status token, unconfirmed, when the last confirmation mail was queued. */
  existing: [string, string, string, boolean, number | null] | null;
  referrer: { id: string; seq: number; referral_count: number } | null;
}

/**
 * The row and the waitlist's new last seq and join time, in one statement: the lock is held for
 * round trips, and this is the one every fresh sign-up makes. Nothing is written on a conflict.
 */
const INSERT = `WITH inserted AS (
    INSERT INTO subscribers (id, waitlist_id, seq, email, email_norm, email_search, referral_code,
        status_token, referred_by, referral_count, rank_key, joined_us, confirm_token, confirm_mailed_us,
        fields, source, source_channel, variant_key, lang)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 0, $3, $10, $11, $12, $13, $14, $15, $16, $17)
      ON CONFLICT DO NOTHING RETURNING id)
  UPDATE waitlists SET last_seq = $3, last_joined_us = $10
   WHERE id = $2 AND EXISTS (SELECT 1 FROM inserted)`;

/**
 * Inserts with a fresh referral code, drawing another when the code is taken (n in 2^30 on a
 * waitlist of n: one in 10,000 sign-ups at 100,000). Under the waitlist's lock, with the email
 * checked absent, a conflict can only be the code; `ON CONFLICT DO NOTHING` says so without
 * aborting the transaction.
 */
async function insertWithFreeCode(db: Connection, params: (code: string) => unknown[]): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const code = generateReferralCode();
    if ((await db.run(INSERT, params(code))).changes === 1) return code;
    if (attempt >= 5) throw new Error('no free referral code after 6 draws');
  }
}

/**
 * Creates the subscriber or matches the existing one of the same normalised email, inside the
 * caller's transaction. On a waitlist that confirms emails the referral is only noted
 * (`referred_by`) and credited on confirmation, and a re-sign-up of an unconfirmed address may
 * queue the mail again. The row's `subscriber.created` event and its confirmation mail are
 * written by the schema's triggers, with the row (migrations.ts, step 7), as on SQLite.
 */
export async function insertOrMatchSubscriber(
  db: Connection,
  input: SignupInput,
  nowUs: number,
): Promise<SignupResult> {
  const waitlist = await lockWaitlist(db, input.waitlistId);
  const decidedOn = input.waitlistVersion;
  if (!waitlist || waitlist.archived || (decidedOn !== undefined && waitlist.version !== decidedOn)) {
    return { outcome: 'waitlist_gone' };
  }
  const settings = settingsFromJson(waitlist.settings);
  // The variant key counts where the waitlist, as locked, compares addresses by provider.
  const variantKey = settings.dedupe === 'provider' ? (input.extras?.variantKey ?? null) : null;
  // Everything else the sign-up needs, read in one statement after the lock. The address's row is
  // the one of that exact address first, else the holder of its variant key.
  const facts = (await db.get<Facts>(
    `SELECT
       (SELECT json_build_array(id, referral_code, status_token,
                                confirm_token IS NOT NULL AND confirmed_us IS NULL, confirm_mailed_us)
          FROM subscribers WHERE waitlist_id = $1 AND (email_norm = $2 OR variant_key = $4)
         ORDER BY email_norm = $2 DESC LIMIT 1) AS existing,
       (SELECT json_build_object('id', id, 'seq', seq, 'referral_count', referral_count)
          FROM subscribers WHERE waitlist_id = $1 AND referral_code = $3) AS referrer`,
    [input.waitlistId, input.emailNorm, normalizeReferralCode(input.referralCode) ?? null, variantKey],
  )) as Facts;
  const existing = facts.existing && {
    id: facts.existing[0],
    referral_code: facts.existing[1],
    status_token: facts.existing[2],
    unconfirmed: facts.existing[3],
    confirm_mailed_us: facts.existing[4],
  };
  if (existing) {
    const { id, referral_code, status_token } = existing;
    if (input.confirm) {
      await mailAgainWhenDue(
        db,
        { id, unconfirmed: existing.unconfirmed, mailedUs: existing.confirm_mailed_us },
        nowUs,
      );
    }
    return { outcome: 'matched', subscriber: { id, referral_code, status_token }, credited: undefined };
  }
  const referrer = facts.referrer ?? undefined;
  const credit = creditFor(settings, true, referrer);
  const seq = waitlist.last_seq + 1;
  const joinedUs = Math.max(nowUs, waitlist.last_joined_us + 1);
  const id = newId('subscriber');
  const statusToken = newCapabilityToken();
  const confirmToken = input.confirm ? newCapabilityToken() : null;
  const referralCode = await insertWithFreeCode(db, (candidate) => [
    id,
    input.waitlistId,
    seq,
    input.email,
    input.emailNorm,
    searchText(input.email),
    candidate,
    statusToken,
    credit?.referrerId ?? null,
    joinedUs,
    confirmToken,
    confirmToken === null ? null : joinedUs,
    input.extras?.fields ?? null,
    input.extras?.source ?? null,
    input.extras?.sourceChannel ?? null,
    variantKey,
    input.extras?.lang ?? null,
  ]);
  const creditNow = credit && confirmToken === null ? credit : undefined;
  if (creditNow) {
    await applyCredit(db, creditNow, {
      tenantId: waitlist.tenant_id,
      waitlistId: input.waitlistId,
      subscriberId: id,
      atMs: Math.floor(joinedUs / 1000),
    });
  }
  return {
    outcome: 'created',
    subscriber: { id, referral_code: referralCode, status_token: statusToken },
    credited: creditNow?.referrerId,
  };
}
