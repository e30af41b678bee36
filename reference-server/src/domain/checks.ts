/**
 * The order of checks, contract §2, as data. A handler supplies one function per named check;
 * `runChecks` calls them in the contract's order and stops at the first refusal, so the order
 * lives here once and cannot drift between handlers.
 */
import { ERROR_STATUS, type ErrorCode } from '@waitlistkit/protocol';

export interface Outcome {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export const API_CREATE_ORDER = [
  'auth', // 401
  'key_budget', // 429, counted for every authenticated request
  'plan', // 403 feature_not_allowed
  'scope', // 403 insufficient_scope
  'waitlist', // 404: missing, archived, or another tenant's
  'body', // 400
  'email_throttle', // 429
  'disposable', // 400 invalid_email
  'mx', // 400 invalid_email
  'geo', // 403 geo_restricted
] as const;

export const API_LIST_ORDER = ['auth', 'key_budget', 'plan', 'scope', 'waitlist', 'query'] as const;

export const PUBLIC_ORDER = [
  'waitlist', // 404 (and the origin below: one status for every refusal)
  'origin', // 404
  'ip_throttle', // 429, counts every request that got past 404
  'body', // 413 / 415 / 400
  'challenge', // 428
  'pow', // 428
  'redeem', // 428 when a concurrent request redeemed the same token first
  'email_throttle', // 429
  'disposable', // 400
  'mx', // 400; no DNS lookup before the gates are passed
  'geo', // 403
] as const;

export type Check<C> = (context: C) => Outcome | undefined | Promise<Outcome | undefined>;

export async function runChecks<N extends string, C>(
  order: readonly N[],
  checks: Record<N, Check<C>>,
  context: C,
): Promise<Outcome | undefined> {
  for (const name of order) {
    const refusal = await checks[name](context);
    if (refusal) return refusal;
  }
  return undefined;
}

export function errorOutcome(code: ErrorCode, message: string, headers?: Record<string, string>): Outcome {
  return headers
    ? { status: ERROR_STATUS[code], body: { error: { code, message } }, headers }
    : { status: ERROR_STATUS[code], body: { error: { code, message } } };
}
