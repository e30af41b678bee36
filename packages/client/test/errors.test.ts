import type { ErrorCode } from '@waitlistkit/protocol';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  ConflictError,
  FeatureNotAllowedError,
  GeoRestrictedError,
  IdempotencyKeyInUseError,
  IdempotencyKeyReusedError,
  InsufficientScopeError,
  InternalServerError,
  InvalidEmailError,
  InvalidRequestError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionError,
  RateLimitError,
  UnprocessableEntityError,
  UnsupportedMediaTypeError,
  WaitlistApiError,
  WaitlistError,
} from '../src/index.js';
import { BASE_URL, errorBody, makeClient, server, useServer, WAITLIST } from './helpers.js';

useServer();

type ErrorClass = abstract new (...args: never[]) => WaitlistApiError;

const subscribers = () => makeClient({ maxRetries: 0 }).client.subscribers;
const call = {
  list: () => subscribers().list(WAITLIST),
  create: () => subscribers().create(WAITLIST, { email: 'ada@example.com' }),
  get: () => subscribers().get(WAITLIST, 'sub_1'),
  admit: () => subscribers().admit(WAITLIST, { count: 1 }),
  delete: () => subscribers().delete(WAITLIST, 'sub_1'),
};
const methods = Object.keys(call) as Array<keyof typeof call>;

async function failure(method: keyof typeof call): Promise<unknown> {
  return call[method]().then(
    () => expect.unreachable('the call should have failed'),
    (error: unknown) => error,
  );
}

/** Every request under the waitlist, whatever its method and path, gets `respond`'s answer. */
function answer(respond: () => Response): void {
  server.use(http.all(`${BASE_URL}/v1/api/waitlists/${WAITLIST}/*`, respond));
}

// Every code of docs/protocol.md#errors the API can send.
const cases: Array<[number, ErrorCode, ErrorClass, ErrorClass[]]> = [
  [400, 'invalid_email', InvalidEmailError, [InvalidRequestError]],
  [400, 'invalid_request', InvalidRequestError, []],
  [401, 'unauthorized', AuthenticationError, []],
  [403, 'feature_not_allowed', FeatureNotAllowedError, [PermissionError]],
  [403, 'insufficient_scope', InsufficientScopeError, [PermissionError]],
  [403, 'geo_restricted', GeoRestrictedError, [PermissionError]],
  [404, 'not_found', NotFoundError, []],
  [409, 'idempotency_key_in_use', IdempotencyKeyInUseError, [ConflictError]],
  [413, 'payload_too_large', PayloadTooLargeError, []],
  [415, 'unsupported_media_type', UnsupportedMediaTypeError, []],
  [422, 'idempotency_key_reused', IdempotencyKeyReusedError, [UnprocessableEntityError]],
  [429, 'rate_limit_exceeded', RateLimitError, []],
  [500, 'internal_error', InternalServerError, []],
];

// The classes that must not match a given error, to prove the mapping is not "everything matches".
const allClasses: ErrorClass[] = [...new Set(cases.flatMap(([, , Class, parents]) => [Class, ...parents]))];

describe.each(methods)('%s', (method) => {
  it.each(cases)('%i %s → %o', async (status, code, Class, parents) => {
    const message = `The service says ${code}.`;
    answer(() =>
      HttpResponse.json(errorBody(code, message), {
        status,
        headers: {
          'X-Request-Marker': 'm1',
          'Request-Id': 'req_0123456789abcdefXY',
          'RateLimit-Remaining': '12',
          ...(status === 429 ? { 'Retry-After': '7' } : {}),
        },
      }),
    );
    const error = await failure(method);
    expect(error).toBeInstanceOf(Class);
    for (const parent of parents) expect(error).toBeInstanceOf(parent);
    for (const other of allClasses) {
      if (other !== Class && !parents.includes(other)) expect(error).not.toBeInstanceOf(other);
    }
    expect(error).toBeInstanceOf(WaitlistApiError);
    expect(error).toBeInstanceOf(WaitlistError);
    expect(error).toBeInstanceOf(Error);
    const apiError = error as WaitlistApiError;
    expect(apiError.name).toBe(Class.name);
    expect(apiError.status).toBe(status);
    expect(apiError.code).toBe(code);
    expect(apiError.message).toBe(message);
    expect(apiError.headers).toBeInstanceOf(Headers);
    expect(apiError.headers.get('x-request-marker')).toBe('m1');
    expect(apiError.rateLimit.remaining).toBe(12);
    expect(apiError.retryAfter).toBe(status === 429 ? 7 : undefined);
    expect(apiError.requestId).toBe('req_0123456789abcdefXY');
  });
});

describe('bodies that are not the contract error body', () => {
  const byStatus: Array<[number, ErrorClass]> = [
    [400, InvalidRequestError],
    [401, AuthenticationError],
    [403, PermissionError],
    [404, NotFoundError],
    [413, PayloadTooLargeError],
    [415, UnsupportedMediaTypeError],
    [429, RateLimitError],
    [500, InternalServerError],
    [502, InternalServerError],
    [503, InternalServerError],
    [409, ConflictError],
    [422, UnprocessableEntityError],
    [410, WaitlistApiError],
  ];

  it.each(byStatus)('a %i with an HTML body is still %o, code undefined', async (status, Class) => {
    answer(
      () =>
        new HttpResponse('<html>Bad gateway</html>', { status, headers: { 'Content-Type': 'text/html' } }),
    );
    const error = (await failure('list')) as WaitlistApiError;
    expect(error.constructor).toBe(Class);
    expect(error.status).toBe(status);
    expect(error.code).toBeUndefined();
    expect(error.message).toMatch(
      new RegExp(`^The service answered ${status}\\b.* without its error body\\.$`),
    );
  });

  it.each([
    ['an empty body', () => new HttpResponse(null, { status: 403 })],
    ['JSON of another shape', () => HttpResponse.json({ message: 'nope' }, { status: 403 })],
    ['an unknown code', () => HttpResponse.json(errorBody('i_am_new' as ErrorCode), { status: 403 })],
  ])('%s gives the status class', async (_, respond) => {
    answer(respond);
    const error = (await failure('create')) as WaitlistApiError;
    expect(error.constructor).toBe(PermissionError);
    expect(error.code).toBeUndefined();
  });

  it('a code sent with another status keeps the code but not its class', async () => {
    answer(() => HttpResponse.json(errorBody('insufficient_scope'), { status: 400 }));
    const error = (await failure('list')) as WaitlistApiError;
    expect(error.constructor).toBe(InvalidRequestError);
    expect(error).not.toBeInstanceOf(PermissionError);
    expect(error.code).toBe('insufficient_scope');
  });
});

describe('Retry-After on errors', () => {
  it('reads an HTTP date as the seconds left, rounded up', async () => {
    const inAMinute = new Date(Date.now() + 90_500).toUTCString();
    answer(() =>
      HttpResponse.json(errorBody('rate_limit_exceeded'), {
        status: 429,
        headers: { 'Retry-After': inAMinute },
      }),
    );
    const error = (await failure('list')) as RateLimitError;
    // toUTCString drops the milliseconds, so 89.5 s to 90.5 s are left.
    expect(error.retryAfter).toBeGreaterThanOrEqual(89);
    expect(error.retryAfter).toBeLessThanOrEqual(91);
  });

  it('ignores an unreadable value', async () => {
    answer(() =>
      HttpResponse.json(errorBody('rate_limit_exceeded'), {
        status: 429,
        headers: { 'Retry-After': 'soon' },
      }),
    );
    const error = (await failure('list')) as RateLimitError;
    expect(error.retryAfter).toBeUndefined();
  });
});
