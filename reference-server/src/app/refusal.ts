/**
 * How a use case says no: a value, never a throw. A code and a message for a person, and when a
 * retry can help, after how many seconds; where it concerns one input, the input (`field`) and
 * the value that fixes it (`remedy`). The doors choose the status, the headers, the page, the
 * exit code, each in one place. What is thrown is not a refusal: a bug, or the database away.
 */
import type { ErrorCode } from '@waitlistkit/protocol';

/** The protocol's codes, and the two only operators meet: a member's attempt, a clash with what exists. */
export type RefusalCode = ErrorCode | 'forbidden' | 'conflict';

export interface Refusal<C extends RefusalCode = ErrorCode> {
  code: C;
  message: string;
  retryAfter?: number;
  /** The input it concerns: a setting's key, `email`, `count`. */
  field?: string;
  /** The value of `field` that would fix it (an empty list: `''`). */
  remedy?: string;
}

export function refusal(code: ErrorCode, message: string, retryAfter?: number): Refusal {
  return retryAfter === undefined ? { code, message } : { code, message, retryAfter };
}

/**
 * A request body as the door read it: the value, or why it could not be read (413, 415, 400);
 * either way with a digest of what was sent, which tells one request from another.
 */
export type BodyRead = { digest: string } & ({ ok: true; value: unknown } | { ok: false; refusal: Refusal });

// ------------------------------------------------------------------ what operators are told

/** The refusals of the use cases operators reach, through the dashboard or the command line. */
export type OperatorRefusal = Refusal<
  'invalid_request' | 'not_found' | 'forbidden' | 'feature_not_allowed' | 'conflict' | 'rate_limit_exceeded'
>;

/** What an operator's use case answers: its value, or why not. */
export type Result<T> = { ok: true; value: T } | { ok: false; refusal: OperatorRefusal };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const refuse = (refusal: OperatorRefusal): Result<never> => ({ ok: false, refusal });

/** Not there, or another tenant's: the same answer, so ids of other tenants tell nothing. */
export const notFound = (what: string, id: string): OperatorRefusal => ({
  code: 'not_found',
  message: `No ${what} with id ${JSON.stringify(id)}.`,
});
export const forbidden = (message: string): OperatorRefusal => ({ code: 'forbidden', message });
export const featureNotAllowed = (message: string): OperatorRefusal => ({
  code: 'feature_not_allowed',
  message,
});
export const invalid = (message: string, field?: string): OperatorRefusal =>
  field === undefined ? { code: 'invalid_request', message } : { code: 'invalid_request', message, field };
export const throttled = (message: string, retryAfter: number): OperatorRefusal => ({
  code: 'rate_limit_exceeded',
  message,
  retryAfter,
});
export const conflict = (message: string, field?: string): OperatorRefusal =>
  field === undefined ? { code: 'conflict', message } : { code: 'conflict', message, field };

/**
 * The value of a result whose refusal would be a bug of the caller's own (the demo's fixed
 * inputs): thrown as one, not answered.
 */
export function must<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`Refused (${result.refusal.code}): ${result.refusal.message}`);
  return result.value;
}
