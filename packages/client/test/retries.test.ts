import type { ErrorCode } from '@waitlistkit/protocol';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  ConnectionError,
  InternalServerError,
  RateLimitError,
  WaitlistApiError,
  WaitlistClient,
} from '../src/index.js';
import {
  API_KEY,
  accepted,
  BASE_URL,
  errorResponse,
  makeClient,
  page,
  sequence,
  subscriber,
  useServer,
  WAITLIST,
} from './helpers.js';

useServer();

const ok = () => HttpResponse.json(page([subscriber(1)]));
const created = () => HttpResponse.json(accepted, { status: 202 });
const serverError = () => errorResponse(500, 'internal_error');
const tooMany = (retryAfter?: string) => () =>
  errorResponse(429, 'rate_limit_exceeded', retryAfter === undefined ? {} : { 'Retry-After': retryAfter });

describe('what is retried', () => {
  it('retries a GET after 5xx with exponential backoff, then succeeds', async () => {
    const { requests } = sequence('get', [serverError, () => errorResponse(503, 'internal_error'), ok]);
    const { client, waits } = makeClient();
    const result = await client.subscribers.list(WAITLIST);
    expect(result.items).toEqual([subscriber(1)]);
    expect(requests).toHaveLength(3);
    // 0.5 s then 1 s, at the middle of the jitter range (×0.75).
    expect(waits).toEqual([375, 750]);
  });

  it('retries create (POST) too, resending the same body', async () => {
    const { requests } = sequence('post', [serverError, () => errorResponse(502, 'internal_error'), created]);
    const { client } = makeClient();
    const result = await client.subscribers.create(WAITLIST, {
      email: 'ada@example.com',
      referral_code: 'ABC234',
    });
    expect(result.status).toBe('accepted');
    expect(requests).toHaveLength(3);
    const bodies = await Promise.all(requests.map((request) => request.text()));
    expect(new Set(bodies)).toEqual(
      new Set([JSON.stringify({ email: 'ada@example.com', referral_code: 'ABC234' })]),
    );
  });

  it('retries after a connection failure', async () => {
    const { requests } = sequence('get', [() => HttpResponse.error(), ok]);
    const { client, waits } = makeClient();
    await expect(client.subscribers.list(WAITLIST)).resolves.toMatchObject({ total: 1 });
    expect(requests).toHaveLength(2);
    expect(waits).toEqual([375]);
  });

  it('throws ConnectionError once the retries are used up', async () => {
    const { requests } = sequence('post', [() => HttpResponse.error()]);
    const { client } = makeClient();
    const error = await client.subscribers
      .create(WAITLIST, { email: 'ada@example.com' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).cause).toBeDefined();
    expect(requests).toHaveLength(3);
  });

  it('throws the last InternalServerError after 1 + maxRetries attempts (default 2)', async () => {
    const { requests } = sequence('get', [serverError]);
    const { client, waits } = makeClient();
    await expect(client.subscribers.list(WAITLIST)).rejects.toBeInstanceOf(InternalServerError);
    expect(requests).toHaveLength(3);
    expect(waits).toHaveLength(2);
  });

  it.each([
    [400, 'invalid_request'],
    [400, 'invalid_email'],
    [401, 'unauthorized'],
    [403, 'feature_not_allowed'],
    [403, 'insufficient_scope'],
    [403, 'geo_restricted'],
    [404, 'not_found'],
    [413, 'payload_too_large'],
    [415, 'unsupported_media_type'],
    [422, 'idempotency_key_reused'],
  ] as Array<[number, ErrorCode]>)('does not retry %i %s', async (status, code) => {
    const { requests } = sequence('post', [() => errorResponse(status, code), created]);
    const { client, waits } = makeClient();
    const error = await client.subscribers
      .create(WAITLIST, { email: 'ada@example.com' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WaitlistApiError);
    expect((error as WaitlistApiError).status).toBe(status);
    expect(requests).toHaveLength(1);
    expect(waits).toEqual([]);
  });
});

describe('how many times', () => {
  it('maxRetries: 0 sends once', async () => {
    const { requests } = sequence('get', [serverError, ok]);
    await expect(makeClient({ maxRetries: 0 }).client.subscribers.list(WAITLIST)).rejects.toBeInstanceOf(
      InternalServerError,
    );
    expect(requests).toHaveLength(1);
  });

  it('doubles the backoff up to 8 s', async () => {
    const { requests } = sequence('get', [serverError]);
    const { client, waits } = makeClient({ maxRetries: 7 });
    await expect(client.subscribers.list(WAITLIST)).rejects.toBeInstanceOf(InternalServerError);
    expect(requests).toHaveLength(8);
    expect(waits).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000].map((ms) => ms * 0.75));
  });

  it.each([
    [0, [250, 500]],
    [0.999, [499.75, 999.5]],
  ])('jitter with random() = %d keeps each wait in [½, 1) of its step', async (random, expected) => {
    sequence('get', [serverError]);
    const { client, waits } = makeClient({}, () => random);
    await expect(client.subscribers.list(WAITLIST)).rejects.toBeInstanceOf(InternalServerError);
    expect(waits).toEqual(expected);
  });

  it('a per-call maxRetries overrides the client', async () => {
    const { requests } = sequence('get', [serverError]);
    const { client } = makeClient({ maxRetries: 5 });
    await expect(client.subscribers.list(WAITLIST, {}, { maxRetries: 1 })).rejects.toBeInstanceOf(
      InternalServerError,
    );
    expect(requests).toHaveLength(2);
  });

  it('rejects an invalid per-call maxRetries before sending', async () => {
    const { requests } = sequence('get', [ok]);
    await expect(makeClient().client.subscribers.list(WAITLIST, {}, { maxRetries: -1 })).rejects.toThrow(
      RangeError,
    );
    expect(requests).toHaveLength(0);
  });
});

