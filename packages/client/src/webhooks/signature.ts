/** The Standard Webhooks `v1` signature: HMAC-SHA256 over `id.timestamp.body`, base64. */
import { Buffer } from 'node:buffer';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { WEBHOOK_SIGNATURE_VERSION } from '@waitlistkit/protocol';
import type { RawBody } from './body.js';

/**
 * The base64 signature of one message. `timestamp` is the header's text as sent, not a number
 * written anew: the sender signed those very characters.
 */
export function computeSignature(key: Buffer, id: string, timestamp: string, body: RawBody): string {
  // Two updates instead of one concatenated string, so a byte body is signed as it is and
  // never passes through a text decoding that could alter it.
  return createHmac('sha256', key).update(`${id}.${timestamp}.`, 'utf8').update(body).digest('base64');
}

/**
 * Whether any `v1,<signature>` entry of a `webhook-signature` header equals `expected`. Entries
 * are separated by spaces; entries of other versions (and a trailing comma, left by `Headers`
 * joining repeated header lines) are ignored. Each comparison takes the same time whatever the
 * bytes, so a forger learns nothing from how long a refusal took.
 */
export function matchesAny(header: string, expected: string): boolean {
  const wanted = Buffer.from(expected, 'utf8');
  let found = false;
  for (const entry of header.split(/\s+/)) {
    const comma = entry.indexOf(',');
    if (comma === -1 || entry.slice(0, comma) !== WEBHOOK_SIGNATURE_VERSION) continue;
    const given = Buffer.from(entry.slice(comma + 1).replace(/,$/, ''), 'utf8');
    // Lengths may differ in time: every genuine signature has the same, public, length.
    if (given.length === wanted.length && timingSafeEqual(given, wanted)) found = true;
  }
  return found;
}
