/**
 * Proof of Work, docs/gates.md#proof-of-work: SHA-256 over the UTF-8 bytes of `nonce + ":" + solution`,
 * `solution` in decimal without leading zeros; the digest must begin with at least
 * `difficulty` zero bits, counted from the most significant bit of the first byte.
 */
import { sha256Finish, sha256Midstate, utf8 } from './sha256.js';

export const POW_MIN_DIFFICULTY = 1;
export const POW_MAX_DIFFICULTY = 32;
export const POW_DEFAULT_DIFFICULTY = 18;
/** Solutions are integers in [0, 2^53); JavaScript numbers represent all of them exactly. */
export const POW_MAX_SOLUTION = Number.MAX_SAFE_INTEGER;
export const POW_NONCE_MAX_LENGTH = 256;

export function powInput(nonce: string, solution: number): string {
  return `${nonce}:${solution}`;
}

export function isPowSolution(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

export function isPowDifficulty(value: unknown): value is number {
  return (
    Number.isInteger(value) &&
    (value as number) >= POW_MIN_DIFFICULTY &&
    (value as number) <= POW_MAX_DIFFICULTY
  );
}

export function leadingZeroBits(digest: Uint8Array): number {
  let bits = 0;
  for (const byte of digest) {
    if (byte === 0) {
      bits += 8;
      continue;
    }
    return bits + Math.clz32(byte) - 24;
  }
  return bits;
}

export function powDigest(nonce: string, solution: number): Uint8Array {
  return sha256Finish(sha256Midstate(utf8(`${nonce}:`)), utf8(String(solution)));
}

/** True when `solution` is a well-formed solution whose digest clears `difficulty`. */
export function verifyPow(nonce: string, solution: number, difficulty: number): boolean {
  if (!isPowSolution(solution) || !isPowDifficulty(difficulty)) return false;
  return leadingZeroBits(powDigest(nonce, solution)) >= difficulty;
}

export interface SolvePowOptions {
  /** First solution to try. */
  start?: number;
  /** How many solutions to try before giving up. */
  attempts?: number;
}

/**
 * Reference solver: tries `start, start + 1, …` and returns the first solution that clears
 * `difficulty`, or `undefined` when `attempts` run out. Hashes the `nonce:` prefix once.
 * Deliberately simple; the widget ships the fast, parallel solver.
 */
export function solvePow(
  nonce: string,
  difficulty: number,
  { start = 0, attempts = POW_MAX_SOLUTION }: SolvePowOptions = {},
): number | undefined {
  if (!isPowDifficulty(difficulty)) throw new RangeError(`difficulty must be 1..32, got ${difficulty}`);
  const mid = sha256Midstate(utf8(`${nonce}:`));
  const end = Math.min(start + attempts, POW_MAX_SOLUTION + 1);
  for (let solution = start; solution < end; solution++) {
    if (leadingZeroBits(sha256Finish(mid, utf8(String(solution)))) >= difficulty) return solution;
  }
  return undefined;
}
