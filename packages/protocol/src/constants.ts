/** Machine codes of error bodies, docs/protocol.md#errors. */
export const ErrorCode = {
  invalidEmail: 'invalid_email',
  invalidRequest: 'invalid_request',
  unauthorized: 'unauthorized',
  featureNotAllowed: 'feature_not_allowed',
  insufficientScope: 'insufficient_scope',
  geoRestricted: 'geo_restricted',
  notFound: 'not_found',
  payloadTooLarge: 'payload_too_large',
  unsupportedMediaType: 'unsupported_media_type',
  rateLimitExceeded: 'rate_limit_exceeded',
  internalError: 'internal_error',
  idempotencyKeyReused: 'idempotency_key_reused',
  idempotencyKeyInUse: 'idempotency_key_in_use',
  /** The service cannot reach its database for the moment; retry after `Retry-After` seconds. */
  serviceUnavailable: 'service_unavailable',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];
export const ERROR_CODES = /* @__PURE__ */ Object.values(ErrorCode) as [ErrorCode, ...ErrorCode[]];

/** The HTTP status each error code is sent with. */
export const ERROR_STATUS: Readonly<Record<ErrorCode, number>> = {
  invalid_email: 400,
  invalid_request: 400,
  unauthorized: 401,
  feature_not_allowed: 403,
  insufficient_scope: 403,
  geo_restricted: 403,
  not_found: 404,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limit_exceeded: 429,
  internal_error: 500,
  idempotency_key_reused: 422,
  idempotency_key_in_use: 409,
  service_unavailable: 503,
};

/** Gates a public signup can be asked to pass (the `gate` of a 428 body). */
export const Gate = { challenge: 'challenge', pow: 'pow' } as const;
export type Gate = (typeof Gate)[keyof typeof Gate];

export const Scope = { read: 'subscribers:read', write: 'subscribers:write' } as const;
export type Scope = (typeof Scope)[keyof typeof Scope];
export const SCOPES = [Scope.read, Scope.write] as const;

/** Scope sets of the dashboard's key presets. */
export const KEY_PRESETS = {
  full: [Scope.read, Scope.write],
  'read-only': [Scope.read],
} as const satisfies Record<string, readonly Scope[]>;
export type KeyPreset = keyof typeof KEY_PRESETS;

export const Plan = { free: 'free', pro: 'pro', team: 'team' } as const;
export type Plan = (typeof Plan)[keyof typeof Plan];
export const PLANS = [Plan.free, Plan.pro, Plan.team] as const;

export function planAllowsApi(plan: Plan): boolean {
  return plan === Plan.pro || plan === Plan.team;
}

export const PAGE_DEFAULT = 1;
export const LIMIT_DEFAULT = 25;
export const LIMIT_MAX = 200;
/** Longest `q` accepted; no email is longer than 254 characters, so nothing is lost. */
export const QUERY_MAX_LENGTH = 254;
export const BODY_MAX_BYTES = 16 * 1024;

export const TOKEN_TTL_MS = 10 * 60 * 1000;
export const CHALLENGE_DEFAULT_MIN_AGE_MS = 1500;

export const KEY_RATE_LIMIT_DEFAULT = 60;
export const IP_RATE_LIMIT_DEFAULT = 60;
export const EMAIL_THROTTLE_ATTEMPTS = 5;
export const EMAIL_THROTTLE_WINDOW_MS = 60 * 60 * 1000;
export const PUBLIC_RETRY_AFTER_SECONDS = 60;

export const REFERRAL_BOOST_MAX = 100;

/** Headers of the contract: the per-key budget, every 429, idempotency and request ids (docs/protocol.md#idempotency-and-request-ids). */
export const Header = {
  retryAfter: 'Retry-After',
  rateLimitLimit: 'RateLimit-Limit',
  rateLimitRemaining: 'RateLimit-Remaining',
  rateLimitReset: 'RateLimit-Reset',
  idempotencyKey: 'Idempotency-Key',
  idempotentReplayed: 'Idempotent-Replayed',
  requestId: 'Request-Id',
  /** `on` on a public 202 when the waitlist confirms emails (docs/subscribers.md#email-confirmation): "check your inbox". */
  confirmEmail: 'Waitlist-Confirm-Email',
} as const;

/** `Idempotency-Key`: 1..255 printable ASCII characters (docs/protocol.md#idempotency-key). */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;
/** How long the first answer to an `Idempotency-Key` is kept. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** `Request-Id`: `req_` and 16 or more URL-safe characters. */
export const REQUEST_ID_PATTERN = /^req_[A-Za-z0-9_-]{16,}$/;

/** A subscriber is in line (`waiting`) or let in (`admitted`), docs/subscribers.md#lifecycle. */
export const SubscriberStatus = { waiting: 'waiting', admitted: 'admitted' } as const;
export type SubscriberStatus = (typeof SubscriberStatus)[keyof typeof SubscriberStatus];
export const SUBSCRIBER_STATUSES = [SubscriberStatus.waiting, SubscriberStatus.admitted] as const;
/** Most subscribers one admission lets in, by count or by ids. */
export const ADMISSION_MAX = 1000;

/** Id prefixes of the service's resources. */
export const IdPrefix = {
  tenant: 'ten_',
  operator: 'op_',
  waitlist: 'wl_',
  key: 'key_',
  subscriber: 'sub_',
  webhook: 'wh_',
  delivery: 'dlv_',
} as const;

/** Event types of webhook deliveries (docs/webhooks.md#events, docs/subscribers.md#email-confirmation for `subscriber.confirmed`). */
export const WebhookEventType = {
  subscriberCreated: 'subscriber.created',
  subscriberConfirmed: 'subscriber.confirmed',
  subscriberAdmitted: 'subscriber.admitted',
  subscriberDeleted: 'subscriber.deleted',
  referralCredited: 'referral.credited',
} as const;
export type WebhookEventType = (typeof WebhookEventType)[keyof typeof WebhookEventType];
export const WEBHOOK_EVENT_TYPES = /* @__PURE__ */ Object.values(WebhookEventType) as [
  WebhookEventType,
  ...WebhookEventType[],
];

/**
 * Headers of a webhook delivery, as the Standard Webhooks specification names them. Lower case:
 * HTTP header names are case-insensitive, and Node presents received ones in lower case.
 */
export const WebhookHeader = {
  id: 'webhook-id',
  timestamp: 'webhook-timestamp',
  signature: 'webhook-signature',
} as const;
export type WebhookHeader = (typeof WebhookHeader)[keyof typeof WebhookHeader];

/** An endpoint's signing secret: this prefix, then the standard base64 of the key's bytes. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
/** Random bytes in a secret the service issues (32 base64 characters after the prefix). */
export const WEBHOOK_SECRET_BYTES = 24;
/** `webhook-id` values start with this; the id is the same for every attempt of one message. */
export const WEBHOOK_MESSAGE_ID_PREFIX = 'msg_';
/** The only signature scheme in use: symmetric HMAC-SHA256, written `v1,<base64>`. */
export const WEBHOOK_SIGNATURE_VERSION = 'v1';
/**
 * How far `webhook-timestamp` may be from the receiver's clock, either way, in seconds. The
 * Standard Webhooks default: long enough for clock skew, short enough to make replays useless.
 */
export const WEBHOOK_TOLERANCE_SECONDS = 5 * 60;
