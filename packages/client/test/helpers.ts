import type { ErrorCode, ListPage, Subscriber } from '@waitlistkit/protocol';
import apiKeys from '@waitlistkit/protocol/vectors/api-keys.json' with { type: 'json' };
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { WaitlistClient, type WaitlistClientOptions } from '../src/index.js';
import { type Clock, clock } from '../src/options.js';

export const API_KEY = (apiKeys.valid[0] as { value: string }).value;
export const BASE_URL = 'https://waitlist.test';
export const WAITLIST = 'wl_Test1';
export const SUBSCRIBERS_URL = `${BASE_URL}/v1/api/waitlists/${WAITLIST}/subscribers`;
export const ADMISSIONS_URL = `${BASE_URL}/v1/api/waitlists/${WAITLIST}/admissions`;
export const subscriberUrl = (id: string) => `${SUBSCRIBERS_URL}/${id}`;
/** What an Idempotency-Key made by the client looks like: a random (version 4) UUID. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export const server = setupServer();

/** Starts msw for the file; any request without a handler fails the test. */
export function useServer(): void {
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
}

export interface TestClient {
  client: WaitlistClient;
  /** Every wait between attempts, in milliseconds, in order. */
  waits: number[];
}

/**
 * A client whose waits between retries are recorded instead of slept, with jitter fixed at the
 * middle of its range unless `random` is given. Aborts still interrupt a wait.
 */
export function makeClient(
  options: Partial<WaitlistClientOptions> = {},
  random: () => number = () => 0.5,
): TestClient {
  const waits: number[] = [];
  const time: Clock = {
    sleep: async (ms, signal) => {
      waits.push(ms);
      signal?.throwIfAborted();
    },
    random,
  };
  const client = new WaitlistClient({
    apiKey: API_KEY,
    baseUrl: BASE_URL,
    ...options,
    [clock]: time,
  } as WaitlistClientOptions);
  return { client, waits };
}

/** A waiting subscriber at position `n`, in the wire shape of docs/subscribers.md#lifecycle. */
export function subscriber(n: number): Subscriber {
  return {
    id: `sub_${n}`,
    email: `person${n}@example.com`,
    joined_at: '2025-03-01T12:00:00.000Z',
    position: n,
    referral_code: 'ABC234',
    referral_count: 0,
    status: 'waiting',
    admitted_at: null,
    confirmed: true,
    // Every subscriber object carries these (docs/subscribers.md#fields, docs/subscribers.md#attribution).
    fields: {},
    source: {},
    channel: 'direct',
    unsubscribed: false,
    // And this (docs/languages.md#what-a-sign-up-records).
    lang: null,
  };
}

/** Subscriber `n` once admitted: out of the line, so without a position. */
export function admitted(n: number): Subscriber {
  return { ...subscriber(n), status: 'admitted', admitted_at: '2025-03-02T09:30:00.000Z', position: null };
}

export function page(items: Subscriber[], overrides: Partial<ListPage> = {}): ListPage {
  return { items, total: items.length, page: 1, limit: 25, ...overrides };
}

export const accepted = {
  status: 'accepted',
  status_token: 'tok_abcdefghijklmnopqrstuv',
  referral_code: 'XYZ789',
  status_url: 'https://app.waitlist.test/s/tok_abcdefghijklmnopqrstuv',
} as const;

export function errorBody(code: ErrorCode, message = `Error ${code}.`) {
  return { error: { code, message } };
}

export function errorResponse(status: number, code: ErrorCode, headers: Record<string, string> = {}) {
  return HttpResponse.json(errorBody(code), { status, headers });
}

/** Answers a sequence of responses, one per request, the last one repeating; counts requests. */
export function sequence(
  method: 'get' | 'post' | 'delete',
  responses: Array<() => Response | Promise<Response>>,
  url = SUBSCRIBERS_URL,
): { requests: Request[] } {
  const requests: Request[] = [];
  server.use(
    http[method](url, ({ request }) => {
      requests.push(request);
      const next = responses[Math.min(requests.length, responses.length) - 1];
      if (next === undefined) throw new Error('sequence needs at least one response');
      return next();
    }),
  );
  return { requests };
}

/** A list endpoint over `total` subscribers that pages like the service (default 25, clamp 200). */
export function pagedList(total: number): { requests: URL[] } {
  const all = Array.from({ length: total }, (_, i) => subscriber(i + 1));
  const requests: URL[] = [];
  server.use(
    http.get(SUBSCRIBERS_URL, ({ request }) => {
      const url = new URL(request.url);
      requests.push(url);
      const pageNumber = Number(url.searchParams.get('page') ?? '1');
      const limit = Math.min(Number(url.searchParams.get('limit') ?? '25'), 200);
      const items = all.slice((pageNumber - 1) * limit, pageNumber * limit);
      return HttpResponse.json({ items, total, page: pageNumber, limit });
    }),
  );
  return { requests };
}
