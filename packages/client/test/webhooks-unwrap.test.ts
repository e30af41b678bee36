/** webhooks.unwrap: a verified body becomes a typed event, or a WebhookPayloadError. */
import { Buffer } from 'node:buffer';
import { inspect } from 'node:util';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  WaitlistError,
  WEBHOOK_EVENT_TYPES,
  type WebhookEvent,
  WebhookPayloadError,
  WebhookVerificationError,
  webhooks,
} from '../src/index.js';
import { at, caught, dataOf, eventBody, newSecret, T } from './webhook-fixtures.js';

const secret = newSecret();
const unwrapSigned = (body: string | Uint8Array) =>
  webhooks.unwrap(body, webhooks.sign({ timestamp: T, body }, secret), secret, { now: at(T) });

describe('a genuine event', () => {
  it.each(WEBHOOK_EVENT_TYPES)('%s comes back parsed', (type) => {
    expect(unwrapSigned(eventBody(type))).toEqual({
      type,
      timestamp: '2026-03-01T09:30:00Z',
      data: dataOf[type],
    });
  });

  it('is typed by its `type`', () => {
    const event: WebhookEvent = unwrapSigned(eventBody('referral.credited'));
    expectTypeOf(webhooks.unwrap).returns.toEqualTypeOf<WebhookEvent>();
    switch (event.type) {
      case 'subscriber.created':
      case 'subscriber.confirmed':
      case 'subscriber.admitted':
        expectTypeOf(event.data.email).toEqualTypeOf<string>();
        expectTypeOf(event.data.position).toEqualTypeOf<number | null>();
        expectTypeOf(event.data.status).toEqualTypeOf<'waiting' | 'admitted'>();
        expectTypeOf(event.data.admitted_at).toEqualTypeOf<string | null>();
        expectTypeOf(event.data.confirmed).toEqualTypeOf<boolean>();
        expectTypeOf(event.data.waitlist_id).toEqualTypeOf<string>();
        break;
      case 'subscriber.deleted':
        expectTypeOf(event.data).toEqualTypeOf<{ id: string; waitlist_id: string }>();
        break;
      case 'referral.credited':
        expectTypeOf(event.data.referrer.referral_count).toEqualTypeOf<number>();
        expectTypeOf(event.data.referrer.waitlist_id).toEqualTypeOf<string>();
        expectTypeOf(event.data.subscriber_id).toEqualTypeOf<string>();
        break;
      default:
        expectTypeOf(event).toBeNever();
    }
    expect(event.type === 'referral.credited' && event.data.referrer.referral_count).toBe(1);
    expectTypeOf(event.timestamp).toEqualTypeOf<string>();
  });

  it('reads a Buffer body, a byte-order mark and all', () => {
    const body = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from(eventBody('subscriber.deleted')),
    ]);
    expect(unwrapSigned(body).type).toBe('subscriber.deleted');
  });

  it('drops what the schema does not know, a status token included', () => {
    const body = JSON.stringify({
      type: 'subscriber.created',
      timestamp: '2026-03-01T09:30:00Z',
      data: { ...dataOf['subscriber.created'], status_token: 'capability' },
      extra: true,
    });
    const event = unwrapSigned(body);
    expect(event).not.toHaveProperty('extra');
    expect(event.data).not.toHaveProperty('status_token');
  });
});

describe('a genuine body that is not an event', () => {
  const payloadError = (body: string | Uint8Array) => {
    const error = caught(() => unwrapSigned(body));
    expect(error).toBeInstanceOf(WebhookPayloadError);
    expect(error).toBeInstanceOf(WaitlistError);
    expect(error).not.toBeInstanceOf(WebhookVerificationError);
    return error as WebhookPayloadError;
  };

  it.each([
    ['plain text', 'OK'],
    ['an empty body', ''],
    ['truncated JSON', '{"type":"subscriber.created",'],
    ['bytes that are not UTF-8', Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d])],
  ])('%s is not JSON', (_, body) => {
    const error = payloadError(body);
    expect(error).toMatchObject({ path: '', eventType: undefined });
    expect(error.message).toBe('The webhook body is not JSON; expected WebhookEvent.');
  });

  it('valid JSON without a type', () => {
    const error = payloadError('{"hello":"world"}');
    expect(error).toMatchObject({ path: 'type', eventType: undefined });
    expect(error.message).toBe('The webhook body does not match WebhookEvent: `type` is required.');
  });

  it('valid JSON that is not an object', () => {
    expect(payloadError('[1,2]').message).toBe(
      'The webhook body does not match WebhookEvent: The body must be an object, not an array.',
    );
    expect(payloadError('null').path).toBe('');
  });

  it('an event type newer than this client, named in `eventType`', () => {
    const error = payloadError(
      JSON.stringify({ type: 'subscriber.updated', timestamp: '2026-03-01T09:30:00Z', data: {} }),
    );
    expect(error).toMatchObject({ path: 'type', eventType: 'subscriber.updated' });
    expect(error.message).toMatch(/`type` must be one of "subscriber.created", .*"referral.credited"\.$/);
    expect(WEBHOOK_EVENT_TYPES).not.toContain(error.eventType);
  });

  it('a known type with malformed data: the path, a count of the rest, and no personal data', () => {
    const body = JSON.stringify({
      type: 'subscriber.admitted',
      timestamp: 'yesterday',
      data: { ...dataOf['subscriber.admitted'], email: 42, position: 'first', waitlist_id: undefined },
    });
    const error = payloadError(body);
    expect(error).toMatchObject({ path: 'timestamp', eventType: 'subscriber.admitted' });
    expect(error.message).toBe(
      'The webhook body does not match WebhookEvent: `timestamp` has an invalid format. (3 more problems)',
    );
    expect(inspect(error, { depth: 10 })).not.toContain('ada.lovelace');
    expect(JSON.stringify(error)).not.toContain('ada.lovelace');
  });
});

describe('verification comes first', () => {
  it('a body that is not an event, with a bad signature, is a verification error', () => {
    const headers = webhooks.sign({ timestamp: T, body: 'OK' }, newSecret());
    const error = caught(() => webhooks.unwrap('OK', headers, secret, { now: at(T) }));
    expect(error).toBeInstanceOf(WebhookVerificationError);
    expect((error as WebhookVerificationError).reason).toBe('no_matching_signature');
  });

  it('the options reach the verification', () => {
    const body = eventBody('subscriber.created');
    const headers = webhooks.sign({ timestamp: T - 100, body }, secret);
    expect(unwrapSigned(body).type).toBe('subscriber.created');
    const error = caught(() => webhooks.unwrap(body, headers, secret, { now: at(T), tolerance: 99 }));
    expect((error as WebhookVerificationError).reason).toBe('timestamp_too_old');
    expect(webhooks.unwrap(body, headers, secret, { now: at(T), tolerance: 100 }).type).toBe(
      'subscriber.created',
    );
  });
});
