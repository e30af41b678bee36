/**
 * One vocabulary for the failures the widget and the client both report: each package throws a
 * class of this name (and `name`) for the failure, so a page and a server that use both catch
 * the same names. The classes are each package's own: the client's carry the answer's HTTP
 * details (headers, rate limit, request id), the widget's only what a form shows. Failures that
 * only one of them meets (the client's 401, the widget's gate rounds) are named there alone.
 */
export const ErrorName = {
  /** The root: everything either package throws for a failed call is one. */
  WaitlistError: 'WaitlistError',
  /** 400 `invalid_email`: syntax, disposable domain or no MX; worth showing to whoever typed it. */
  InvalidEmailError: 'InvalidEmailError',
  /** 400 `invalid_request`: the request itself was refused; resending will not help. */
  InvalidRequestError: 'InvalidRequestError',
  /** 403 `geo_restricted`: the waitlist does not accept sign-ups from the country. */
  GeoRestrictedError: 'GeoRestrictedError',
  /** 404: no such waitlist (or subscriber) here, or, for the public endpoint, an origin not allowed. */
  NotFoundError: 'NotFoundError',
  /** 429: a throttle refused the request; `retryAfter` says when to try again. */
  RateLimitError: 'RateLimitError',
  /** 5xx, once the retries are used up. */
  InternalServerError: 'InternalServerError',
  /** No answer (offline, DNS, refused or reset connection), once the retries are used up. */
  ConnectionError: 'ConnectionError',
  /** The caller's `signal` aborted the call; never retried. The web platform's name for it too. */
  AbortError: 'AbortError',
} as const;
export type ErrorName = (typeof ErrorName)[keyof typeof ErrorName];
