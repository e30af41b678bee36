/**
 * Everything the client throws. The tree follows the service's answers: one class per HTTP
 * status, and beneath it one class per error code where a status has several meanings (400,
 * 403) or where only the code says what to do (409 and 422: the idempotency codes, of which the
 * in-use one is retried, while a bare 409 from something in between is not). A body that is not
 * the contract's error body still yields the status's class, with `code` undefined, so callers
 * never have to parse anything themselves. The failures the widget meets too are named as the
 * protocol's `ErrorName` says, so the two packages speak of them alike.
 *
 * No error carries request or response bodies: list answers hold subscribers' addresses, and
 * errors end up in logs.
 */
import { type ApiKeyProblem, type ErrorCode, ErrorName } from '@waitlistkit/protocol';
import { type RateLimit, readRateLimit } from './rate-limit.js';
import { readRequestId } from './request-id.js';

export interface WaitlistErrorOptions extends ErrorOptions {
  requestId?: string | undefined;
}

/** Root of every error the client throws, so one `instanceof` catches them all. */
export class WaitlistError extends Error {
  override name: string = ErrorName.WaitlistError;
  /**
   * The `Request-Id` of the answer that caused the error, to quote when asking the service's
   * operators (it is in their log line for the request). `undefined` when there was no answer
   * (connection failures, timeouts, aborts, bad options) or the answer carried none.
   */
  readonly requestId: string | undefined;

  constructor(message?: string, options?: WaitlistErrorOptions) {
    super(message, options);
    this.requestId = options?.requestId;
  }
}

/** The API key given to the constructor is malformed or fails its checksum (docs/protocol.md#api-keys). */
export class InvalidApiKeyError extends WaitlistError {
  override name = 'InvalidApiKeyError';
  readonly problem: ApiKeyProblem;

  constructor(problem: ApiKeyProblem, message: string) {
    super(message);
    this.problem = problem;
  }
}

export interface ApiErrorInit {
  status: number;
  /** The body's machine code, or `undefined` when the body was not the contract's error body. */
  code: ErrorCode | undefined;
  message: string;
  headers: Headers;
}

/** The service answered with a non-2xx status. */
export class WaitlistApiError extends WaitlistError {
  override name = 'WaitlistApiError';
  readonly status: number;
  readonly code: ErrorCode | undefined;
  /** The response's headers. */
  readonly headers: Headers;
  /** The rate-limit headers of the answer. */
  readonly rateLimit: RateLimit;
  /** `Retry-After` in seconds, when the answer carried one (every 429 does). */
  readonly retryAfter: number | undefined;

  constructor({ status, code, message, headers }: ApiErrorInit) {
    super(message, { requestId: readRequestId(headers) });
    this.status = status;
    this.code = code;
    this.headers = headers;
    this.rateLimit = readRateLimit(headers);
    this.retryAfter = this.rateLimit.retryAfter;
  }
}

/** Only the code-specific classes below set `code`; their constructors fix it so it cannot lie. */
type CodedInit = Omit<ApiErrorInit, 'code'>;

/** 400: the request was malformed (`invalid_request`). A programming error; not retried. */
export class InvalidRequestError extends WaitlistApiError {
  override name: string = ErrorName.InvalidRequestError;
}

/**
 * 400 `invalid_email`: the address fails syntax, is on the disposable blocklist, or its domain
 * has no MX. Usually worth showing to the person who typed it.
 */
export class InvalidEmailError extends InvalidRequestError {
  override name: string = ErrorName.InvalidEmailError;
  declare readonly code: 'invalid_email';

  constructor(init: CodedInit) {
    super({ ...init, code: 'invalid_email' });
  }
}

/** 401: the key is unknown or revoked (the service does not say which). */
export class AuthenticationError extends WaitlistApiError {
  override name = 'AuthenticationError';
}

/** 403: the key may not do this. The subclasses tell the reasons apart. */
export class PermissionError extends WaitlistApiError {
  override name = 'PermissionError';
}

/** 403 `feature_not_allowed`: the tenant's plan no longer grants API access. */
export class FeatureNotAllowedError extends PermissionError {
  override name = 'FeatureNotAllowedError';
  declare readonly code: 'feature_not_allowed';

  constructor(init: CodedInit) {
    super({ ...init, code: 'feature_not_allowed' });
  }
}

/** 403 `insufficient_scope`: the key lacks the scope; the message names it. Mint a new key. */
export class InsufficientScopeError extends PermissionError {
  override name = 'InsufficientScopeError';
  declare readonly code: 'insufficient_scope';

  constructor(init: CodedInit) {
    super({ ...init, code: 'insufficient_scope' });
  }
}

/** 403 `geo_restricted`: the waitlist's geo rules refuse the sign-up's country. */
export class GeoRestrictedError extends PermissionError {
  override name: string = ErrorName.GeoRestrictedError;
  declare readonly code: 'geo_restricted';

  constructor(init: CodedInit) {
    super({ ...init, code: 'geo_restricted' });
  }
}

/** 404: the waitlist does not exist, is archived, or belongs to another tenant. */
export class NotFoundError extends WaitlistApiError {
  override name: string = ErrorName.NotFoundError;
}

/** 409: the request conflicts with another. The subclass tells which conflict. */
export class ConflictError extends WaitlistApiError {
  override name = 'ConflictError';
}

