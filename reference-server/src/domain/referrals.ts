/**
 * Referral credit (docs/subscribers.md#referral-credit): a referral is credited only on a fresh sign-up, only with a
 * code of the same waitlist, never to oneself, only while referrals are on; anything else is
 * ignored silently. The store finds the code's owner on the waitlist (same waitlist by lookup;
 * the new row does not exist yet, so it cannot be its own referrer); this decides, and says
 * what the referrer becomes.
 */
import { rankKey } from './positions.js';
import type { WaitlistSettings } from './settings.js';

export interface Referrer {
  id: string;
  seq: number;
  referral_count: number;
}

export interface Credit {
  referrerId: string;
  /** The referrer's count and rank key after this referral. */
  referralCount: number;
  rankKey: number;
}

export function creditFor(
  settings: Pick<WaitlistSettings, 'referrals' | 'referral_boost'>,
  fresh: boolean,
  referrer: Referrer | undefined,
): Credit | undefined {
  if (!settings.referrals || !fresh || referrer === undefined) return undefined;
  const referralCount = referrer.referral_count + 1;
  return {
    referrerId: referrer.id,
    referralCount,
    rankKey: rankKey(referrer.seq, referralCount, settings.referral_boost),
  };
}
