/**
 * Our signer and verifier against standardwebhooks, the Standard Webhooks project's own
 * implementation (pure-JS HMAC and base64, none of node:crypto). Each side signs, the other
 * verifies, so a mistake our two halves share cannot pass. standardwebhooks reads the real
 * clock, so these deliveries are stamped with the current time.
 */
import { Buffer } from 'node:buffer';
import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_TYPES, WebhookVerificationError, webhooks } from '../src/index.js';
import { caught, eventBody, newSecret } from './webhook-fixtures.js';

const nowSeconds = () => Math.floor(Date.now() / 1000);

describe('webhooks.sign, verified by standardwebhooks', () => {
  it.each(WEBHOOK_EVENT_TYPES)('%s, string body', (type) => {
    const secret = newSecret();
    const body = eventBody(type);
    const headers = webhooks.sign(
      { id: 'msg_2LbrbYzvYkQ3tS9NwQpYhX', timestamp: nowSeconds(), body },
      secret,
    );
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
  });

  it('bytes that are not ASCII, given as a Buffer', () => {
    const secret = newSecret();
    const body = Buffer.from(JSON.stringify({ name: 'Zoë 🚀', note: 'naïve\u2028café' }), 'utf8');
    const headers = webhooks.sign({ body }, secret);
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body.toString('utf8')));
  });

  it('any id, timestamp within the tolerance, body and secret length (property)', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^msg_[A-Za-z0-9_-]{1,40}$/),
        fc.integer({ min: -299, max: 299 }),
        fc.string({ unit: 'grapheme', maxLength: 200 }),
        fc.integer({ min: 1, max: 64 }),
        (id, offset, text, bytes) => {
          const secret = newSecret(bytes);
          const body = JSON.stringify({ text });
          const headers = webhooks.sign({ id, timestamp: nowSeconds() + offset, body }, secret);
          expect(new Webhook(secret).verify(body, { ...headers })).toEqual({ text });
        },
      ),
      { numRuns: 200 },
    );
  });

  it('is refused by standardwebhooks when signed with another secret', () => {
    const body = eventBody('subscriber.created');
    const headers = webhooks.sign({ body }, newSecret());
    expect(() => new Webhook(newSecret()).verify(body, { ...headers })).toThrow(
      'No matching signature found',
    );
  });
});

describe('standardwebhooks signatures, verified by webhooks.verify and unwrap', () => {
  function signedByThem(
    body: string,
    secret: string,
    id = 'msg_p5jXN8AQM9LWM0D4loKWxJek',
    when = new Date(),
  ) {
    return {
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(when.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign(id, when, body),
    };
  }

  it.each(WEBHOOK_EVENT_TYPES)('%s', (type) => {
    const secret = newSecret();
    const body = eventBody(type);
    const headers = signedByThem(body, secret);
    expect(webhooks.verify(body, headers, secret)).toEqual({
      id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      timestamp: Number(headers['webhook-timestamp']),
    });
    expect(webhooks.unwrap(Buffer.from(body), new Headers(headers), secret)).toEqual(JSON.parse(body));
  });

  it('any id, body and secret length (property)', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^msg_[A-Za-z0-9_-]{1,40}$/),
        fc.string({ unit: 'grapheme', maxLength: 200 }),
        fc.integer({ min: 1, max: 64 }),
        (id, body, bytes) => {
          const secret = newSecret(bytes);
          const headers = signedByThem(body, secret, id);
          expect(webhooks.verify(body, headers, secret).id).toBe(id);
          expect(webhooks.verify(Buffer.from(body, 'utf8'), headers, secret).id).toBe(id);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('one of several signatures (a secret being rotated) is enough', () => {
    const secret = newSecret();
    const body = eventBody('subscriber.admitted');
    const ours = signedByThem(body, secret);
    const theirs = signedByThem(body, newSecret());
    const header = `${theirs['webhook-signature']} ${ours['webhook-signature']}`;
    expect(() => webhooks.verify(body, { ...ours, 'webhook-signature': header }, secret)).not.toThrow();
  });

  it('with another secret, is refused', () => {
    const body = eventBody('subscriber.deleted');
    const error = caught(() => webhooks.verify(body, signedByThem(body, newSecret()), newSecret()));
    expect(error).toBeInstanceOf(WebhookVerificationError);
    expect((error as WebhookVerificationError).reason).toBe('no_matching_signature');
  });

  it("matches the Standard Webhooks reference example's signature", () => {
    // The example of the specification's reference libraries: fixed secret, id, time and body.
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const id = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
    const timestamp = 1614265330;
    const body = '{"test": 2432232314}';
    const expected = 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=';
    expect(new Webhook(secret).sign(id, new Date(timestamp * 1000), body)).toBe(expected);
    expect(webhooks.sign({ id, timestamp, body }, secret)['webhook-signature']).toBe(expected);
    const headers = {
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': expected,
    };
    expect(webhooks.verify(body, headers, secret, { now: new Date(timestamp * 1000) })).toEqual({
      id,
      timestamp,
    });
  });
});
