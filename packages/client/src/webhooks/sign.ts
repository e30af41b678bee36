/** Signing a delivery as the service does, for tenants' tests of their own endpoints. */
import { randomBytes } from 'node:crypto';
import { WEBHOOK_MESSAGE_ID_PREFIX, WEBHOOK_SIGNATURE_VERSION, WebhookHeader } from '@waitlistkit/protocol';
import { checkRawBody } from './body.js';
import { decodeSecret } from './secret.js';
import { computeSignature } from './signature.js';

export interface WebhookSignInput {
  /** The body to send, exactly as it will be sent. */
  body: string | Uint8Array;
  /** `webhook-id`; a fresh `msg_…` id by default. */
  id?: string;
  /** The attempt's time: a `Date`, or Unix seconds (not milliseconds); now by default. */
  timestamp?: Date | number;
}

/**
 * The headers of a signed delivery, ready for `fetch`, `new Headers(…)`, a test client or
 * `verify`. A type alias, not an interface: only aliases count as `Record<string, string>`,
 * which is what those take.
 */
export type SignedWebhookHeaders = {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
};

// A header value: visible ASCII, so nothing in between rewrites or rejects it.
const HEADER_SAFE = /^[\x21-\x7e]+$/;

function seconds(timestamp: Date | number | undefined): number {
  if (timestamp === undefined) return Math.floor(Date.now() / 1000);
  if (timestamp instanceof Date) {
    const ms = timestamp.getTime();
    if (Number.isNaN(ms)) throw new TypeError('webhooks.sign: `timestamp` is an invalid Date.');
    return Math.floor(ms / 1000);
  }
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new TypeError('webhooks.sign: `timestamp` must be a Date or whole Unix seconds.');
  }
  return timestamp;
}

/**
 * The headers the service would send with `body`: `webhook-id`, `webhook-timestamp` and a
 * `v1` signature made with `secret`. Invalid arguments, a malformed secret included, throw
 * `TypeError`: signing happens in tests, where there is no sender to blame.
 */
export function sign(input: WebhookSignInput, secret: string): SignedWebhookHeaders {
  if (typeof input !== 'object' || input === null) {
    throw new TypeError('webhooks.sign: the first argument must be `{ body, id?, timestamp? }`.');
  }
  checkRawBody('sign', input.body);
  const id = input.id ?? `${WEBHOOK_MESSAGE_ID_PREFIX}${randomBytes(16).toString('base64url')}`;
  if (typeof id !== 'string' || !HEADER_SAFE.test(id)) {
    throw new TypeError('webhooks.sign: `id` must be a non-empty string of visible ASCII characters.');
  }
  const timestamp = String(seconds(input.timestamp));
  const decoded = decodeSecret(secret);
  if (!decoded.ok) throw new TypeError(`webhooks.sign: ${decoded.problem}`);
  const signature = computeSignature(decoded.key, id, timestamp, input.body);
  return {
    [WebhookHeader.id]: id,
    [WebhookHeader.timestamp]: timestamp,
    [WebhookHeader.signature]: `${WEBHOOK_SIGNATURE_VERSION},${signature}`,
  };
}