/**
 * 409 `idempotency_key_in_use`: a request with the same `Idempotency-Key` is still being
 * processed, typically an earlier attempt of this very call that timed out on the client's side.
 * Retried like a 429 (see retry.ts); thrown once the retries are used up. Repeating the call
 * later with the same `idempotencyKey` is safe: it gets the first request's answer.
 */
export class IdempotencyKeyInUseError extends ConflictError {
  override name = 'IdempotencyKeyInUseError';
  declare readonly code: 'idempotency_key_in_use';

  constructor(init: CodedInit) {
    super({ ...init, code: 'idempotency_key_in_use' });
  }
}

/** 413: the request body is over the service's limit. */
export class PayloadTooLargeError extends WaitlistApiError {
  override name = 'PayloadTooLargeError';
}

/** 415: the request was not sent as JSON. */
export class UnsupportedMediaTypeError extends WaitlistApiError {
  override name = 'UnsupportedMediaTypeError';
}

/** 422: the request was well-formed but cannot be processed. The subclass tells why. */
export class UnprocessableEntityError extends WaitlistApiError {
  override name = 'UnprocessableEntityError';
}

/**
 * 422 `idempotency_key_reused`: the `Idempotency-Key` was used before with a different body.
 * The client never does this with its own keys; a key passed as `idempotencyKey` was given to
 * two different requests. Not retried.
 */
export class IdempotencyKeyReusedError extends UnprocessableEntityError {
  override name = 'IdempotencyKeyReusedError';
  declare readonly code: 'idempotency_key_reused';

  constructor(init: CodedInit) {
    super({ ...init, code: 'idempotency_key_reused' });
  }
}

/** 429: a throttle refused the request. Thrown once retries are used up or `retryAfter` is over the cap. */
export class RateLimitError extends WaitlistApiError {
  override name: string = ErrorName.RateLimitError;
}

/** 5xx: the service failed. Thrown once retries are used up. */
export class InternalServerError extends WaitlistApiError {
  override name: string = ErrorName.InternalServerError;
}

/** No answer: DNS, refused or reset connection, TLS failure. Thrown once retries are used up. */
export class ConnectionError extends WaitlistError {
  override name: string = ErrorName.ConnectionError;
}

/** An attempt took longer than `timeout`. Thrown once retries are used up. */
export class TimeoutError extends ConnectionError {
  override name = 'TimeoutError';
}

/** The caller's `signal` aborted the call; `cause` is the signal's reason. Never retried. */
export class AbortError extends WaitlistError {
  override name: string = ErrorName.AbortError;
}

export interface ResponseValidationInit {
  status: number;
  headers: Headers;
  /** Dotted path of the first offending field, `''` for the body itself. */
  path: string;
  message: string;
}

/**
 * A 2xx answer whose body is not JSON or does not match the protocol schema: the service and
 * this client disagree about the wire. Not retried.
 */
export class ResponseValidationError extends WaitlistError {
  override name = 'ResponseValidationError';
  readonly status: number;
  readonly headers: Headers;
  readonly rateLimit: RateLimit;
  /** Dotted path of the first offending field, e.g. `items.3.position`; `''` for the body itself. */
  readonly path: string;

  constructor({ status, headers, path, message }: ResponseValidationInit) {
    super(message, { requestId: readRequestId(headers) });
    this.status = status;
    this.headers = headers;
    this.rateLimit = readRateLimit(headers);
    this.path = path;
  }
}

/** Why a webhook delivery failed verification; see `WebhookVerificationError`. */
export type WebhookVerificationReason =
  /** `webhook-id`, `webhook-timestamp` or `webhook-signature` is absent or empty. */
  | 'missing_header'
  /** `webhook-timestamp` is not Unix seconds in decimal. */
  | 'invalid_timestamp'
  /** `webhook-timestamp` is further in the past than the tolerance: possibly a replay. */
  | 'timestamp_too_old'
  /** `webhook-timestamp` is further in the future than the tolerance: a clock is wrong. */
  | 'timestamp_too_new'
  /** No `v1` signature in `webhook-signature` matches the body: forged, altered, or another secret. */
  | 'no_matching_signature'
  /** The secret given is not `whsec_` and standard base64: a configuration error on the receiving side. */
  | 'invalid_secret';

/**
 * A webhook delivery could not be verified, so its body must not be trusted. Every reason but
 * `invalid_secret` is the request's fault (answer 400); `invalid_secret` is the receiver's own
 * configuration, and every delivery will fail until it is fixed.
 */
export class WebhookVerificationError extends WaitlistError {
  override name = 'WebhookVerificationError';
  readonly reason: WebhookVerificationReason;

  constructor(reason: WebhookVerificationReason, message: string) {
    super(message);
    this.reason = reason;
  }
}

export interface WebhookPayloadInit {
  /** Dotted path of the first offending field, `''` for the body itself. */
  path: string;
  /** The body's `type` when it was a string, known or not. */
  eventType: string | undefined;
  message: string;
}

/**
 * A delivery whose signature is valid but whose body is not a webhook event this client knows:
 * not JSON, not an event, or (with `eventType` set and not one of `WEBHOOK_EVENT_TYPES`) an event
 * type added to the service after this version of the client. Like the other errors, it carries
 * nothing of the body but the path and the type.
 */
export class WebhookPayloadError extends WaitlistError {
  override name = 'WebhookPayloadError';
  readonly path: string;
  readonly eventType: string | undefined;

  constructor({ path, eventType, message }: WebhookPayloadInit) {
    super(message);
    this.path = path;
    this.eventType = eventType;
  }
}
