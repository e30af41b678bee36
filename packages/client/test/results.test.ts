/**
 * Results carry the answer's headers beside the body (`rateLimit`, `requestId`,
 * `idempotentReplayed`) without putting them into its JSON: a result stored as JSON stores the
 * service's data alone.
 */
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { RateLimit, ResponseInfo } from '../src/index.js';
import {
  ADMISSIONS_URL,
  accepted,
  admitted,
  BASE_URL,
  makeClient,
  page,
  SUBSCRIBERS_URL,
  server,
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
  'Request-Id': 'req_results0123456789',
};
const rateLimit: RateLimit = { limit: 60, remaining: 41, reset: 19, retryAfter: undefined };

/** Answers every request under the base URL with `body` and the headers above. */
function answer(body: object, status = 200): void {
  server.use(http.all(`${BASE_URL}/*`, () => HttpResponse.json(body, { status, headers })));
}

const subscribers = () => makeClient().client.subscribers;
const list = page([subscriber(1), admitted(2)], { total: 9, limit: 2 });
const admissions = { items: [admitted(3)] };
const cases: [string, object, () => Promise<ResponseInfo>, number?][] = [
  ['list', list, () => subscribers().list(WAITLIST)],
  ['get', subscriber(7), () => subscribers().get(WAITLIST, 'sub_7')],
  ['create', accepted, () => subscribers().create(WAITLIST, { email: 'ada@example.com' }), 202],
  ['admit', admissions, () => subscribers().admit(WAITLIST, { count: 1 })],
];

describe.each(cases)('%s', (_, body, call, status = 200) => {
  it("writes the body's JSON, and nothing of the headers", async () => {
    answer(body, status);
    const result = await call();
    expect(JSON.stringify(result)).toBe(JSON.stringify(body));
    expect(JSON.stringify({ stored: [result] })).toBe(JSON.stringify({ stored: [body] }));
  });

  it('keeps rateLimit and requestId readable, and typed', async () => {
    answer(body, status);
    const result = await call();
    const requestId: string | undefined = result.requestId;
    const limit: RateLimit = result.rateLimit;
    expect(requestId).toBe('req_results0123456789');
    expect(limit).toEqual(rateLimit);
  });

  it("spreads into a plain copy with every key, the headers' too: only the result's own JSON leaves them out", async () => {
    answer(body, status);
    const result = await call();
    const copy = { ...result };
    expect(Object.keys(copy)).toEqual(Object.keys(result));
    expect(copy).toMatchObject({ ...body, rateLimit, requestId: 'req_results0123456789' });
    expect(JSON.parse(JSON.stringify(copy))).toMatchObject({ requestId: 'req_results0123456789' });
  });
});

it("a POST's idempotentReplayed is readable and left out of the JSON too", async () => {
  server.use(
    http.post(SUBSCRIBERS_URL, () =>
      HttpResponse.json(accepted, { status: 202, headers: { 'Idempotent-Replayed': 'true' } }),
    ),
    http.post(ADMISSIONS_URL, () =>
      HttpResponse.json(admissions, { headers: { 'Idempotent-Replayed': 'true' } }),
    ),
  );
  const created = await subscribers().create(WAITLIST, { email: 'ada@example.com' });
  const admittedNow = await subscribers().admit(WAITLIST, { count: 1 });
  expect([created.idempotentReplayed, admittedNow.idempotentReplayed]).toEqual([true, true]);
  expect(JSON.parse(JSON.stringify(created))).toStrictEqual(accepted);
  expect(JSON.parse(JSON.stringify(admittedNow))).toStrictEqual(admissions);
});

it('a structured clone (postMessage, a worker, IndexedDB) keeps the headers as data, and clones', async () => {
  answer(subscriber(7));
  const result = await subscribers().get(WAITLIST, 'sub_7');
  expect(structuredClone(result)).toStrictEqual({
    ...subscriber(7),
    rateLimit,
    requestId: 'req_results0123456789',
  });
});

it('a delete, answered without a body, is its headers alone', async () => {
  server.use(http.delete(subscriberUrl('sub_5'), () => new HttpResponse(null, { status: 204, headers })));
  const result = await subscribers().delete(WAITLIST, 'sub_5');
  expect(JSON.parse(JSON.stringify(result))).toEqual({
    rateLimit: { limit: 60, remaining: 41, reset: 19 },
    requestId: 'req_results0123456789',
  });
});
