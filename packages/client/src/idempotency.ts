/**
 * `Idempotency-Key` (docs/protocol.md#idempotency-key). Every POST carries one, made once per call and sent with
 * each of the call's attempts, so the service recognises a retry as the same request: a retried
 * admission can never admit twice, even when the first attempt went through and only its answer
 * was lost. The service keeps the first answer 24 hours per key and API key.
 */
import { Header, parseIdempotencyKey } from '@waitlistkit/protocol';

/** A fresh key: a random UUID, from the Web Crypto API every supported runtime has. */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}

/** Throws a `TypeError` unless `value` is a key the service accepts and HTTP carries intact. */
export function checkIdempotencyKey(value: unknown): void {
  if (typeof value !== 'string') {
    throw new TypeError(
      `\`idempotencyKey\` must be a string, not ${value === null ? 'null' : typeof value}.`,
    );
  }
  if (!parseIdempotencyKey(value).ok) {
    throw new TypeError('`idempotencyKey` must be 1 to 255 printable ASCII characters.');
  }
  // The service allows them, but HTTP strips spaces around a header value in transit: the key
  // the service saw would not be the one given, and " a" and "a" would be one key.
  if (value.startsWith(' ') || value.endsWith(' ')) {
    throw new TypeError('`idempotencyKey` must not begin or end with a space: HTTP drops those in transit.');
  }
}

/** Whether the answer is the kept answer to an earlier request with the same key. */
export function wasReplayed(headers: Headers): boolean {
  return headers.get(Header.idempotentReplayed)?.toLowerCase() === 'true';
}
