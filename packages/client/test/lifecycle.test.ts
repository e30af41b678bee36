/** The subscriber lifecycle of docs/subscribers.md#lifecycle: get, admit, delete, and the `status` of list and iterate. */
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { InternalServerError, NotFoundError, ResponseValidationError } from '../src/index.js';
import {
  ADMISSIONS_URL,
  API_KEY,
  admitted,
  BASE_URL,
  errorResponse,
  makeClient,
  page,
  pagedList,
  SUBSCRIBERS_URL,
  sequence,
  subscriber,
  subscriberUrl,
  useServer,
  WAITLIST,
} from './helpers.js';

useServer();

const headers = {
  'RateLimit-Limit': '60',
  'RateLimit-Remaining': '41',
  'RateLimit-Reset': '19',
  'Request-Id': 'req_abcdefghijklmnop01',
};
const rateLimit = { limit: 60, remaining: 41, reset: 19, retryAfter: undefined };

describe('get', () => {
  it('sends GET to the subscriber’s path with the key, and returns it with the headers beside it', async () => {
    const { requests } = sequence(
      'get',
      [() => HttpResponse.json(subscriber(7), { headers })],
      subscriberUrl('sub_7'),
    );
    const result = await makeClient().client.subscribers.get(WAITLIST, 'sub_7');
    expect(requests).toHaveLength(1);
    expect(requests[0]?.method).toBe('GET');
    expect(requests[0]?.headers.get('authorization')).toBe(`Bearer ${API_KEY}`);
    expect(requests[0]?.headers.get('idempotency-key')).toBeNull();
    expect(result).toStrictEqual({ ...subscriber(7), rateLimit, requestId: 'req_abcdefghijklmnop01' });
  });

  it('reads an admitted subscriber, whose position is null', async () => {
    sequence('get', [() => HttpResponse.json(admitted(3))], subscriberUrl('sub_3'));
    const result = await makeClient().client.subscribers.get(WAITLIST, 'sub_3');
    expect(result).toMatchObject({
      status: 'admitted',
      position: null,
      admitted_at: '2025-03-02T09:30:00.000Z',
    });
  });

  it('percent-encodes the subscriber id', async () => {
    const { requests } = sequence(
      'get',
      [() => HttpResponse.json(subscriber(1))],
      `${SUBSCRIBERS_URL}/sub%2F1%3Fx%23y`,
    );
    await makeClient().client.subscribers.get(WAITLIST, 'sub/1?x#y');
    expect(requests[0]?.url).toBe(`${SUBSCRIBERS_URL}/sub%2F1%3Fx%23y`);
  });

  it.each(['', '.', '..', 42, undefined])('refuses the subscriber id %j before sending', async (id) => {
    const { requests } = sequence('get', [() => HttpResponse.json(subscriber(1))], `${SUBSCRIBERS_URL}/*`);
    await expect(makeClient().client.subscribers.get(WAITLIST, id as string)).rejects.toThrow(TypeError);
    await expect(makeClient().client.subscribers.delete(WAITLIST, id as string)).rejects.toThrow(TypeError);
    expect(requests).toHaveLength(0);
  });

  it('an unknown id is NotFoundError, not retried', async () => {
    const { requests } = sequence('get', [() => errorResponse(404, 'not_found')], subscriberUrl('sub_x'));
    await expect(makeClient().client.subscribers.get(WAITLIST, 'sub_x')).rejects.toBeInstanceOf(
      NotFoundError,
    );
    expect(requests).toHaveLength(1);
  });

  it('checks the answer against Subscriber', async () => {
    const { status: _, ...withoutStatus } = subscriber(1);
    sequence('get', [() => HttpResponse.json(withoutStatus)], subscriberUrl('sub_1'));
    const error = await makeClient()
      .client.subscribers.get(WAITLIST, 'sub_1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).path).toBe('status');
    expect((error as Error).message).toBe(
      'The service\'s answer does not match Subscriber: `status` must be one of "waiting", "admitted".',
    );
  });
});

describe('admit', () => {
  const admittedItems = { items: [admitted(1), admitted(2)] };

  it('sends POST {"count": N} as JSON to the admissions path', async () => {
    const { requests } = sequence(
      'post',
      [() => HttpResponse.json(admittedItems, { headers })],
      ADMISSIONS_URL,
    );
    const result = await makeClient().client.subscribers.admit(WAITLIST, { count: 2 });
    const [request] = requests;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe(ADMISSIONS_URL);
    expect(request?.headers.get('authorization')).toBe(`Bearer ${API_KEY}`);
    expect(request?.headers.get('content-type')).toBe('application/json');
    expect(await request?.text()).toBe('{"count":2}');
    expect(result).toStrictEqual({
      ...admittedItems,
      rateLimit,
      requestId: 'req_abcdefghijklmnop01',
      idempotentReplayed: false,
    });
  });

  it('sends subscriberIds as the wire field subscriber_ids', async () => {
    const { requests } = sequence(
      'post',
      [() => HttpResponse.json({ items: [admitted(4)] })],
      ADMISSIONS_URL,
    );
    const result = await makeClient().client.subscribers.admit(WAITLIST, {
      subscriberIds: ['sub_4', 'sub_9'],
    });
    expect(await requests[0]?.text()).toBe('{"subscriber_ids":["sub_4","sub_9"]}');
    expect(result.items).toEqual([admitted(4)]);
  });

  it('resolves to no items when nobody was waiting', async () => {
    sequence('post', [() => HttpResponse.json({ items: [] })], ADMISSIONS_URL);
    await expect(makeClient().client.subscribers.admit(WAITLIST, { count: 5 })).resolves.toMatchObject({
      items: [],
    });
  });

  it.each([
    [{}, 'Give exactly one of `count` and `subscriberIds`.'],
    [{ count: 1, subscriberIds: ['sub_1'] }, 'Give exactly one of `count` and `subscriberIds`.'],
    [{ count: 0 }, '`count` must be at least 1.'],
    [{ count: 1001 }, '`count` must be at most 1000.'],
    [{ count: 1.5 }, '`count` must be an integer, not a number.'],
    [{ count: '3' }, '`count` must be a number, not a string.'],
    [{ subscriberIds: [] }, '`subscriberIds` must be at least 1.'],
    [
      { subscriberIds: Array.from({ length: 1001 }, (_, i) => `sub_${i}`) },
      '`subscriberIds` must be at most 1000.',
    ],
    [{ subscriberIds: 'sub_1' }, '`subscriberIds` must be an array, not a string.'],
    [{ subscriberIds: ['sub_1', 7] }, '`subscriberIds.1` must be a string, not a number.'],
    [{ subscriberIds: ['x'.repeat(65)] }, '`subscriberIds.0` must be at most 64 characters long.'],
  ])('rejects %o before sending', async (params, message) => {
    const { requests } = sequence('post', [() => HttpResponse.json({ items: [] })], ADMISSIONS_URL);
    await expect(makeClient().client.subscribers.admit(WAITLIST, params as never)).rejects.toThrow(
      new TypeError(`subscribers.admit: ${message}`),
    );
    expect(requests).toHaveLength(0);
  });

  it('accepts the limits: 1000 by count and 1000 ids', async () => {
    const { requests } = sequence('post', [() => HttpResponse.json({ items: [] })], ADMISSIONS_URL);
    const ids = Array.from({ length: 1000 }, (_, i) => `sub_${i}`);
    await makeClient().client.subscribers.admit(WAITLIST, { count: 1000 });
    await makeClient().client.subscribers.admit(WAITLIST, { subscriberIds: ids });
    expect(await requests[0]?.text()).toBe('{"count":1000}');
    expect(JSON.parse((await requests[1]?.text()) ?? '')).toEqual({ subscriber_ids: ids });
  });

  it('checks the answer against Admissions', async () => {
    sequence('post', [() => HttpResponse.json({ items: [{ ...admitted(1), position: 0 }] })], ADMISSIONS_URL);
    const error = await makeClient()
      .client.subscribers.admit(WAITLIST, { count: 1 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).path).toBe('items.0.position');
    expect((error as Error).message).toMatch(/^The service's answer does not match Admissions: /);
  });
});

describe('delete', () => {
  it('sends DELETE without a body and resolves to the headers of the 204', async () => {
    const { requests } = sequence(
      'delete',
      [() => new HttpResponse(null, { status: 204, headers })],
      subscriberUrl('sub_5'),
    );
    const result = await makeClient().client.subscribers.delete(WAITLIST, 'sub_5');
    const [request] = requests;
    expect(request?.method).toBe('DELETE');
    expect(request?.headers.get('authorization')).toBe(`Bearer ${API_KEY}`);
    expect(request?.headers.get('idempotency-key')).toBeNull();
    expect(await request?.text()).toBe('');
    expect(result).toStrictEqual({ rateLimit, requestId: 'req_abcdefghijklmnop01' });
  });

  it('ignores a body, should a 2xx carry one', async () => {
    sequence('delete', [() => HttpResponse.json({ deleted: true })], subscriberUrl('sub_5'));
    await expect(makeClient().client.subscribers.delete(WAITLIST, 'sub_5')).resolves.toMatchObject({
      requestId: undefined,
    });
  });

  it('is retried after a 5xx like the other methods', async () => {
    const { requests } = sequence(
      'delete',
      [() => errorResponse(503, 'internal_error'), () => new HttpResponse(null, { status: 204 })],
      subscriberUrl('sub_5'),
    );
    const { client, waits } = makeClient();
    await client.subscribers.delete(WAITLIST, 'sub_5');
    expect(requests).toHaveLength(2);
    expect(waits).toEqual([375]);
  });

  it('throws InternalServerError once the retries are used up', async () => {
    const { requests } = sequence(
      'delete',
      [() => errorResponse(500, 'internal_error')],
      subscriberUrl('sub_5'),
    );
    await expect(makeClient().client.subscribers.delete(WAITLIST, 'sub_5')).rejects.toBeInstanceOf(
      InternalServerError,
    );
    expect(requests).toHaveLength(3);
  });

  it('an unknown id is NotFoundError', async () => {
    sequence('delete', [() => errorResponse(404, 'not_found')], subscriberUrl('sub_5'));
    await expect(makeClient().client.subscribers.delete(WAITLIST, 'sub_5')).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });
});

describe('status of list and iterate', () => {
  it.each(['waiting', 'admitted'] as const)('list sends status=%s', async (status) => {
    const { requests } = sequence('get', [() => HttpResponse.json(page([admitted(1)]))]);
    const result = await makeClient().client.subscribers.list(WAITLIST, { status, limit: 10 });
    const url = new URL(requests[0]?.url ?? '');
    expect(url.search).toBe(`?limit=10&status=${status}`);
    expect(result.items).toEqual([admitted(1)]);
  });

  it('list sends no status unless given (the service defaults to waiting)', async () => {
    const { requests } = sequence('get', [() => HttpResponse.json(page([]))]);
    await makeClient().client.subscribers.list(WAITLIST);
    expect(new URL(requests[0]?.url ?? '').searchParams.has('status')).toBe(false);
  });

  it('rejects an unknown status before sending', async () => {
    const { requests } = sequence('get', [() => HttpResponse.json(page([]))]);
    await expect(
      makeClient().client.subscribers.list(WAITLIST, { status: 'erased' as never }),
    ).rejects.toThrow(new TypeError('subscribers.list: `status` must be one of "waiting", "admitted".'));
    expect(requests).toHaveLength(0);
  });

  it('iterate sends the status with every page', async () => {
    const { requests } = pagedList(5);
    const seen: string[] = [];
    for await (const s of makeClient().client.subscribers.iterate(WAITLIST, {
      status: 'admitted',
      limit: 2,
    })) {
      seen.push(s.id);
    }
    expect(seen).toHaveLength(5);
    expect(requests.map((url) => url.searchParams.get('status'))).toEqual([
      'admitted',
      'admitted',
      'admitted',
    ]);
  });
});

it('the admissions and subscriber paths keep a base path of the base URL', async () => {
  const base = `${BASE_URL}/waitlist/v1/api/waitlists/${WAITLIST}`;
  const admissions = sequence('post', [() => HttpResponse.json({ items: [] })], `${base}/admissions`);
  const one = sequence('get', [() => HttpResponse.json(subscriber(1))], `${base}/subscribers/sub_1`);
  const { client } = makeClient({ baseUrl: `${BASE_URL}/waitlist` });
  await client.subscribers.admit(WAITLIST, { count: 1 });
  await client.subscribers.get(WAITLIST, 'sub_1');
  expect(admissions.requests).toHaveLength(1);
  expect(one.requests).toHaveLength(1);
});
