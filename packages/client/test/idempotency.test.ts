/** Idempotency-Key on every POST, replays, and the 409/422 answers of docs/protocol.md#idempotency-key. */
import { delay, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  ConflictError,
  IdempotencyKeyInUseError,
  IdempotencyKeyReusedError,
  UnprocessableEntityError,
  type WaitlistApiError,
} from '../src/index.js';
import {
  ADMISSIONS_URL,
  accepted,
  admitted,
  errorResponse,
  makeClient,
  page,
  SUBSCRIBERS_URL,
  sequence,
  subscriberUrl,
  UUID,
  useServer,
  WAITLIST,
} from './helpers.js';

useServer();

const admittedOne = () => HttpResponse.json({ items: [admitted(1)] });
const created = () => HttpResponse.json(accepted, { status: 202 });
const serverError = () => errorResponse(500, 'internal_error');
const inUse =
  (headers: Record<string, string> = {}) =>
  () =>
    errorResponse(409, 'idempotency_key_in_use', headers);
const keys = (requests: Request[]) => requests.map((request) => request.headers.get('idempotency-key'));

async function never(): Promise<Response> {
  await delay('infinite');
  throw new Error('unreachable');
}

// The two POSTs, each with the URL it goes to and an answer of success.
const posts = [
  {
    method: 'create',
    url: SUBSCRIBERS_URL,
    ok: created,
    call: (client: ReturnType<typeof makeClient>['client'], options?: object) =>
      client.subscribers.create(WAITLIST, { email: 'ada@example.com' }, options),
  },
  {
    method: 'admit',
    url: ADMISSIONS_URL,
    ok: admittedOne,
    call: (client: ReturnType<typeof makeClient>['client'], options?: object) =>
      client.subscribers.admit(WAITLIST, { count: 1 }, options),
  },
] as const;

