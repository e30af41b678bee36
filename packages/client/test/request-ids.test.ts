/** `requestId` (the `Request-Id` header, docs/protocol.md#request-id) on every result and every error. */
import { delay, HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  AbortError,
  ConnectionError,
  InternalServerError,
  InvalidApiKeyError,
  ResponseValidationError,
  TimeoutError,
  WaitlistClient,
  type WaitlistError,
} from '../src/index.js';
import {
  accepted,
  admitted,
  BASE_URL,
  errorResponse,
  makeClient,
  page,
  sequence,
  server,
  subscriber,
  useServer,
  WAITLIST,
} from './helpers.js';

useServer();

const ID = 'req_Zx9-_abcdefghijklmn';

/** Answers each method's request with its success body and `headers`. */
function answerAll(headers: Record<string, string>): void {
  const base = `${BASE_URL}/v1/api/waitlists/${WAITLIST}`;
  server.use(
    http.get(`${base}/subscribers`, () => HttpResponse.json(page([subscriber(1)]), { headers })),
    http.get(`${base}/subscribers/sub_1`, () => HttpResponse.json(subscriber(1), { headers })),
    http.post(`${base}/subscribers`, () => HttpResponse.json(accepted, { status: 202, headers })),
    http.post(`${base}/admissions`, () => HttpResponse.json({ items: [admitted(1)] }, { headers })),
    http.delete(`${base}/subscribers/sub_1`, () => new HttpResponse(null, { status: 204, headers })),
  );
}

const calls = {
  list: () => makeClient().client.subscribers.list(WAITLIST),
  get: () => makeClient().client.subscribers.get(WAITLIST, 'sub_1'),
  create: () => makeClient().client.subscribers.create(WAITLIST, { email: 'a@b.co' }),
  admit: () => makeClient().client.subscribers.admit(WAITLIST, { count: 1 }),
  delete: () => makeClient().client.subscribers.delete(WAITLIST, 'sub_1'),
};

describe.each(Object.entries(calls))('%s', (_, call) => {
  it('returns the Request-Id of its answer', async () => {
    answerAll({ 'Request-Id': ID });
    expect((await call()).requestId).toBe(ID);
  });

  it('returns requestId undefined when the answer had none, or an empty one', async () => {
    answerAll({});
    expect(await call()).toHaveProperty('requestId', undefined);
    answerAll({ 'Request-Id': '' });
    expect(await call()).toHaveProperty('requestId', undefined);
  });
});

describe('on errors', () => {
  it('is taken as sent, even in a shape the service would not use (a proxy’s own id)', async () => {
    sequence('get', [() => errorResponse(502, 'internal_error', { 'Request-Id': 'edge-7f3a' })]);
    const error = await makeClient({ maxRetries: 0 })
      .client.subscribers.list(WAITLIST)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as WaitlistError).requestId).toBe('edge-7f3a');
  });

  it('is the last attempt’s, after retries', async () => {
    const ids = ['req_attempt1xxxxxxxxxxx', 'req_attempt2xxxxxxxxxxx', 'req_attempt3xxxxxxxxxxx'];
    sequence(
      'get',
      ids.map((id) => () => errorResponse(500, 'internal_error', { 'Request-Id': id })),
    );
    const error = await makeClient()
      .client.subscribers.list(WAITLIST)
      .catch((e: unknown) => e);
    expect((error as WaitlistError).requestId).toBe(ids[2]);
  });

  it('a success after a failed attempt carries the success’s id', async () => {
    sequence('get', [
      () => errorResponse(500, 'internal_error', { 'Request-Id': 'req_failedxxxxxxxxxxxxx' }),
      () => HttpResponse.json(page([]), { headers: { 'Request-Id': ID } }),
    ]);
    expect((await makeClient().client.subscribers.list(WAITLIST)).requestId).toBe(ID);
  });

  it('is on ResponseValidationError too', async () => {
    sequence('get', [() => HttpResponse.json({ items: 'none' }, { headers: { 'Request-Id': ID } })]);
    const error = await makeClient()
      .client.subscribers.list(WAITLIST)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as WaitlistError).requestId).toBe(ID);
  });

  it('is undefined without an answer: connection failure, timeout, abort', async () => {
    sequence('get', [() => HttpResponse.error()]);
    const connection = await makeClient({ maxRetries: 0 })
      .client.subscribers.list(WAITLIST)
      .catch((e: unknown) => e);
    expect(connection).toBeInstanceOf(ConnectionError);
    expect(connection).toHaveProperty('requestId', undefined);

    sequence('get', [
      async () => {
        await delay('infinite');
        throw new Error('unreachable');
      },
    ]);
    const timeout = await makeClient({ maxRetries: 0, timeout: 10 })
      .client.subscribers.list(WAITLIST)
      .catch((e: unknown) => e);
    expect(timeout).toBeInstanceOf(TimeoutError);
    expect(timeout).toHaveProperty('requestId', undefined);

    const aborted = await makeClient()
      .client.subscribers.list(WAITLIST, {}, { signal: AbortSignal.abort() })
      .catch((e: unknown) => e);
    expect(aborted).toBeInstanceOf(AbortError);
    expect(aborted).toHaveProperty('requestId', undefined);
  });

  it('is undefined on InvalidApiKeyError, thrown before any request', () => {
    let error: unknown;
    try {
      new WaitlistClient({ apiKey: 'wlk_live_nope', baseUrl: BASE_URL });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidApiKeyError);
    expect(error).toHaveProperty('requestId', undefined);
  });
});
