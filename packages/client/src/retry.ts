/**
 * When to try again and how long to wait first.
 *
 * Retried: 429, every 5xx, attempts that got no answer (connection failures and timeouts), and
 * 409 `idempotency_key_in_use`, for every method alike. Repeating a POST is safe because each
 * call sends one `Idempotency-Key` with all of its attempts (see idempotency.ts): an attempt
 * that reached the service before its answer was lost is answered again, not done again. A
 * DELETE repeated after its erasure went through answers 404, which the caller sees as
 * `NotFoundError`: the subscriber is gone either way. Anything else is the caller's to fix.
 *
 * Why 409 in-use is retried: the service answers it while an earlier request with the same key
 * is still running, and with the client's own keys that earlier request is this call's previous
 * attempt, typically one the client gave up on at its timeout while the service carried on. The
 * state is transient: once that attempt finishes, a retry gets its kept answer (with
 * `Idempotent-Replayed: true`). So it waits like any transient failure, with backoff, or the
 * answer's `Retry-After` when it has one. A bare 409 without that code is not retried.
 */
import {
  ConnectionError,
  IdempotencyKeyInUseError,
  InternalServerError,
  RateLimitError,
  WaitlistApiError,
  type WaitlistError,
} from './errors.js';

export interface RetryPolicy {
  maxRetries: number;
  /** Longest `Retry-After` waited out, in milliseconds; a longer one fails at once. */
  maxRetryAfter: number;
  /** Source of jitter, `Math.random` outside tests. */
  random: () => number;
}

/** Waits `ms`; rejects with the signal's reason as soon as `signal` aborts. */
export type Sleep = (ms: number, signal: AbortSignal | undefined) => Promise<void>;

const BACKOFF_INITIAL_MS = 500;
const BACKOFF_MAX_MS = 8_000;

export function isRetryable(error: WaitlistError): boolean {
  return (
    error instanceof RateLimitError ||
    error instanceof InternalServerError ||
    error instanceof ConnectionError ||
    error instanceof IdempotencyKeyInUseError
  );
}

/**
 * Exponential backoff with jitter for retry number `retry` (1-based): 0.5 s, 1 s, 2 s … up to
 * 8 s, each scaled by a random factor in [0.5, 1) so that clients failing together do not
 * come back together.
 */
export function backoff(retry: number, random: () => number): number {
  const ceiling = Math.min(BACKOFF_INITIAL_MS * 2 ** (retry - 1), BACKOFF_MAX_MS);
  return ceiling * (0.5 + random() / 2);
}

/**
 * Milliseconds to wait before retry number `retry` (1-based) after `error`, or `undefined` to
 * give up and throw it. A `Retry-After` is obeyed as sent (no jitter: the server chose the
 * moment) unless it is longer than the cap, in which case waiting is pointless and the caller
 * hears at once.
 */
export function retryDelay(error: WaitlistError, retry: number, policy: RetryPolicy): number | undefined {
  if (retry > policy.maxRetries || !isRetryable(error)) return undefined;
  const retryAfter = error instanceof WaitlistApiError ? error.retryAfter : undefined;
  if (retryAfter !== undefined) {
    const ms = retryAfter * 1000;
    return ms <= policy.maxRetryAfter ? ms : undefined;
  }
  return backoff(retry, policy.random);
}

export const sleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
