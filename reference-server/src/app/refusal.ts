/**
 * How a use case says no: the contract's error code and a message for a person, and when a
 * retry can help, after how many seconds. The doors choose the status, the headers, the page.
 */
import type { ErrorCode } from '@waitlistkit/protocol';

export interface Refusal {
  code: ErrorCode;
  message: string;
  retryAfter?: number;
}

export function refusal(code: ErrorCode, message: string, retryAfter?: number): Refusal {
  return retryAfter === undefined ? { code, message } : { code, message, retryAfter };
}

/**
 * A request body as the door read it: the value, or why it could not be read (413, 415, 400);
 * either way with a digest of what was sent, which tells one request from another.
 */
export type BodyRead = { digest: string } & ({ ok: true; value: unknown } | { ok: false; refusal: Refusal });
