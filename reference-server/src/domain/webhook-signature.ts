/**
 * The Standard Webhooks signature (docs/webhooks.md#signatures): HMAC-SHA256, keyed with the base64-decoded
 * part of the `whsec_` secret, over `id.timestamp.body`, sent as `v1,<base64>`.
 */
import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';

/** A new endpoint secret: `whsec_` and 24 random bytes in base64. */
export function newWebhookSecret(): string {
  return PREFIX + randomBytes(24).toString('base64');
}

export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
  const mac = createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}
