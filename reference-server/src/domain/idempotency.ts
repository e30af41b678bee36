/**
 * Idempotency-Key (docs/protocol.md#idempotency-key), as a decision over what is kept for a key: pure, so the rule
 * is tested with any clock. The first answer to a key is kept 24 hours; a retry with the same
 * request gets it again, a different request under the same key is refused (422), and one still
 * running is refused too (409), unless it has run so long that its server must have died.
 */
import { ErrorCode, IDEMPOTENCY_TTL_MS } from '@waitlistkit/protocol';

/** A request that has not finished after this long is taken to be lost (its server died). */
export const ABANDONED_AFTER_MS = 60_000;

export interface KeptRequest {
  requestHash: string;
  state: 'in_progress' | 'done';
  /** The kept answer, once done. */
  answer: string | null;
  createdAt: number;
}

export type IdempotencyDecision =
  | { kind: 'run' }
  | { kind: 'replay'; answer: string }
  | { kind: 'reused' }
  | { kind: 'in_use' };

export function decide(kept: KeptRequest | undefined, requestHash: string, now: number): IdempotencyDecision {
  if (!kept || now >= kept.createdAt + IDEMPOTENCY_TTL_MS) return { kind: 'run' };
  if (kept.requestHash !== requestHash) return { kind: 'reused' };
  if (kept.state === 'done' && kept.answer !== null) return { kind: 'replay', answer: kept.answer };
  return now >= kept.createdAt + ABANDONED_AFTER_MS ? { kind: 'run' } : { kind: 'in_use' };
}

/**
 * Which answers are kept: every success and every refusal but a throttle's (429 says "later",
 * not "no") and an internal error's (500 may go right next time).
 */
export function keeps(refusalCode: ErrorCode | undefined): boolean {
  return refusalCode !== ErrorCode.rateLimitExceeded && refusalCode !== ErrorCode.internalError;
}