describe('Retry-After', () => {
  it('waits exactly what a 429 asks, without jitter', async () => {
    const { requests } = sequence('get', [tooMany('3'), ok]);
    const { client, waits } = makeClient();
    await client.subscribers.list(WAITLIST);
    expect(requests).toHaveLength(2);
    expect(waits).toEqual([3000]);
  });

  it('is honoured on a 5xx too', async () => {
    sequence('post', [() => errorResponse(503, 'internal_error', { 'Retry-After': '2' }), created]);
    const { client, waits } = makeClient();
    await client.subscribers.create(WAITLIST, { email: 'ada@example.com' });
    expect(waits).toEqual([2000]);
  });

  it('waits up to the cap inclusive (default 60 s)', async () => {
    sequence('get', [tooMany('60'), ok]);
    const { client, waits } = makeClient();
    await client.subscribers.list(WAITLIST);
    expect(waits).toEqual([60_000]);
  });

  it('fails at once with RateLimitError when the wait is over the cap', async () => {
    const { requests } = sequence('get', [tooMany('61'), ok]);
    const { client, waits } = makeClient();
    const error = await client.subscribers.list(WAITLIST).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(61);
    expect(requests).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('uses the configured cap', async () => {
    const { requests } = sequence('post', [tooMany('6'), created]);
    const { client, waits } = makeClient({ maxRetryAfter: 5_000 });
    await expect(client.subscribers.create(WAITLIST, { email: 'a@b.co' })).rejects.toBeInstanceOf(
      RateLimitError,
    );
    expect(requests).toHaveLength(1);
    expect(waits).toEqual([]);

    sequence('post', [tooMany('5'), created]);
    const capped = makeClient({ maxRetryAfter: 5_000 });
    await expect(capped.client.subscribers.create(WAITLIST, { email: 'a@b.co' })).resolves.toMatchObject({
      status: 'accepted',
    });
    expect(capped.waits).toEqual([5000]);
  });

  it('never hangs on an hour-long Retry-After, with the real clock', async () => {
    const { requests } = sequence('post', [tooMany('3600')]);
    const client = new WaitlistClient({ apiKey: API_KEY, baseUrl: BASE_URL });
    const started = performance.now();
    await expect(client.subscribers.create(WAITLIST, { email: 'ada@example.com' })).rejects.toBeInstanceOf(
      RateLimitError,
    );
    // Far below the hour it was told to wait, however busy the machine.
    expect(performance.now() - started).toBeLessThan(20_000);
    expect(requests).toHaveLength(1);
  });

  it('retries with the real clock when told to come back at once', async () => {
    const { requests } = sequence('get', [tooMany('0'), ok]);
    const client = new WaitlistClient({ apiKey: API_KEY, baseUrl: BASE_URL });
    await expect(client.subscribers.list(WAITLIST)).resolves.toMatchObject({ total: 1 });
    expect(requests).toHaveLength(2);
  });

  it('falls back to backoff when a 429 has no Retry-After', async () => {
    sequence('get', [tooMany(), tooMany(), ok]);
    const { client, waits } = makeClient();
    await client.subscribers.list(WAITLIST);
    expect(waits).toEqual([375, 750]);
  });

  it('throws the last RateLimitError when the budget stays spent', async () => {
    const { requests } = sequence('get', [tooMany('1')]);
    const { client, waits } = makeClient();
    const error = await client.subscribers.list(WAITLIST).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(1);
    expect(requests).toHaveLength(3);
    expect(waits).toEqual([1000, 1000]);
  });
});
