/**
 * Adaptive Proof of Work, contract §16: the difficulty of a nonce from the waitlist's base, the
 * nonces issued for it in the last minute (a surge makes everyone pay a little more) and the
 * sign-ups already accepted from the client's address in the last hour (one address signing up
 * many emails pays much more). Pure: the caller counts.
 *
 * The repeat part is priced twice: when the nonce is issued, and again when its solution is
 * redeemed (`redemptionDifficulty`). Pricing only at issue, as §16 words it, let an attacker fetch
 * a hundred nonces at a = 0 and spend them afterwards at the base price (bench item 10 measured
 * exactly that); checking again at redemption makes fetching ahead cost what signing up one at a
 * time costs. The surge part stays fixed at issue: it prices the moment, not the address.
 */
import { POW_MAX_DIFFICULTY } from '@waitlistkit/protocol';

export const POW_SURGE_THRESHOLD_DEFAULT = 120;
export const POW_SURGE_WINDOW_MS = 60_000;
export const POW_REPEAT_WINDOW_MS = 60 * 60_000;
const SURGE_MAX = 4;

export interface PowLoad {
  /** Nonces issued for the waitlist in the last 60 s. */
  issuedLastMinute: number;
  /** The waitlist's `pow_surge_threshold`. */
  threshold: number;
  /** Sign-ups accepted from this IP on this waitlist in the last hour, before the one being decided. */
  acceptedFromIpLastHour: number;
}

export function surgeBits(issued: number, threshold: number): number {
  if (issued <= threshold) return 0;
  return Math.min(SURGE_MAX, Math.ceil(Math.log2(issued / threshold)));
}

/** 0 for the first three sign-ups (a = 0, 1, 2); each doubling of a after that costs two bits. */
export function repeatBits(accepted: number): number {
  if (accepted <= 2) return 0;
  return Math.ceil(2 * Math.log2(accepted / 2));
}

export function powDifficulty(base: number, adaptive: boolean, load: PowLoad): number {
  if (!adaptive) return base;
  const extra = surgeBits(load.issuedLastMinute, load.threshold) + repeatBits(load.acceptedFromIpLastHour);
  return Math.min(POW_MAX_DIFFICULTY, base + extra);
}

/**
 * The leading zero bits a solution must reach when it is redeemed: its nonce's difficulty, or the
 * base plus the repeat price of the sign-ups accepted from the address since, whichever is more.
 */
export function redemptionDifficulty(
  issued: number,
  base: number,
  adaptive: boolean,
  acceptedFromIpLastHour: number,
): number {
  if (!adaptive) return issued;
  return Math.max(issued, Math.min(POW_MAX_DIFFICULTY, base + repeatBits(acceptedFromIpLastHour)));
}
