/**
 * Everything `subscribe()` throws. One base class carries what a caller branches on (`status`,
 * `code`, `retryAfter`); the subclasses name the cases a form treats differently, with the
 * names the client gives the same failures (the protocol's `ErrorName`).
 */
import { type ErrorCode, ErrorName, type Gate } from '@waitlistkit/protocol';

/** The contract's codes, plus the cases where no contract body arrives. */
export type WaitlistErrorCode =
  | ErrorCode
  | 'network_error'
  | 'too_many_rounds'
  | 'aborted'
  | 'unexpected_response';

export class WaitlistError extends Error {
  // `declare`: assigned in the constructor only, so no field definitions in the bundle.
  /** The HTTP status; 0 when no readable answer arrived (network failure, abort). */
  declare readonly status: number;
  declare readonly code: WaitlistErrorCode;
  /** Seconds to wait before trying again (429's `Retry-After`). */
  declare readonly retryAfter: number | undefined;

  constructor(message: string, status: number, code: WaitlistErrorCode, retryAfter?: number) {
    super(message);
    this.status = status;
    this.code = code;
    this.retryAfter = retryAfter;
  }
}

/** 400 `invalid_email`: syntax, disposable domain or no MX. Shown at the field. */
export class InvalidEmailError extends WaitlistError {}

/** 400 `invalid_request`, 413 or 415: the request itself was refused; resending will not help. */
export class InvalidRequestError extends WaitlistError {}

/** 403 `geo_restricted`: the waitlist does not accept sign-ups from the visitor's country. */
export class GeoRestrictedError extends WaitlistError {}

/**
 * 404: the waitlist id is wrong or archived, or the page's origin is not on the waitlist's
 * allowlist (the service answers all of them alike). Cross-origin, this 404 reaches the page
 * as a CORS failure; `subscribe()` tells it from an unreachable server with a probe.
 * The message says what to fix.
 */
export class NotFoundError extends WaitlistError {}

/** 429: too many requests from this address; `retryAfter` says when to try again. */
export class RateLimitError extends WaitlistError {}

/** 5xx after the retries with backoff. */
export class InternalServerError extends WaitlistError {}

/** No answer from the server (offline, DNS, server down) after the retries. */
export class ConnectionError extends WaitlistError {}

/** The service kept answering 428 for one gate: tokens or nonces were refused too many times. */
export class TooManyRoundsError extends WaitlistError {
  declare readonly gate: Gate;

  constructor(gate: Gate, rounds: number) {
    super(`The ${gate} gate was still not passed after ${rounds} rounds.`, 428, 'too_many_rounds');
    this.gate = gate;
  }
}

/** The caller's signal aborted the sign-up; workers and requests were stopped. */
export class AbortError extends WaitlistError {
  constructor() {
    super('The sign-up was aborted.', 0, 'aborted');
  }
}

/**
 * Names, for the npm builds: their users read `name` (in logs, in a `switch`) after their own
 * minifier has renamed the classes. On the prototype, where the platform's errors keep theirs.
 * The script tag exports no error, and its form tells them apart by class, so its bundle
 * (`WAITLIST_NODE` false) goes without.
 */
if (WAITLIST_NODE) {
  const names: [new (...args: never[]) => WaitlistError, string][] = [
    [WaitlistError, ErrorName.WaitlistError],
    [InvalidEmailError, ErrorName.InvalidEmailError],
    [InvalidRequestError, ErrorName.InvalidRequestError],
    [GeoRestrictedError, ErrorName.GeoRestrictedError],
    [NotFoundError, ErrorName.NotFoundError],
    [RateLimitError, ErrorName.RateLimitError],
    [InternalServerError, ErrorName.InternalServerError],
    [ConnectionError, ErrorName.ConnectionError],
    [TooManyRoundsError, 'TooManyRoundsError'],
    [AbortError, ErrorName.AbortError],
  ];
  for (const [Class, name] of names) Class.prototype.name = name;
}
