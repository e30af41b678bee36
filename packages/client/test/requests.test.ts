import { HttpResponse, http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { WaitlistClient } from '../src/index.js';
import {
  API_KEY,
  accepted,
  BASE_URL,
  makeClient,
  page,
  SUBSCRIBERS_URL,
  server,
  subscriber,
  useServer,
  WAITLIST,
} from './helpers.js';

useServer();

/** Records every request to the base URL and answers with `answer`. */
function capture(answer: () => Response): Request[] {
  const requests: Request[] = [];
  server.use(
    http.all(`${BASE_URL}/*`, ({ request }) => {
      requests.push(request.clone());
      return answer();
    }),
  );
  return requests;
}

describe('list', () => {
  it('sends GET with the Bearer key and asks for JSON', async () => {
    const requests = capture(() => HttpResponse.json(page([])));
    await makeClient().client.subscribers.list(WAITLIST);
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request?.method).toBe('GET');
    expect(request?.url).toBe(SUBSCRIBERS_URL);
    expect(request?.headers.get('authorization')).toBe(`Bearer ${API_KEY}`);
    expect(request?.headers.get('accept')).toBe('application/json');
  });

  it('writes page, limit and q into the query string', async () => {
    const requests = capture(() => HttpResponse.json(page([])));
    await makeClient().client.subscribers.list(WAITLIST, { page: 3, limit: 50, q: 'ada+1@example.com' });
    const url = new URL(requests[0]?.url ?? '');
    expect(url.pathname).toBe(`/v1/api/waitlists/${WAITLIST}/subscribers`);
    expect([...url.searchParams]).toEqual([
      ['page', '3'],
      ['limit', '50'],
      ['q', 'ada+1@example.com'],
    ]);
    expect(url.search).toBe('?page=3&limit=50&q=ada%2B1%40example.com');
  });

  it('returns the page as sent, with the rate-limit headers and request id beside it', async () => {
    const body = page([subscriber(1), subscriber(2)], { total: 7, limit: 2 });
    capture(() =>
      HttpResponse.json(body, {
        headers: {
          'RateLimit-Limit': '60',
          'RateLimit-Remaining': '57',
          'RateLimit-Reset': '3',
          'Request-Id': 'req_list0123456789abcd',
        },
      }),
    );
    const result = await makeClient().client.subscribers.list(WAITLIST, { limit: 2 });
    expect(result).toStrictEqual({
      ...body,
      rateLimit: { limit: 60, remaining: 57, reset: 3, retryAfter: undefined },
      requestId: 'req_list0123456789abcd',
    });
  });

  it('reads missing rate-limit headers as undefined', async () => {
    capture(() => HttpResponse.json(page([])));
    const { rateLimit } = await makeClient().client.subscribers.list(WAITLIST);
    expect(rateLimit).toEqual({
      limit: undefined,
      remaining: undefined,
      reset: undefined,
      retryAfter: undefined,
    });
  });

  it.each([
    [{ limit: 0 }, '`limit` must be at least 1.'],
    [{ page: 1.5 }, '`page` must be an integer, not a number.'],
    [{ q: 5 }, '`q` must be a string, not a number.'],
    [{ q: 'x'.repeat(255) }, '`q` must be at most 254 characters long.'],
  ])('rejects %o before sending', async (params, message) => {
    const requests = capture(() => HttpResponse.json(page([])));
    await expect(makeClient().client.subscribers.list(WAITLIST, params as never)).rejects.toThrow(
      new TypeError(`subscribers.list: ${message}`),
    );
    expect(requests).toHaveLength(0);
  });
});

