import { parseApiKey } from '@waitlistkit/protocol';
import apiKeys from '@waitlistkit/protocol/vectors/api-keys.json' with { type: 'json' };
import { describe, expect, it, vi } from 'vitest';
import { InvalidApiKeyError, WaitlistClient, WaitlistError } from '../src/index.js';
import { API_KEY, BASE_URL } from './helpers.js';

function noFetch() {
  return vi.fn<typeof fetch>(async () => {
    throw new Error('no request may be sent');
  });
}

describe('API key checked at construction', () => {
  it.each(apiKeys.valid)('accepts $value', ({ value }) => {
    const fetch = noFetch();
    expect(new WaitlistClient({ apiKey: value, baseUrl: BASE_URL, fetch })).toBeInstanceOf(WaitlistClient);
    expect(fetch).not.toHaveBeenCalled();
  });

  it.each(apiKeys.broken)('rejects before any request: $note', ({ value, problem }) => {
    const fetch = noFetch();
    const attempt = () => new WaitlistClient({ apiKey: value, baseUrl: BASE_URL, fetch });
    expect(attempt).toThrow(InvalidApiKeyError);
    try {
      attempt();
    } catch (error) {
      expect(error).toBeInstanceOf(WaitlistError);
      expect(error).toMatchObject({ name: 'InvalidApiKeyError', problem });
      const expected = parseApiKey(value);
      expect(expected.ok).toBe(false);
      if (!expected.ok) expect((error as Error).message).toBe(expected.message);
      // The message must never echo the secret.
      if (value.length > 12) expect((error as Error).message).not.toContain(value.slice(9));
    }
    expect(fetch).not.toHaveBeenCalled();
  });

  it.each([undefined, null, 42])('rejects a key that is not a string (%s)', (apiKey) => {
    expect(() => new WaitlistClient({ apiKey: apiKey as unknown as string, baseUrl: BASE_URL })).toThrow(
      expect.objectContaining({ name: 'InvalidApiKeyError', problem: 'type' }),
    );
  });
});

describe('other options', () => {
  it.each([
    ['not a url', /not an absolute URL/],
    ['/relative/path', /not an absolute URL/],
    ['ftp://waitlist.test', /http or https/],
    ['https://user:pass@waitlist.test', /user name or password/],
    ['https://waitlist.test/?x=1', /query or a fragment/],
    ['https://waitlist.test/#top', /query or a fragment/],
  ])('rejects baseUrl %s', (baseUrl, message) => {
    expect(() => new WaitlistClient({ apiKey: API_KEY, baseUrl })).toThrow(message);
  });

  it('rejects a missing baseUrl', () => {
    expect(() => new WaitlistClient({ apiKey: API_KEY } as never)).toThrow(TypeError);
  });

  it('accepts a URL object and a base path', () => {
    expect(
      () => new WaitlistClient({ apiKey: API_KEY, baseUrl: new URL('https://x.test/waitlist') }),
    ).not.toThrow();
  });

  it.each([
    [{ timeout: 0 }, RangeError],
    [{ timeout: -5 }, RangeError],
    [{ timeout: 2 ** 31 }, RangeError],
    [{ timeout: Number.NaN }, TypeError],
    [{ timeout: '1000' }, TypeError],
    [{ maxRetries: -1 }, RangeError],
    [{ maxRetries: 1.5 }, TypeError],
    [{ maxRetryAfter: -1 }, RangeError],
    [{ fetch: 'fetch' }, TypeError],
  ])('rejects %o', (options, kind) => {
    expect(() => new WaitlistClient({ apiKey: API_KEY, baseUrl: BASE_URL, ...(options as object) })).toThrow(
      kind,
    );
  });

  it('accepts zero retries and a zero Retry-After cap', () => {
    expect(
      () => new WaitlistClient({ apiKey: API_KEY, baseUrl: BASE_URL, maxRetries: 0, maxRetryAfter: 0 }),
    ).not.toThrow();
  });
});
