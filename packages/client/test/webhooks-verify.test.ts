/** webhooks.verify: every way a delivery is refused, and every shape of headers it reads. */
import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import {
  type SignedWebhookHeaders,
  WaitlistError,
  WebhookVerificationError,
  type WebhookVerificationReason,
  webhooks,
} from '../src/index.js';
import { makeClient } from './helpers.js';
import { at, caught, eventBody, newSecret, T } from './webhook-fixtures.js';

const secret = newSecret();
const body = eventBody('subscriber.created');
const id = 'msg_2LbrbYzvYkQ3tS9NwQpYhX';
const signed = (overrides: { timestamp?: number; body?: string | Uint8Array; secret?: string } = {}) =>
  webhooks.sign(
    { id, timestamp: overrides.timestamp ?? T, body: overrides.body ?? body },
    overrides.secret ?? secret,
  );

/** The reason `verify` gave, with `now` injected at T unless said otherwise. */
function reason(
  headers: object,
  options: { body?: string | Uint8Array; secret?: string; now?: Date; tolerance?: number } = {},
): WebhookVerificationReason {
  const error = caught(() =>
    webhooks.verify(options.body ?? body, headers as SignedWebhookHeaders, options.secret ?? secret, {
      now: options.now ?? at(T),
      ...(options.tolerance === undefined ? {} : { tolerance: options.tolerance }),
    }),
  );
  expect(error).toBeInstanceOf(WebhookVerificationError);
  expect(error).toBeInstanceOf(WaitlistError);
  return (error as WebhookVerificationError).reason;
}

describe('a genuine delivery', () => {
  it('verifies, and returns the signed id and timestamp', () => {
    expect(webhooks.verify(body, signed(), secret, { now: at(T) })).toEqual({ id, timestamp: T });
  });

  it('verifies as bytes exactly as well as text', () => {
    const bytes = Buffer.from(body, 'utf8');
    expect(webhooks.verify(bytes, signed({ body: bytes }), secret, { now: at(T) }).id).toBe(id);
    expect(webhooks.verify(new Uint8Array(bytes), signed(), secret, { now: at(T) }).id).toBe(id);
  });

  it('verifies with the current time when `now` is not given', () => {
    const now = Math.floor(Date.now() / 1000);
    expect(webhooks.verify(body, signed({ timestamp: now }), secret).timestamp).toBe(now);
  });

  it('is the same object as client.webhooks', () => {
    expect(makeClient().client.webhooks).toBe(webhooks);
    expect(Object.isFrozen(webhooks)).toBe(true);
    // Its methods need no `this`, so they can be taken off the object.
    const { verify } = webhooks;
    expect(verify(body, signed(), secret, { now: at(T) }).id).toBe(id);
  });
});

describe('tampering', () => {
  it('refuses a body changed by one character', () => {
    expect(reason(signed(), { body: body.replace('ada.lovelace', 'ada.lovelacf') })).toBe(
      'no_matching_signature',
    );
  });

  it('refuses the same JSON serialised again: the raw bytes are what is signed', () => {
    const pretty = JSON.stringify(JSON.parse(body), null, 2);
    const headers = signed({ body: pretty });
    expect(reason(headers, { body: JSON.stringify(JSON.parse(pretty)) })).toBe('no_matching_signature');
  });

  it('refuses another id or another timestamp with the same signature', () => {
    expect(reason({ ...signed(), 'webhook-id': 'msg_other' })).toBe('no_matching_signature');
    expect(reason({ ...signed(), 'webhook-timestamp': String(T + 1) })).toBe('no_matching_signature');
  });

  it('refuses a signature made with another secret', () => {
    expect(reason(signed({ secret: newSecret() }))).toBe('no_matching_signature');
    expect(reason(signed(), { secret: newSecret() })).toBe('no_matching_signature');
  });

  it.each([
    ['a signature of another version', (sig: string) => sig.replace('v1,', 'v1a,')],
    ['a signature without its version', (sig: string) => sig.slice(3)],
    ['a truncated signature', (sig: string) => sig.slice(0, -2)],
    ['a signature with a character added', (sig: string) => `${sig}A`],
    ['an empty signature', () => 'v1,'],
    ['garbage', () => 'not a signature at all'],
  ])('refuses %s', (_, change) => {
    const headers = signed();
    expect(reason({ ...headers, 'webhook-signature': change(headers['webhook-signature']) })).toBe(
      'no_matching_signature',
    );
  });
});

