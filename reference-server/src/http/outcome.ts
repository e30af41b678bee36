/**
 * An HTTP answer: status, JSON body, headers. The use cases say what happened; this is where it
 * becomes a status (docs/protocol.md#errors: the code decides it) and a Retry-After header.
 */
import { ERROR_STATUS, ErrorCode, Header } from '@waitlistkit/protocol';
import type { Refusal } from '../app/refusal.js';

export interface Outcome {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export function errorOutcome(code: ErrorCode, message: string, headers?: Record<string, string>): Outcome {
  return headers
    ? { status: ERROR_STATUS[code], body: { error: { code, message } }, headers }
    : { status: ERROR_STATUS[code], body: { error: { code, message } } };
}

export function refusalOutcome(refusal: Refusal, headers: Record<string, string> = {}): Outcome {
  const all =
    refusal.retryAfter === undefined
      ? headers
      : { ...headers, [Header.retryAfter]: String(refusal.retryAfter) };
  return errorOutcome(refusal.code, refusal.message, Object.keys(all).length > 0 ? all : undefined);
}

/** The store could not do the work (its database away or busy): nothing was done; retry after `retryAfter` s. */
export function unavailableOutcome(retryAfter: number): Outcome {
  return errorOutcome(
    ErrorCode.serviceUnavailable,
    'The service cannot reach its database just now; nothing was done. Try again shortly.',
    { [Header.retryAfter]: String(retryAfter) },
  );
}
