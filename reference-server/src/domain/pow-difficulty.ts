/**
 * Adaptive Proof of Work, docs/gates.md#adaptive-difficulty: the difficulty of a nonce from the waitlist's base, the
 * nonces counted for it in the last minute (a surge makes everyone pay a little more) and the
 * sign-ups already accepted from the client's address in the last hour (one address signing up
 * many emails pays much more). Pure: the caller counts.
 *
 * The repeat part is priced twice: when the nonce is issued, and again when its solution is
 * redeemed (`redemptionDifficulty`). Pricing only at issue let an attacker fetch
 * a hundred nonces at a = 0 and spend them afterwards at the base price (bench item 10 measured
 * exactly that); checking again at redemption makes fetching ahead cost what signing up one at a
 * time costs. The surge part stays fixed at issue: it prices the moment, not the address.
 *
 * The surge counts at most `SURGE_NONCES_PER_CLIENT` nonces of one client a minute (a client is an
 * address, an IPv6 one by its /64: domain/client-key), not every nonce issued. A
 * nonce costs nothing to ask for, so counting them all let 32 addresses asking `/gates` in a loop
 * (60 a minute each, the per-IP window) raise everyone's difficulty by the full four bits. What
 * costs an asker is an address: with the cap, raising the surge above the default threshold of
 * 120 takes more than 60 addresses (or /64s) at once, which is what a real crowd is, while a
 * person's page asks once or twice a minute at most (the widget's `/gates` while typing, a 428).
 * The repeat part already counts per client; the cap is the sliding window of domain/throttle.ts.
 */
import { POW_MAX_DIFFICULTY } from '@waitlistkit/protocol';
import type { Limit } from './throttle.js';

export const POW_SURGE_THRESHOLD_DEFAULT = 120;
export const POW_SURGE_WINDOW_MS = 60_000;
export const POW_REPEAT_WINDOW_MS = 60 * 60_000;
const SURGE_MAX = 4;

/** How many of one client's nonces in a surge window count towards the waitlist's surge. */
export const SURGE_NONCES_PER_CLIENT = 2;

/**
 * The sliding window, per waitlist and client, that a nonce must get through to be counted in the
 * surge: a nonce it refuses is still issued, at the difficulty of the moment, but not counted.
 */
export const SURGE_COUNTED_PER_CLIENT: Limit = {
  capacity: SURGE_NONCES_PER_CLIENT,
  windowMs: POW_SURGE_WINDOW_MS,
};

export interface PowLoad {
  /**
   * Nonces counted for the waitlist in the last 60 s: at most `SURGE_NONCES_PER_CLIENT` of each
   * client's (`SURGE_COUNTED_PER_CLIENT`), before the one being decided.
   */
  issuedLastMinute: number;
  /** The waitlist's `pow_surge_threshold`. */
  threshold: number;
  /** Sign-ups accepted from this client (domain/client-key) on this waitlist in the last hour, before the one being decided. */
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
