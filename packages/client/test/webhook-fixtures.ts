/** Secrets and event bodies shared by the webhook tests. */
import { randomBytes } from 'node:crypto';
import type { WebhookEventType } from '@waitlistkit/protocol';

/** A secret as the service issues them: `whsec_` + base64 of 24 random bytes (docs/webhooks.md#signatures). */
export const newSecret = (bytes = 24) => `whsec_${randomBytes(bytes).toString('base64')}`;

/** A fixed instant, in Unix seconds, that the tests inject as `now`. */
export const T = 1_772_357_400;
export const at = (seconds: number, ms = 0) => new Date(seconds * 1000 + ms);

export const subscriber = {
  id: 'sub_8Kq2xY4mP1',
  email: 'ada.lovelace@example.com',
  joined_at: '2026-03-01T09:30:00Z',
  position: 42,
  referral_code: 'K7M2QX',
  referral_count: 0,
  status: 'waiting' as const,
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
  waitlist_id: 'wl_3Fj9',
};

export const dataOf = {
  'subscriber.created': subscriber,
  'subscriber.confirmed': subscriber,
  'subscriber.admitted': {
    ...subscriber,
    position: null,
    status: 'admitted' as const,
    admitted_at: '2026-04-15T12:00:00Z',
  },
  'subscriber.deleted': { id: subscriber.id, waitlist_id: subscriber.waitlist_id },
  'referral.credited': {
    referrer: { ...subscriber, position: 37, referral_count: 1 },
    subscriber_id: 'sub_Vb71nQ0zRt',
  },
} satisfies Record<WebhookEventType, unknown>;

/** The wire body of an event of `type`, as the service would serialise it. */
export function eventBody(type: WebhookEventType): string {
  return JSON.stringify({ type, timestamp: '2026-03-01T09:30:00Z', data: dataOf[type] });
}

/** What `run` threw; fails the test when it threw nothing. */
export function caught(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error, none was thrown');
}