describe('the waitlist id in the path', () => {
  it('is percent-encoded', async () => {
    const requests = capture(() => HttpResponse.json(page([])));
    await makeClient().client.subscribers.list('wl/a b?#');
    expect(requests[0]?.url).toBe(`${BASE_URL}/v1/api/waitlists/wl%2Fa%20b%3F%23/subscribers`);
  });

  it.each(['', '.', '..'])('refuses %j, which would not name a waitlist', async (id) => {
    const requests = capture(() => HttpResponse.json(page([])));
    await expect(makeClient().client.subscribers.list(id)).rejects.toThrow(TypeError);
    await expect(makeClient().client.subscribers.create(id, { email: 'a@b.co' })).rejects.toThrow(TypeError);
    expect(requests).toHaveLength(0);
  });

  it('keeps a base path of the base URL', async () => {
    const requests = capture(() => HttpResponse.json(page([])));
    await makeClient({ baseUrl: `${BASE_URL}/waitlist` }).client.subscribers.list(WAITLIST);
    expect(requests[0]?.url).toBe(`${BASE_URL}/waitlist/v1/api/waitlists/${WAITLIST}/subscribers`);
  });
});

describe('create', () => {
  it('sends POST with a JSON body of the wire fields', async () => {
    const requests = capture(() => HttpResponse.json(accepted, { status: 202 }));
    await makeClient().client.subscribers.create(WAITLIST, {
      email: 'Ada@Example.com',
      referral_code: 'ABC234',
      client_country: 'de',
    });
    const [request] = requests;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe(SUBSCRIBERS_URL);
    expect(request?.headers.get('authorization')).toBe(`Bearer ${API_KEY}`);
    expect(request?.headers.get('content-type')).toBe('application/json');
    expect(await request?.text()).toBe(
      JSON.stringify({ email: 'Ada@Example.com', referral_code: 'ABC234', client_country: 'de' }),
    );
  });

  it('returns the accepted signup with the rate-limit headers and request id beside it', async () => {
    capture(() =>
      HttpResponse.json(accepted, {
        status: 202,
        headers: {
          'RateLimit-Limit': '60',
          'RateLimit-Remaining': '0',
          'RateLimit-Reset': '59',
          'Request-Id': 'req_create0123456789ab',
        },
      }),
    );
    const result = await makeClient().client.subscribers.create(WAITLIST, { email: 'ada@example.com' });
    expect(result).toStrictEqual({
      ...accepted,
      rateLimit: { limit: 60, remaining: 0, reset: 59, retryAfter: undefined },
      requestId: 'req_create0123456789ab',
      idempotentReplayed: false,
    });
  });

  it.each([
    [{}, '`email` is required.'],
    [{ email: 42 }, '`email` must be a string, not a number.'],
    [
      { email: 'a@b.co', client_country: 'DEU' },
      '`client_country` must be a two-letter ISO 3166-1 country code.',
    ],
    [
      { email: 'a@b.co', note: 'internal' },
      'unknown parameter `note`; the parameters are `email`, `referral_code`, `client_country`, `fields`, `source`, `lang`.',
    ],
    [
      { email: 'a@b.co', referralCode: 'ABC234' },
      'unknown parameter `referralCode`; did you mean `referral_code`?',
    ],
  ])('rejects %o before sending', async (body, message) => {
    const requests = capture(() => HttpResponse.json(accepted, { status: 202 }));
    await expect(makeClient().client.subscribers.create(WAITLIST, body as never)).rejects.toThrow(
      new TypeError(`subscribers.create: ${message}`),
    );
    expect(requests).toHaveLength(0);
  });
});

describe('the fetch option', () => {
  it('sends through the given fetch, so nothing depends on msw', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(async () => Response.json(page([subscriber(1)])));
    const client = new WaitlistClient({ apiKey: API_KEY, baseUrl: 'https://elsewhere.test', fetch });
    const result = await client.subscribers.list(WAITLIST, { q: 'x' });
    expect(result.items).toEqual([subscriber(1)]);
    expect(fetch).toHaveBeenCalledTimes(1);
    const request = fetch.mock.calls[0]?.[0] as Request;
    expect(request.url).toBe(`https://elsewhere.test/v1/api/waitlists/${WAITLIST}/subscribers?q=x`);
    expect(request.headers.get('authorization')).toBe(`Bearer ${API_KEY}`);
  });
});
