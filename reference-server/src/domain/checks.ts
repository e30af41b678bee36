/**
 * The order of checks, contract §2, as data. A use case supplies one function per named check;
 * `runChecks` calls them in the contract's order and stops at the first that answers, so the
 * order lives here once and cannot drift between endpoints.
 */
/** What every customer API request passes first, in this order. */
export const API_ACCESS_ORDER = [
  'auth', // 401
  'key_budget', // 429, counted for every authenticated request
  'plan', // 403 feature_not_allowed
  'scope', // 403 insufficient_scope
  'waitlist', // 404: missing, archived, or another tenant's
] as const;

export const API_CREATE_ORDER = [
  ...API_ACCESS_ORDER,
  'body', // 400
  'email_throttle', // 429
  'disposable', // 400 invalid_email
  'mx', // 400 invalid_email
  'geo', // 403 geo_restricted
] as const;

export const API_LIST_ORDER = [...API_ACCESS_ORDER, 'query'] as const;
/** GET and DELETE of one subscriber: an unknown id, or one of another waitlist, is a 404 too. */
export const API_SUBSCRIBER_ORDER = [...API_ACCESS_ORDER, 'subscriber'] as const;
export const API_ADMIT_ORDER = [...API_ACCESS_ORDER, 'body'] as const;

export const PUBLIC_ORDER = [
  'waitlist', // 404 (and the origin below: one status for every refusal)
  'origin', // 404
  'ip_throttle', // 429, counts every request that got past 404
  'body', // 413 / 415 / 400
  'challenge', // 428
  'pow', // 428
  // The gates' tokens are redeemed in the sign-up's own write (a 428 when a concurrent request
  // redeemed one first), or with the refusal of a check below: spent either way once passed.
  'email_throttle', // 429
  'disposable', // 400
  'mx', // 400; no DNS lookup before the gates are passed
  'geo', // 403
] as const;

/** `POST .../gates` (contract §16): the subscribe endpoint's 404 and per-IP checks, then its own body. */
export const GATES_ORDER = [
  'waitlist', // 404
  'origin', // 404
  'ip_throttle', // 429, the same budget as subscribe
  'gates_body', // 413 / 415 / 400: `{}` and nothing else
] as const;

/** A check: undefined to go on, anything else is the answer. */
export type Check<C, A> = (context: C) => A | undefined | Promise<A | undefined>;

export async function runChecks<N extends string, C, A>(
  order: readonly N[],
  checks: Record<N, Check<C, A>>,
  context: C,
): Promise<A | undefined> {
  for (const name of order) {
    const answer = await checks[name](context);
    if (answer !== undefined) return answer;
  }
  return undefined;
}
