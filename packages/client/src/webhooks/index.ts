/**
 * Receiving the service's webhooks: verify a delivery's Standard Webhooks signature, read its
 * body as a typed event, and sign test deliveries. Usable on its own (`import { webhooks }`) or
 * as `client.webhooks`, the same object, as openai-node and stripe-node offer it: a receiver
 * needs the endpoint's secret, not an API key.
 */
import type { WebhookEvent } from '@waitlistkit/protocol';
import type { WebhookHeaders } from './headers.js';
import { type SignedWebhookHeaders, sign, type WebhookSignInput } from './sign.js';
import { unwrap } from './unwrap.js';
import { type VerifiedWebhook, verify, type WebhookVerifyOptions } from './verify.js';

export type { RawBody } from './body.js';
export type { WebhookHeaders } from './headers.js';
export type { SignedWebhookHeaders, WebhookSignInput } from './sign.js';
export type { VerifiedWebhook, WebhookVerifyOptions } from './verify.js';

export interface Webhooks {
  /**
   * Checks that a delivery is genuine and fresh; throws `WebhookVerificationError` otherwise.
   * `rawBody` must be the body exactly as received, not JSON parsed and serialised again.
   */
  verify(
    rawBody: string | Uint8Array,
    headers: WebhookHeaders,
    secret: string,
    options?: WebhookVerifyOptions,
  ): VerifiedWebhook;
  /**
   * `verify`, then the body parsed as a `WebhookEvent`, typed by its `type`. Throws
   * `WebhookVerificationError`, or `WebhookPayloadError` for a genuine body that is not an event.
   */
  unwrap(
    rawBody: string | Uint8Array,
    headers: WebhookHeaders,
    secret: string,
    options?: WebhookVerifyOptions,
  ): WebhookEvent;
  /** The headers the service would send with `body`, signed with `secret`: for tests. */
  sign(input: WebhookSignInput, secret: string): SignedWebhookHeaders;
}

/** Frozen and free of `this`: shared by every client, and its methods can be passed around alone. */
export const webhooks: Webhooks = Object.freeze({ verify, unwrap, sign });