describe('several signatures in webhook-signature', () => {
  const good = signed()['webhook-signature'];
  const other = signed({ secret: newSecret() })['webhook-signature'];

  it.each([
    ['first', `${good} ${other}`],
    ['last', `${other} v1a,c29tZXRoaW5n ${good}`],
    ['among extra spaces', `  ${other}   ${good}  `],
    ['in a header repeated, joined by Headers with a comma', `${other}, ${good}`],
  ])('accepts the matching one %s', (_, header) => {
    expect(
      webhooks.verify(body, { ...signed(), 'webhook-signature': header }, secret, { now: at(T) }).id,
    ).toBe(id);
  });

  it('refuses when none of them matches', () => {
    const third = signed({ secret: newSecret() })['webhook-signature'];
    expect(reason({ ...signed(), 'webhook-signature': `${other} ${third}` })).toBe('no_matching_signature');
  });
});

describe('timestamps', () => {
  const tolerance = 300;

  it.each([
    ['exactly the tolerance old', T - tolerance],
    ['exactly the tolerance ahead', T + tolerance],
    ['now', T],
  ])('accepts a delivery %s', (_, timestamp) => {
    expect(webhooks.verify(body, signed({ timestamp }), secret, { now: at(T) }).timestamp).toBe(timestamp);
  });

  it('refuses one second more than the tolerance, either way', () => {
    expect(reason(signed({ timestamp: T - tolerance - 1 }))).toBe('timestamp_too_old');
    expect(reason(signed({ timestamp: T + tolerance + 1 }))).toBe('timestamp_too_new');
  });

  it('compares whole seconds: the milliseconds of `now` do not matter', () => {
    expect(webhooks.verify(body, signed({ timestamp: T - tolerance }), secret, { now: at(T, 999) }).id).toBe(
      id,
    );
    expect(reason(signed({ timestamp: T + tolerance + 1 }), { now: at(T, 999) })).toBe('timestamp_too_new');
  });

  it('takes another tolerance', () => {
    expect(reason(signed({ timestamp: T - 61 }), { tolerance: 60 })).toBe('timestamp_too_old');
    expect(
      webhooks.verify(body, signed({ timestamp: T - 60 }), secret, { now: at(T), tolerance: 60 }).id,
    ).toBe(id);
    expect(reason(signed({ timestamp: T + 1 }), { tolerance: 0 })).toBe('timestamp_too_new');
    expect(webhooks.verify(body, signed(), secret, { now: at(T), tolerance: 0 }).id).toBe(id);
  });

  it('refuses a stale delivery before looking at its signature, and says by how much', () => {
    const error = caught(() =>
      webhooks.verify(body, { ...signed({ timestamp: T - 3600 }), 'webhook-signature': 'v1,x' }, secret, {
        now: at(T),
      }),
    ) as WebhookVerificationError;
    expect(error.reason).toBe('timestamp_too_old');
    expect(error.message).toBe('`webhook-timestamp` is 3600 s old, more than the tolerance of 300 s.');
  });

  it.each([
    ['milliseconds with a fraction', `${T}.5`],
    ['an ISO date', '2026-03-01T09:30:00Z'],
    ['a negative number', `-${T}`],
    ['hexadecimal', `0x${T.toString(16)}`],
    ['an exponent', '1.7e9'],
    ['words', 'yesterday'],
    ['too many digits', '9'.repeat(16)],
  ])('refuses %s as webhook-timestamp', (_, timestamp) => {
    expect(reason({ ...signed(), 'webhook-timestamp': timestamp })).toBe('invalid_timestamp');
  });
});

describe('missing headers', () => {
  it.each(['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const)('refuses without %s', (name) => {
    const { [name]: _, ...rest } = signed();
    const error = caught(() =>
      webhooks.verify(body, rest, secret, { now: at(T) }),
    ) as WebhookVerificationError;
    expect(error.reason).toBe('missing_header');
    expect(error.message).toBe(`The delivery lacks the \`${name}\` header.`);
  });

  it('treats an empty or blank header as missing', () => {
    expect(reason({ ...signed(), 'webhook-id': '' })).toBe('missing_header');
    expect(reason({ ...signed(), 'webhook-signature': '   ' })).toBe('missing_header');
    expect(reason({ ...signed(), 'webhook-timestamp': undefined })).toBe('missing_header');
  });

  it('names all that are missing', () => {
    const error = caught(() => webhooks.verify(body, {}, secret)) as WebhookVerificationError;
    expect(error.reason).toBe('missing_header');
    expect(error.message).toBe(
      'The delivery lacks the `webhook-id`, `webhook-timestamp`, `webhook-signature` headers.',
    );
  });
});

