/** Referral codes, docs/subscribers.md#referral-codes: 6 characters from an alphabet without look-alikes (no 0/O, 1/I). */
import { randomString } from './base62.js';

export const REFERRAL_CODE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
export const REFERRAL_CODE_LENGTH = 6;

const PATTERN = /^[23456789ABCDEFGHJKLMNPQRSTUVWXYZ]{6}$/;

export function generateReferralCode(): string {
  return randomString(REFERRAL_CODE_ALPHABET, REFERRAL_CODE_LENGTH);
}

/** The canonical (upper-case) code, or `undefined` when `input` cannot be a referral code. */
export function normalizeReferralCode(input: unknown): string | undefined {
  if (typeof input !== 'string' || input.length !== REFERRAL_CODE_LENGTH) return undefined;
  const upper = input.toUpperCase();
  return PATTERN.test(upper) ? upper : undefined;
}
