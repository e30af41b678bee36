import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  describeIssue,
  docs,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_MESSAGE_ID_PREFIX,
  WEBHOOK_SECRET_PREFIX,
  type WebhookEvent,
  type WebhookEventOf,
  WebhookEventSchema,
  WebhookEventType,
  WebhookHeader,
} from '../src/index.js';

const subscriber = {
  id: 'sub_1',
  email: 'Ada@Example.com',
  joined_at: '2026-03-01T09:30:00Z',
  position: 3,
  referral_code: 'K7M2QX',
  referral_count: 0,
  status: 'waiting',
  admitted_at: null,
  confirmed: true,
  // Every subscriber object carries these (docs/subscribers.md#fields, docs/subscribers.md#attribution).
  fields: { company: 'Analytical Engines' },
  source: { utm_source: 'newsletter' },
  channel: 'newsletter',
  // And this (docs/messages.md#unsubscribe).
  unsubscribed: false,
  // And this (docs/languages.md#what-a-sign-up-records).
  lang: 'de',
  waitlist_id: 'wl_1',
};

const dataOf: Record<WebhookEventType, unknown> = {
  'subscriber.created': subscriber,
  'subscriber.confirmed': subscriber,
  'subscriber.admitted': {
    ...subscriber,
    position: null,
    status: 'admitted',
    admitted_at: '2026-04-01T00:00:00+02:00',
  },
  'subscriber.deleted': { id: 'sub_1', waitlist_id: 'wl_1' },
  'referral.credited': {
    referrer: { ...subscriber, referral_count: 1 },
    subscriber_id: 'sub_2',
  },
};

const event = (type: string, data: unknown = dataOf[type as WebhookEventType]) => ({
  type,
  timestamp: '2026-03-01T09:30:00.123Z',
  data,
});

describe('WebhookEventSchema', () => {
  it('has exactly one member per event type, in the order of WEBHOOK_EVENT_TYPES', () => {
    const types = WebhookEventSchema.def.options.map((option) => option.def.shape.type.def.values[0]);
    expect(types).toEqual(WEBHOOK_EVENT_TYPES);
    expect(WEBHOOK_EVENT_TYPES).toEqual(Object.values(WebhookEventType));
  });

  it.each(WEBHOOK_EVENT_TYPES)('parses a %s event', (type) => {
    expect(WebhookEventSchema.parse(event(type))).toEqual(event(type));
  });

  it('parses every example of the documentation', () => {
    for (const option of WebhookEventSchema.def.options) {
      const examples = docs.get(option)?.examples ?? [];
      expect(examples).toHaveLength(1);
      for (const example of examples) expect(option.parse(example)).toEqual(example);
    }
  });

  it('narrows on `type`', () => {
    const parsed: WebhookEvent = WebhookEventSchema.parse(event('referral.credited'));
    if (parsed.type === 'referral.credited') {
      expectTypeOf(parsed.data.referrer.referral_count).toEqualTypeOf<number>();
      expectTypeOf(parsed.data.subscriber_id).toEqualTypeOf<string>();
    }
    if (parsed.type === 'subscriber.deleted') {
      expectTypeOf(parsed.data).toEqualTypeOf<{ id: string; waitlist_id: string }>();
    }
    expectTypeOf<WebhookEventOf<'subscriber.admitted'>['data']['status']>().toEqualTypeOf<
      'waiting' | 'admitted'
    >();
    expect(parsed.type === 'referral.credited' && parsed.data.referrer.waitlist_id).toBe('wl_1');
  });

  it('keeps no status token, nor anything else outside the schema, in what it returns', () => {
    const parsed = WebhookEventSchema.parse(
      event('subscriber.created', { ...subscriber, status_token: 'secret-capability' }),
    );
    expect(parsed.data).not.toHaveProperty('status_token');
    const deleted = WebhookEventSchema.parse(event('subscriber.deleted', { ...subscriber }));
    expect(deleted.data).toEqual({ id: 'sub_1', waitlist_id: 'wl_1' });
  });

  it.each([
    ['an unknown type', { ...event('subscriber.created'), type: 'subscriber.updated' }],
    ['no type', { timestamp: '2026-03-01T09:30:00Z', data: subscriber }],
    ['a timestamp without an offset', { ...event('subscriber.created'), timestamp: '2026-03-01T09:30:00' }],
    ['a date for a timestamp', { ...event('subscriber.created'), timestamp: '2026-03-01' }],
    ['Unix seconds for a timestamp', { ...event('subscriber.created'), timestamp: 1772357400 }],
    ['no data', { type: 'subscriber.created', timestamp: '2026-03-01T09:30:00Z' }],
    [
      'a subscriber without waitlist_id',
      event('subscriber.admitted', { ...subscriber, waitlist_id: undefined }),
    ],
    ['a deleted subscriber without id', event('subscriber.deleted', { waitlist_id: 'wl_1' })],
    ['a referral without its referrer', event('referral.credited', { subscriber_id: 's' })],
    [
      'a referrer without waitlist_id',
      event('referral.credited', {
        referrer: { ...subscriber, waitlist_id: undefined },
        subscriber_id: 's',
      }),
    ],
    ['a referral without the new subscriber', event('referral.credited', { referrer: subscriber })],
    ['an array', [event('subscriber.created')]],
  ])('rejects %s', (_, body) => {
    expect(WebhookEventSchema.safeParse(body).success).toBe(false);
  });
});

describe('webhook constants', () => {
  it('names the Standard Webhooks headers in lower case, and the prefixes of the contract', () => {
    expect(Object.values(WebhookHeader)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
    expect(WEBHOOK_SECRET_PREFIX).toBe('whsec_');
    expect(WEBHOOK_MESSAGE_ID_PREFIX).toBe('msg_');
  });
});

describe('describeIssue on an event', () => {
  const first = (body: unknown) => {
    const result = WebhookEventSchema.safeParse(body, { reportInput: true });
    return result.error?.issues[0] && describeIssue(result.error.issues[0]);
  };

  it('names the known types when `type` is unknown, and says when it is missing', () => {
    expect(first({ ...event('subscriber.created'), type: 'subscriber.updated' })).toBe(
      '`type` must be one of "subscriber.created", "subscriber.confirmed", "subscriber.admitted", "subscriber.deleted", "referral.credited".',
    );
    expect(first({ timestamp: '2026-03-01T09:30:00Z', data: subscriber })).toBe('`type` is required.');
  });

  it('names a field deep in the data', () => {
    expect(
      first(event('referral.credited', { ...(dataOf['referral.credited'] as object), subscriber_id: 7 })),
    ).toBe('`data.subscriber_id` must be a string, not a number.');
  });
});