describe('header shapes', () => {
  const headers = signed();
  const verifyWith = (shape: Parameters<typeof webhooks.verify>[1]) =>
    webhooks.verify(body, shape, secret, { now: at(T) });

  it('reads a fetch Headers', () => {
    expect(verifyWith(new Headers(headers)).id).toBe(id);
  });

  it('reads a plain object whatever the case of its names', () => {
    expect(
      verifyWith({
        'Webhook-Id': headers['webhook-id'],
        'WEBHOOK-TIMESTAMP': headers['webhook-timestamp'],
        'webhook-Signature': headers['webhook-signature'],
        'Content-Type': 'application/json',
      }).id,
    ).toBe(id);
  });

  it("reads Node's IncomingHttpHeaders, array values included", () => {
    const incoming: import('node:http').IncomingHttpHeaders = {
      ...headers,
      'webhook-signature': [
        signed({ secret: newSecret() })['webhook-signature'],
        headers['webhook-signature'],
      ],
      'set-cookie': ['a=b'],
      host: 'hooks.example',
    };
    expect(verifyWith(incoming).id).toBe(id);
  });

  it('trims values', () => {
    expect(verifyWith({ ...headers, 'webhook-id': ` ${id} `, 'webhook-timestamp': `${T}\t` }).id).toBe(id);
  });
});

describe('malformed secrets', () => {
  it.each([
    ['without the whsec_ prefix', secret.slice('whsec_'.length)],
    ['with the prefix in upper case', secret.replace('whsec_', 'WHSEC_')],
    ['with nothing after the prefix', 'whsec_'],
    ['truncated', secret.slice(0, -1)],
    ['with a character outside base64', `${secret.slice(0, -2)}-A`],
    ['with a space inside', `${secret.slice(0, 10)} ${secret.slice(10)}`],
    ['with a trailing newline', `${secret}\n`],
    ['with misplaced padding', `whsec_=${secret.slice(7)}`],
    ['an API key', 'wlk_live_0000000000000000000000000000000000000'],
    ['undefined (an unset environment variable)', undefined],
  ])('refuses a secret %s, before reading the headers', (_, bad) => {
    const error = caught(() =>
      webhooks.verify(body, {}, bad as unknown as string, { now: at(T) }),
    ) as WebhookVerificationError;
    expect(error).toBeInstanceOf(WebhookVerificationError);
    expect(error.reason).toBe('invalid_secret');
    if (typeof bad === 'string' && bad.length > 8) expect(error.message).not.toContain(bad.slice(8, 20));
  });

  it('accepts any standard base64 key, padded', () => {
    for (const bytes of [1, 2, 3, 32, 64]) {
      const key = newSecret(bytes);
      expect(webhooks.verify(body, signed({ secret: key }), key, { now: at(T) }).id).toBe(id);
    }
  });
});

describe('arguments of the wrong kind', () => {
  it('refuses a parsed body with advice, as a TypeError', () => {
    const parsed = JSON.parse(body) as unknown as string;
    expect(() => webhooks.verify(parsed, signed(), secret)).toThrow(
      new TypeError(
        "webhooks.verify: the body must be the request's raw bytes, a string or a Uint8Array (Buffer), not an object. " +
          "Read it before any JSON parser does, e.g. with express.raw({ type: 'application/json' }).",
      ),
    );
    expect(() => webhooks.verify(undefined as unknown as string, signed(), secret)).toThrow(TypeError);
    expect(() => webhooks.verify(body, undefined as never, secret)).toThrow(
      new TypeError("webhooks.verify: `headers` must be the request's headers: a Headers or an object."),
    );
  });

  it.each([
    [{ tolerance: -1 }],
    [{ tolerance: Number.NaN }],
    [{ tolerance: Number.POSITIVE_INFINITY }],
    [{ tolerance: '300' }],
    [{ now: new Date('nope') }],
    [{ now: T }],
  ])('refuses the options %o', (options) => {
    expect(() => webhooks.verify(body, signed(), secret, options as never)).toThrow(TypeError);
  });
});

describe('bytes from another realm', () => {
  it('are bytes all the same', async () => {
    const { runInNewContext } = await import('node:vm');
    const body = eventBody('subscriber.deleted');
    const foreign = runInNewContext('new Uint8Array(bytes)', { bytes: [...Buffer.from(body)] }) as Uint8Array;
    expect(foreign instanceof Uint8Array).toBe(false);
    const headers = webhooks.sign({ timestamp: T, body }, secret);
    expect(webhooks.verify(foreign, headers, secret, { now: at(T) }).timestamp).toBe(T);
    expect(webhooks.unwrap(foreign, headers, secret, { now: at(T) }).type).toBe('subscriber.deleted');
  });
});
