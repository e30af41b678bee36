/** The signing key inside an endpoint's secret (docs/webhooks.md#signatures: `whsec_` + base64 of random bytes). */
import { Buffer } from 'node:buffer';
import { WEBHOOK_SECRET_PREFIX } from '@waitlistkit/protocol';

// Strict standard base64, padding included: Buffer's decoder skips characters it does not know,
// so a secret with a typo or a stray character would silently become another key.
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export type DecodedSecret = { ok: true; key: Buffer } | { ok: false; problem: string };

/**
 * The key bytes of `secret`, or what is wrong with it. The problem never quotes the secret, as
 * it ends up in error messages and logs.
 */
export function decodeSecret(secret: unknown): DecodedSecret {
  if (typeof secret !== 'string') {
    return { ok: false, problem: `The webhook secret must be a string, not ${typeof secret}.` };
  }
  if (!secret.startsWith(WEBHOOK_SECRET_PREFIX)) {
    return {
      ok: false,
      problem: `The webhook secret must start with \`${WEBHOOK_SECRET_PREFIX}\`; copy it whole from the endpoint's page.`,
    };
  }
  const encoded = secret.slice(WEBHOOK_SECRET_PREFIX.length);
  if (encoded === '' || !BASE64.test(encoded)) {
    return {
      ok: false,
      problem: `The webhook secret must be \`${WEBHOOK_SECRET_PREFIX}\` followed by standard base64; it is truncated or has a character too many.`,
    };
  }
  return { ok: true, key: Buffer.from(encoded, 'base64') };
}
