import { BASE62_ALPHABET, IdPrefix, randomString } from '@waitlistkit/protocol';

export type IdKind = keyof typeof IdPrefix;

/** A new id: the kind's prefix and 16 base62 characters (95 bits, no coordination needed). */
export function newId(kind: IdKind): string {
  return IdPrefix[kind] + randomString(BASE62_ALPHABET, 16);
}

const URL_SAFE = `${BASE62_ALPHABET}-_`;

/**
 * A capability token (a status page's, a confirmation link's): 24 URL-safe characters, 144
 * random bits (docs/subscribers.md#status-page and docs/subscribers.md#email-confirmation ask for ≥ 128).
 */
export function newCapabilityToken(): string {
  return randomString(URL_SAFE, 24);
}

/** A request's id (docs/protocol.md#request-id): `req_` and 20 URL-safe characters. */
export function newRequestId(): string {
  return `req_${randomString(URL_SAFE, 20)}`;
}

/** A webhook message's id (docs/webhooks.md#delivery), stable across its retries: `msg_` and 24 URL-safe characters. */
export function newMessageId(): string {
  return `msg_${randomString(BASE62_ALPHABET, 24)}`;
}
