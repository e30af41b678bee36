/**
 * Stateless signed tokens for the Challenge (docs/gates.md#challenge) and Proof of Work (docs/gates.md#proof-of-work) gates. Issuing
 * needs no storage; single use is enforced by the caller recording `id` once the gates pass.
 *
 *   challenge token: c1.<issued at, base36 ms>.<min age, base36 ms>.<random>.<mac>
 *   PoW nonce:       p1.<expires at, base36 ms>.<difficulty>.<random>.<mac>, exactly 63 characters,
 *                    so that `nonce + ":"` fills one SHA-256 block and solvers reuse its midstate.
 * The MAC is HMAC-SHA-256 over the waitlist id and every field, truncated to 128 bits.
 */
import { createHmac } from 'node:crypto';
import { BASE62_ALPHABET, randomString, TOKEN_TTL_MS, verifyPow } from '@waitlistkit/protocol';
import { constantTimeEqual } from './crypto.js';

const MAC_LENGTH = 22;
export const POW_NONCE_LENGTH = 63;

function mac(secret: string, parts: readonly string[]): string {
  return createHmac('sha256', secret).update(parts.join('|')).digest('base64url').slice(0, MAC_LENGTH);
}

const BASE36 = /^[0-9a-z]{1,12}$/;

export type TokenProblem = 'malformed' | 'forged' | 'expired' | 'early';
/** `id` identifies the token for single use; `expiresAt` is when that record may be forgotten. */
export type TokenCheck<T> =
  | ({ ok: true; id: string; expiresAt: number } & T)
  | { ok: false; problem: TokenProblem };

export function issueChallengeToken(
  secret: string,
  waitlistId: string,
  now: number,
  minAgeMs: number,
): string {
  const fields = ['c1', now.toString(36), minAgeMs.toString(36), randomString(BASE62_ALPHABET, 12)];
  return `${fields.join('.')}.${mac(secret, [waitlistId, ...fields])}`;
}

export function checkChallengeToken(
  secret: string,
  waitlistId: string,
  token: string,
  now: number,
): TokenCheck<{ issuedAt: number }> {
  const parts = token.split('.');
  if (parts.length !== 5 || parts[0] !== 'c1') return { ok: false, problem: 'malformed' };
  const [version, issued, minAge, random, given] = parts as [string, string, string, string, string];
  if (!BASE36.test(issued) || !BASE36.test(minAge)) return { ok: false, problem: 'malformed' };
  if (!constantTimeEqual(mac(secret, [waitlistId, version, issued, minAge, random]), given)) {
    return { ok: false, problem: 'forged' };
  }
  const issuedAt = Number.parseInt(issued, 36);
  if (now > issuedAt + TOKEN_TTL_MS) return { ok: false, problem: 'expired' };
  if (now < issuedAt + Number.parseInt(minAge, 36)) return { ok: false, problem: 'early' };
  return { ok: true, id: `c:${given}`, expiresAt: issuedAt + TOKEN_TTL_MS, issuedAt };
}

export function issuePowNonce(secret: string, waitlistId: string, now: number, difficulty: number): string {
  const expires = (now + TOKEN_TTL_MS).toString(36);
  const fixed = 'p1'.length + expires.length + String(difficulty).length + MAC_LENGTH + 4;
  const fields = ['p1', expires, String(difficulty), randomString(BASE62_ALPHABET, POW_NONCE_LENGTH - fixed)];
  return `${fields.join('.')}.${mac(secret, [waitlistId, ...fields])}`;
}

export function checkPowSolution(
  secret: string,
  waitlistId: string,
  nonce: string,
  solution: number,
  now: number,
): TokenCheck<{ difficulty: number }> | { ok: false; problem: 'unsolved' } {
  const parts = nonce.split('.');
  if (parts.length !== 5 || parts[0] !== 'p1') return { ok: false, problem: 'malformed' };
  const [version, expires, difficultyText, random, given] = parts as [string, string, string, string, string];
  if (!BASE36.test(expires) || !/^[0-9]{1,2}$/.test(difficultyText))
    return { ok: false, problem: 'malformed' };
  if (!constantTimeEqual(mac(secret, [waitlistId, version, expires, difficultyText, random]), given)) {
    return { ok: false, problem: 'forged' };
  }
  const expiresAt = Number.parseInt(expires, 36);
  if (now > expiresAt) return { ok: false, problem: 'expired' };
  const difficulty = Number(difficultyText);
  if (!verifyPow(nonce, solution, difficulty)) return { ok: false, problem: 'unsolved' };
  return { ok: true, id: `p:${given}`, expiresAt, difficulty };
}