describe.each(posts)('$method', ({ url, ok, call }) => {
  it('sends an Idempotency-Key: a random UUID', async () => {
    const { requests } = sequence('post', [ok], url);
    await call(makeClient().client);
    expect(keys(requests)[0]).toMatch(UUID);
  });

  it('keeps the key identical across the retries of one call', async () => {
    const { requests } = sequence('post', [serverError, () => HttpResponse.error(), ok], url);
    await call(makeClient().client);
    expect(requests).toHaveLength(3);
    const [first, ...rest] = keys(requests);
    expect(first).toMatch(UUID);
    expect(rest).toEqual([first, first]);
  });

  it('makes a different key for each call, also from one client', async () => {
    const { requests } = sequence('post', [ok], url);
    const { client } = makeClient();
    await call(client);
    await call(client);
    await call(makeClient().client);
    expect(new Set(keys(requests)).size).toBe(3);
  });

  it("sends the caller's own key, on every attempt", async () => {
    const { requests } = sequence('post', [serverError, ok], url);
    await call(makeClient().client, { idempotencyKey: 'order-1234:admit' });
    expect(keys(requests)).toEqual(['order-1234:admit', 'order-1234:admit']);
  });

  it('accepts a key of 255 printable ASCII characters, spaces inside included', async () => {
    const { requests } = sequence('post', [ok], url);
    const key = `a ~${'x'.repeat(252)}`;
    await call(makeClient().client, { idempotencyKey: key });
    expect(keys(requests)).toEqual([key]);
  });

  it.each([
    ['', '`idempotencyKey` must be 1 to 255 printable ASCII characters.'],
    ['x'.repeat(256), '`idempotencyKey` must be 1 to 255 printable ASCII characters.'],
    ['clé', '`idempotencyKey` must be 1 to 255 printable ASCII characters.'],
    ['a\nb', '`idempotencyKey` must be 1 to 255 printable ASCII characters.'],
    [' abc', '`idempotencyKey` must not begin or end with a space: HTTP drops those in transit.'],
    ['abc ', '`idempotencyKey` must not begin or end with a space: HTTP drops those in transit.'],
    [42, '`idempotencyKey` must be a string, not number.'],
    [null, '`idempotencyKey` must be a string, not null.'],
  ])('rejects the key %j before sending', async (idempotencyKey, message) => {
    const { requests } = sequence('post', [ok], url);
    await expect(call(makeClient().client, { idempotencyKey })).rejects.toThrow(new TypeError(message));
    expect(requests).toHaveLength(0);
  });

  it('reports a replayed answer', async () => {
    const { requests } = sequence(
      'post',
      [
        async () => {
          const answer = await ok();
          answer.headers.set('Idempotent-Replayed', 'true');
          return answer;
        },
      ],
      url,
    );
    const result = await call(makeClient().client, { idempotencyKey: 'k1' });
    expect(result.idempotentReplayed).toBe(true);
    expect(requests).toHaveLength(1);
  });

  it('reports a first answer as not replayed', async () => {
    sequence('post', [ok], url);
    expect((await call(makeClient().client)).idempotentReplayed).toBe(false);
  });

  it('retries 409 idempotency_key_in_use with backoff, keeping the key, until the kept answer comes', async () => {
    const replayed = async () => {
      const answer = await ok();
      answer.headers.set('Idempotent-Replayed', 'true');
      return answer;
    };
    const { requests } = sequence('post', [inUse(), inUse(), replayed], url);
    const { client, waits } = makeClient();
    const result = await call(client);
    expect(result.idempotentReplayed).toBe(true);
    expect(requests).toHaveLength(3);
    expect(waits).toEqual([375, 750]);
    expect(new Set(keys(requests)).size).toBe(1);
  });

  it('after a timeout, the retry waits out the attempt still running and gets its answer', async () => {
    // The first attempt outlives the client's timeout; the service is still working on it.
    const { requests } = sequence('post', [never, inUse(), ok], url);
    const { client, waits } = makeClient({ timeout: 50 });
    await expect(call(client)).resolves.toMatchObject({ idempotentReplayed: false });
    expect(requests).toHaveLength(3);
    expect(waits).toEqual([375, 750]);
    expect(new Set(keys(requests)).size).toBe(1);
  });

  it('honours a Retry-After on a 409 in-use', async () => {
    sequence('post', [inUse({ 'Retry-After': '2' }), ok], url);
    const { client, waits } = makeClient();
    await call(client);
    expect(waits).toEqual([2000]);
  });

  it('throws IdempotencyKeyInUseError once the retries are used up', async () => {
    const { requests } = sequence('post', [inUse({ 'Request-Id': 'req_inuse0123456789ab' })], url);
    const error = await call(makeClient().client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IdempotencyKeyInUseError);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({
      status: 409,
      code: 'idempotency_key_in_use',
      requestId: 'req_inuse0123456789ab',
    });
    expect(requests).toHaveLength(3);
  });

  it('does not retry a 409 without the in-use code: something else answered', async () => {
    const { requests } = sequence('post', [() => new HttpResponse('conflict', { status: 409 }), ok], url);
    const error = await call(makeClient().client).catch((e: unknown) => e);
    expect((error as WaitlistApiError).constructor).toBe(ConflictError);
    expect(requests).toHaveLength(1);
  });

  it('throws IdempotencyKeyReusedError at once on 422 idempotency_key_reused', async () => {
    const { requests } = sequence('post', [() => errorResponse(422, 'idempotency_key_reused'), ok], url);
    const { client, waits } = makeClient();
    const error = await call(client, { idempotencyKey: 'used-before' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IdempotencyKeyReusedError);
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect(error).toMatchObject({ status: 422, code: 'idempotency_key_reused' });
    expect(requests).toHaveLength(1);
    expect(waits).toEqual([]);
  });
});

describe('methods that do not POST', () => {
  it('send no Idempotency-Key', async () => {
    const list = sequence('get', [() => HttpResponse.json(page([]))]);
    const get = sequence('get', [() => HttpResponse.json(admitted(1))], subscriberUrl('sub_1'));
    const del = sequence('delete', [() => new HttpResponse(null, { status: 204 })], subscriberUrl('sub_1'));
    const { client } = makeClient();
    await client.subscribers.list(WAITLIST);
    await client.subscribers.get(WAITLIST, 'sub_1');
    await client.subscribers.delete(WAITLIST, 'sub_1');
    expect([...keys(list.requests), ...keys(get.requests), ...keys(del.requests)]).toEqual([
      null,
      null,
      null,
    ]);
  });

  it('do not report replays: they have no key to replay', async () => {
    sequence('get', [() => HttpResponse.json(page([]), { headers: { 'Idempotent-Replayed': 'true' } })]);
    const result = await makeClient().client.subscribers.list(WAITLIST);
    expect(result).not.toHaveProperty('idempotentReplayed');
  });
});
