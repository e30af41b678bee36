/** Checking a delivery's headers and signature (docs/webhooks.md#signatures, Standard Webhooks). */
import { WEBHOOK_TOLERANCE_SECONDS, WebhookHeader } from '@waitlistkit/protocol';
import { WebhookVerificationError } from '../errors.js';
import { checkRawBody } from './body.js';
import { readHeader, type WebhookHeaders } from './headers.js';
import { decodeSecret } from './secret.js';
import { computeSignature, matchesAny } from './signature.js';

export interface WebhookVerifyOptions {
  /**
   * Seconds `webhook-timestamp` may be from `now`, either way. Default 300 (5 minutes), the
   * Standard Webhooks default: clocks may differ a little, while a captured delivery replayed
   * later is refused.
   */
  tolerance?: number;
  /** The time to compare `webhook-timestamp` with; the current time by default. For tests. */
  now?: Date;
}

/** What the verified headers say, both covered by the signature and so safe to rely on. */
export interface VerifiedWebhook {
  /** `webhook-id`: the message id, the same in every attempt of one delivery; deduplicate on it. */
  id: string;
  /** `webhook-timestamp`: Unix seconds of this attempt. */
  timestamp: number;
}

// Decimal Unix seconds; 15 digits stay far inside Number's exact integers.
const UNIX_SECONDS = /^[0-9]{1,15}$/;

function fail(reason: WebhookVerificationError['reason'], message: string): never {
  throw new WebhookVerificationError(reason, message);
}

function nowSeconds(options: WebhookVerifyOptions): number {
  const { now, tolerance } = options;
  if (tolerance !== undefined && !(typeof tolerance === 'number' && tolerance >= 0 && tolerance < Infinity)) {
    throw new TypeError('webhooks: `tolerance` must be a number of seconds, 0 or more.');
  }
  if (now !== undefined && !(now instanceof Date && !Number.isNaN(now.getTime()))) {
    throw new TypeError('webhooks: `now` must be a valid Date.');
  }
  return Math.floor((now?.getTime() ?? Date.now()) / 1000);
}

/**
 * Verifies a delivery: the three headers, the timestamp within the tolerance, and one `v1`
 * signature made with `secret` over `id.timestamp.body`. Throws `WebhookVerificationError`
 * (with its `reason`) otherwise, or `TypeError` for arguments of the wrong kind.
 */
export function verify(
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string,
  options: WebhookVerifyOptions = {},
): VerifiedWebhook {
  checkRawBody('verify', rawBody);
  if (typeof headers !== 'object' || headers === null) {
    throw new TypeError("webhooks.verify: `headers` must be the request's headers: a Headers or an object.");
  }
  const now = nowSeconds(options);
  const tolerance = options.tolerance ?? WEBHOOK_TOLERANCE_SECONDS;
  // The secret first: when it is wrong every delivery fails, and the reason should say so.
  const decoded = decodeSecret(secret);
  if (!decoded.ok) fail('invalid_secret', decoded.problem);

  const id = readHeader(headers, WebhookHeader.id);
  const timestamp = readHeader(headers, WebhookHeader.timestamp);
  const signature = readHeader(headers, WebhookHeader.signature);
  const missing = [
    [WebhookHeader.id, id],
    [WebhookHeader.timestamp, timestamp],
    [WebhookHeader.signature, signature],
  ].flatMap(([name, value]) => (value === undefined ? [`\`${name}\``] : []));
  if (id === undefined || timestamp === undefined || signature === undefined) {
    fail(
      'missing_header',
      `The delivery lacks the ${missing.join(', ')} header${missing.length > 1 ? 's' : ''}.`,
    );
  }

  if (!UNIX_SECONDS.test(timestamp)) {
    fail('invalid_timestamp', '`webhook-timestamp` is not Unix seconds in decimal.');
  }
  const sent = Number(timestamp);
  if (now - sent > tolerance) {
    fail(
      'timestamp_too_old',
      `\`webhook-timestamp\` is ${now - sent} s old, more than the tolerance of ${tolerance} s.`,
    );
  }
  if (sent - now > tolerance) {
    fail(
      'timestamp_too_new',
      `\`webhook-timestamp\` is ${sent - now} s ahead of this clock, more than the tolerance of ${tolerance} s.`,
    );
  }

  if (!matchesAny(signature, computeSignature(decoded.key, id, timestamp, rawBody))) {
    fail(
      'no_matching_signature',
      'No signature in `webhook-signature` matches the body: it was altered, or signed with another secret.',
    );
  }
  return { id, timestamp: sent };
}
