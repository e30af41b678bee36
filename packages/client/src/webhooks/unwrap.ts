/** Verifying a delivery, then reading its body as a typed event. */
import { describeIssue, type WebhookEvent, WebhookEventSchema } from '@waitlistkit/protocol';
import { WebhookPayloadError } from '../errors.js';
import type { WebhookHeaders } from './headers.js';
import { verify, type WebhookVerifyOptions } from './verify.js';

const NOT_JSON = Symbol('not JSON');
// fatal: bytes that are not UTF-8 are refused rather than replaced with U+FFFD, which would turn
// a broken body into a different, valid-looking one.
const utf8 = new TextDecoder('utf-8', { fatal: true });

function parseJson(body: string | Uint8Array): unknown {
  try {
    return JSON.parse(typeof body === 'string' ? body : utf8.decode(body));
  } catch {
    return NOT_JSON;
  }
}

function typeOf(json: unknown): string | undefined {
  const type = typeof json === 'object' && json !== null ? (json as { type?: unknown }).type : undefined;
  return typeof type === 'string' ? type : undefined;
}

/**
 * Verifies the delivery like `verify`, then parses the body with the protocol's event schema.
 * Throws `WebhookVerificationError` when the delivery is not genuine, and `WebhookPayloadError`
 * when it is but its body is not an event this client knows.
 */
export function unwrap(
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string,
  options?: WebhookVerifyOptions,
): WebhookEvent {
  // Nothing of the body is looked at before its signature holds.
  verify(rawBody, headers, secret, options);
  const json = parseJson(rawBody);
  if (json === NOT_JSON) {
    throw new WebhookPayloadError({
      path: '',
      eventType: undefined,
      message: 'The webhook body is not JSON; expected WebhookEvent.',
    });
  }
  // reportInput lets describeIssue say what was found ("not a string"); the inputs stay here.
  const result = WebhookEventSchema.safeParse(json, { reportInput: true });
  if (result.success) return result.data;
  const [issue, ...more] = result.error.issues;
  const also = more.length > 0 ? ` (${more.length} more problem${more.length === 1 ? '' : 's'})` : '';
  const eventType = typeOf(json);
  throw new WebhookPayloadError({
    path: issue?.path.join('.') ?? '',
    eventType,
    message: `The webhook body does not match WebhookEvent: ${issue ? describeIssue(issue) : 'invalid.'}${also}`,
  });
}
