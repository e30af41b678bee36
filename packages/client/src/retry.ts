/**
 * When to try again and how long to wait first.
 *
 * Retried: 429, every 5xx, and attempts that got no answer (connection failures and
 * timeouts), for GET and for create alike: the service de-duplicates sign-ups by email, so
 * repeating a create cannot make a second subscriber. Anything else is the caller's to fix.
 */
import {
  ConnectionError,
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
    error instanceof ConnectionError
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
