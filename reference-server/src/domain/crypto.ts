/** The two digests the service compares secrets with, written once. */
import { createHash, timingSafeEqual } from 'node:crypto';

/** SHA-256 as lower-case hex: how API keys and session ids are stored. */
export function sha256Hex(value: string | Uint8Array): string {
  return createHash('sha256').update(value).digest('hex');
}

/** Equal strings, in time that does not depend on where they differ. */
export function constantTimeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
