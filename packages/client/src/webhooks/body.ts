/** The raw body as signed: checked once, so every helper gives the same advice. */
import { isUint8Array } from 'node:util/types';

/** The request body exactly as received. */
export type RawBody = string | Uint8Array;

/**
 * Throws a `TypeError` unless `body` is a string or bytes. The common mistake is passing the
 * body a JSON parser already made into an object: its serialisation need not match the bytes
 * that were signed (spacing, key order, escapes), so it cannot be verified at all.
 */
export function checkRawBody(method: string, body: unknown): asserts body is RawBody {
  // Not `instanceof`: a Buffer made in another realm (a vm context, Jest's sandbox) fails it.
  if (typeof body === 'string' || isUint8Array(body)) return;
  const type = Array.isArray(body) ? 'array' : typeof body;
  const what =
    body === null || body === undefined ? String(body) : `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;
  throw new TypeError(
    `webhooks.${method}: the body must be the request's raw bytes, a string or a Uint8Array (Buffer), not ${what}. ` +
      "Read it before any JSON parser does, e.g. with express.raw({ type: 'application/json' }).",
  );
}
