import { TOKEN_TTL_MS, verifyPow } from '@waitlistkit/protocol';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  GeoRestrictedError,
  InvalidEmailError,
  InvalidRequestError,
  NotFoundError,
  TooManyRoundsError,
  WaitlistError,
} from '../src/core/errors.js';
import { AbortedError, NetworkError, RateLimitedError, ServerError } from '../src/core/renamed.js';
import { type Progress, prepareGates, type SubscribeOptions, subscribe } from '../src/core/subscribe.js';
import {
  BASE_URL,
  ENDPOINT,
  fakeClock,
  fakeService,
  type ServiceOptions,
  WAITLIST_ID,
} from './support/fake-service.js';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  vi.useRealTimers();
});
afterAll(() => server.close());

function setup(options: ServiceOptions = {}) {
  const clock = fakeClock();
  const service = fakeService({ now: clock.now, ...options });
  server.use(service.handler);
  const progress: Progress[] = [];
  const run = (extra: Partial<SubscribeOptions> = {}) =>
    subscribe({
      baseUrl: BASE_URL,
      waitlistId: WAITLIST_ID,
      email: 'ada@example.com',
      clock,
      onProgress: (p) => progress.push(p),
      ...extra,
    });
  return { ...service, clock, progress, run };
}

describe('subscribe: the 428 loop', () => {
  it('returns the accepted sign-up at once when no gate is on', async () => {
    const { run, requests, progress } = setup();
    await expect(run()).resolves.toEqual({
      status: 'accepted',
      status_token: 'tok_status',
      referral_code: 'K7M2QX',
      status_url: 'https://app.waitlist.test/s/tok_status',
      confirmEmail: false,
    });
    expect(requests.map((r) => r.body)).toEqual([{ email: 'ada@example.com' }]);
    expect(requests[0]?.headers.get('content-type')).toBe('application/json');
    expect(progress).toEqual([{ phase: 'submitting', attempt: 1 }, { phase: 'done' }]);
  });

  it('says when the waitlist confirms addresses, from the 202 header', async () => {
    const { run } = setup({ confirmEmail: true });
    await expect(run()).resolves.toMatchObject({ status: 'accepted', confirmEmail: true });
  });

  it('trims the address, forwards a referral code upper-cased and drops one that cannot be a code', async () => {
    const { run, requests } = setup();
    await run({ email: '  ada@example.com ', referralCode: 'k7m2qx' });
    await run({ referralCode: '<script>' });
    expect(requests.map((r) => r.body)).toEqual([
      { email: 'ada@example.com', referral_code: 'K7M2QX' },
      { email: 'ada@example.com' },
    ]);
  });

  it('waits out the challenge, counting min_age_ms from the token’s receipt', async () => {
    const { run, requests, clock, progress } = setup({ challenge: { minAgeMs: 1500 } });
    const started = clock.now();
    // The page is busy for 400 ms right after the token arrives: that time counts towards the wait.
    const signup = run({
      onProgress: (p) => {
        progress.push(p);
        if (p.phase === 'challenge' && p.remainingMs === 1500) clock.advance(400);
      },
    });
    await expect(signup).resolves.toMatchObject({ status: 'accepted' });
    expect(clock.sleeps.reduce((a, b) => a + b, 0)).toBe(1100);
    expect(Math.max(...clock.sleeps)).toBeLessThanOrEqual(250);
    expect(clock.now() - started).toBe(1500);
    expect(requests).toHaveLength(2);
    expect(requests[0]?.body.challenge_token).toBeUndefined();
    expect(requests[1]?.body.challenge_token).toBeTypeOf('string');
    const waits = progress.filter((p) => p.phase === 'challenge');
    expect(waits[0]).toEqual({ phase: 'challenge', round: 1, minAgeMs: 1500, remainingMs: 1500 });
    expect(waits.at(-1)).toMatchObject({ remainingMs: 0 });
  });

  it('sends the token neither early nor late, on the real clock (fake timers)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const service = fakeService({ challenge: { minAgeMs: 1500 } });
    server.use(service.handler);
    let settled = false;
    const signup = subscribe({
      baseUrl: BASE_URL,
      waitlistId: WAITLIST_ID,
      email: 'ada@example.com',
    }).finally(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(1499);
    expect(service.requests).toHaveLength(1);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(signup).resolves.toMatchObject({ status: 'accepted' });
    expect(service.requests).toHaveLength(2);
  });

  it('solves Proof of Work; the service verifies the solution with the protocol’s verifyPow', async () => {
    const { run, requests, progress } = setup({ pow: { difficulty: 12 } });
    await expect(run()).resolves.toMatchObject({ status: 'accepted' });
    expect(requests).toHaveLength(2);
    const pow = requests[1]?.body.pow;
    expect(pow?.nonce).toHaveLength(63);
    expect(verifyPow(pow?.nonce as string, pow?.solution as number, 12)).toBe(true);
    expect(progress.find((p) => p.phase === 'pow')).toEqual({
      phase: 'pow',
      round: 1,
      difficulty: 12,
      hashes: 0,
      expected: 4096,
      rate: 0,
    });
  });

  it('passes both gates: challenge first, then Proof of Work, the last request carrying both', async () => {
    const { run, requests, progress } = setup({ challenge: { minAgeMs: 1500 }, pow: { difficulty: 15 } });
    await expect(run({ workers: 2 })).resolves.toMatchObject({ status: 'accepted' });
    expect(requests).toHaveLength(3);
    const [first, second, third] = requests.map((r) => r.body);
    expect(first).toEqual({ email: 'ada@example.com' });
    expect(second?.challenge_token).toBeTypeOf('string');
    expect(second?.pow).toBeUndefined();
    expect(third?.challenge_token).toBe(second?.challenge_token);
    expect(verifyPow(third?.pow?.nonce as string, third?.pow?.solution as number, 15)).toBe(true);
    expect(progress.map((p) => p.phase).filter((phase, i, all) => phase !== all[i - 1])).toEqual([
      'submitting',
      'challenge',
      'submitting',
      'pow',
      'submitting',
      'done',
    ]);
  });

  it('solves again when a nonce is refused (wrong, expired or reused), then succeeds', async () => {
    const { run, requests } = setup({ pow: { difficulty: 10 }, refuseNonces: 2 });
    await expect(run()).resolves.toMatchObject({ status: 'accepted' });
    expect(requests).toHaveLength(4);
    const nonces = requests.slice(1).map((r) => r.body.pow?.nonce);
    expect(new Set(nonces).size).toBe(3);
  });

  it('waits again when a challenge token is refused', async () => {
    const { run, requests, clock } = setup({ challenge: { minAgeMs: 1000 }, refuseTokens: 1 });
    await expect(run()).resolves.toMatchObject({ status: 'accepted' });
    expect(requests).toHaveLength(3);
    expect(clock.sleeps.reduce((a, b) => a + b, 0)).toBe(2000);
  });

  it('gives up with TooManyRoundsError after five rounds of one gate', async () => {
    const { run, requests } = setup({ pow: { difficulty: 4 }, refuseNonces: 100 });
    const error = await run().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TooManyRoundsError);
    expect(error).toMatchObject({ gate: 'pow', code: 'too_many_rounds', status: 428 });
    expect(requests).toHaveLength(6);
    const few = setup({ challenge: { minAgeMs: 10 }, refuseTokens: 100 });
    await expect(few.run({ maxRounds: 2 })).rejects.toMatchObject({ gate: 'challenge' });
    expect(few.requests).toHaveLength(3);
  });
});

describe('subscribe: errors', () => {
  const answer = (status: number, body?: unknown, headers?: Record<string, string>) =>
    setup({ script: [{ status, body, headers }] });
  const problem = (code: string) => ({ error: { code, message: `server says ${code}` } });

  it('400 invalid_email and invalid_request', async () => {
    await expect(answer(400, problem('invalid_email')).run()).rejects.toBeInstanceOf(InvalidEmailError);
    const error = await answer(400, problem('invalid_request'))
      .run()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error).toMatchObject({
      status: 400,
      code: 'invalid_request',
      message: 'server says invalid_request',
    });
  });

  it('refuses an address without @ before sending anything', async () => {
    const { run, requests } = setup();
    await expect(run({ email: 'not an address' })).rejects.toBeInstanceOf(InvalidEmailError);
    await expect(run({ email: `${'a'.repeat(250)}@b.co` })).rejects.toBeInstanceOf(InvalidEmailError);
    expect(requests).toHaveLength(0);
  });

  it('403 geo_restricted', async () => {
    await expect(answer(403, problem('geo_restricted')).run()).rejects.toBeInstanceOf(GeoRestrictedError);
  });

  it('404 (readable: same origin, or Node) names the waitlist and the command that fixes it', async () => {
    const { run } = setup();
    const error = await run({ waitlistId: 'wl_wrongid', origin: 'https://site.example' }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, code: 'not_found' });
    const message = (error as Error).message;
    expect(message).toContain('wl_wrongid');
    expect(message).toContain('https://site.example');
    expect(message).toContain(
      'pnpm -s waitlist-server waitlist update --waitlist wl_wrongid --origins https://site.example',
    );
  });

  it('sends the Origin header it is given (outside browsers)', async () => {
    const { run, requests } = setup();
    await run({ origin: 'https://site.example' });
    expect(requests[0]?.headers.get('origin')).toBe('https://site.example');
  });

  it('cross-origin 404 (a CORS failure): a no-cors probe that gets an answer means "refused"', async () => {
    const calls: RequestInit[] = [];
    const fetch = (async (_url: string, init: RequestInit) => {
      calls.push(init);
      if (init.mode === 'no-cors') return new Response(null, { status: 200 });
      throw new TypeError('Failed to fetch');
    }) as typeof globalThis.fetch;
    const error = await subscribe({
      baseUrl: BASE_URL,
      waitlistId: WAITLIST_ID,
      email: 'ada@example.com',
      origin: 'https://site.example',
      fetch,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as Error).message).toContain(`--waitlist ${WAITLIST_ID} --origins https://site.example`);
    expect(calls).toHaveLength(2);
    expect(calls[1]).toMatchObject({ method: 'POST', mode: 'no-cors', credentials: 'omit' });
    expect(typeof calls[1]?.body).toBe('string');
    expect(calls[1]?.headers).toBeUndefined();
  });

  it('network failure (the probe fails too): retried with backoff, then NetworkError', async () => {
    const clock = fakeClock();
    let calls = 0;
    const fetch = (async () => {
      calls++;
      throw new TypeError('Failed to fetch');
    }) as typeof globalThis.fetch;
    const error = await subscribe({
      baseUrl: BASE_URL,
      waitlistId: WAITLIST_ID,
      email: 'ada@example.com',
      origin: 'https://site.example',
      fetch,
      clock,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ status: 0, code: 'network_error' });
    expect(calls).toBe(8); // 4 attempts, each followed by a probe
    expect(clock.sleeps).toHaveLength(3);
    expect(clock.sleeps[1]).toBeGreaterThan(clock.sleeps[0] as number);
    expect(clock.sleeps[2]).toBeGreaterThan(clock.sleeps[1] as number);
  });

  it('network failure through msw: a plain network error', async () => {
    server.use(http.post(ENDPOINT, () => HttpResponse.error()));
    const clock = fakeClock();
    await expect(
      subscribe({ baseUrl: BASE_URL, waitlistId: WAITLIST_ID, email: 'ada@example.com', clock, retries: 1 }),
    ).rejects.toBeInstanceOf(NetworkError);
    expect(clock.sleeps).toHaveLength(1);
  });

  it('413 and 415', async () => {
    await expect(answer(413, problem('payload_too_large')).run()).rejects.toMatchObject({
      name: 'InvalidRequestError',
      status: 413,
      code: 'payload_too_large',
    });
    await expect(answer(415, problem('unsupported_media_type')).run()).rejects.toMatchObject({ status: 415 });
  });

  it('429 with Retry-After: no resend, retryAfter in seconds', async () => {
    const { run, requests } = answer(429, problem('rate_limit_exceeded'), { 'Retry-After': '42' });
    const error = await run().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error).toMatchObject({ status: 429, retryAfter: 42 });
    expect(requests).toHaveLength(1);
  });

  it('500 is retried with backoff and can recover', async () => {
    const { run, requests, clock, progress } = setup({
      script: [{ status: 500, body: problem('internal_error') }, { status: 503 }],
    });
    await expect(run()).resolves.toMatchObject({ status: 'accepted' });
    expect(requests).toHaveLength(3);
    expect(clock.sleeps).toHaveLength(2);
    expect(clock.sleeps[1]).toBeGreaterThan(clock.sleeps[0] as number);
    expect(progress.filter((p) => p.phase === 'retry')).toHaveLength(2);
  });

  it('500 on every attempt ends in ServerError after the retries', async () => {
    const errors = Array.from({ length: 4 }, () => ({ status: 500, body: problem('internal_error') }));
    const { run, requests } = setup({ script: errors });
    const error = await run().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 500, code: 'internal_error' });
    expect(requests).toHaveLength(4);
  });

  it('an answer of the wrong shape is an error, not a success', async () => {
    await expect(answer(202, { status: 'accepted' }).run()).rejects.toMatchObject({
      code: 'unexpected_response',
    });
    await expect(answer(200).run()).rejects.toBeInstanceOf(WaitlistError);
  });

  it('refuses options that cannot work', async () => {
    await expect(
      subscribe({ baseUrl: 'ftp://x', waitlistId: WAITLIST_ID, email: 'a@b.co' }),
    ).rejects.toBeInstanceOf(TypeError);
    await expect(subscribe({ baseUrl: BASE_URL, waitlistId: '', email: 'a@b.co' })).rejects.toBeInstanceOf(
      TypeError,
    );
  });
});

describe('subscribe: abort', () => {
  it('before the first request', async () => {
    const { run, requests } = setup();
    const controller = new AbortController();
    controller.abort();
    await expect(run({ signal: controller.signal })).rejects.toBeInstanceOf(AbortedError);
    expect(requests).toHaveLength(0);
  });

  it('during the challenge wait (real timers)', async () => {
    const service = fakeService({ challenge: { minAgeMs: 60_000 } });
    server.use(service.handler);
    const controller = new AbortController();
    const started = Date.now();
    const signup = subscribe({
      baseUrl: BASE_URL,
      waitlistId: WAITLIST_ID,
      email: 'ada@example.com',
      signal: controller.signal,
      onProgress: (p) => p.phase === 'challenge' && controller.abort(),
    });
    await expect(signup).rejects.toBeInstanceOf(AbortedError);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(service.requests).toHaveLength(1);
  });

  it('during Proof of Work', async () => {
    const service = fakeService({ pow: { difficulty: 32 } });
    server.use(service.handler);
    const controller = new AbortController();
    const signup = subscribe({
      baseUrl: BASE_URL,
      waitlistId: WAITLIST_ID,
      email: 'ada@example.com',
      workers: 2,
      signal: controller.signal,
      onProgress: (p) => p.phase === 'pow' && p.hashes > 0 && controller.abort(),
    });
    await expect(signup).rejects.toBeInstanceOf(AbortedError);
    expect(service.requests).toHaveLength(1);
  });
});

describe('prepareGates: the gates passed before the submit (docs/gates.md#gates-before-the-submit)', () => {
  const gatesOn = { challenge: { minAgeMs: 1500 }, pow: { difficulty: 8 } };
  function prepared(options: ServiceOptions = gatesOn) {
    const service = setup(options);
    server.use(service.gates);
    const reports: Progress[] = [];
    const ready = prepareGates({
      baseUrl: BASE_URL,
      waitlistId: WAITLIST_ID,
      clock: service.clock,
      workers: 0,
      onProgress: (p) => reports.push(p),
    });
    return { ...service, ready, reports };
  }

  it('waits out the minimum age and solves: the sign-up is one request', async () => {
    const { run, ready, requests, clock, gateRequests } = prepared();
    expect(gateRequests).toBe(0);
    const tokens = await ready;
    expect(clock.sleeps).toEqual([250, 250, 250, 250, 250, 250]);
    expect(tokens?.challenge_token).toEqual(expect.any(String));
    expect(verifyPow(tokens?.pow?.nonce ?? '', tokens?.pow?.solution ?? -1, 8)).toBe(true);
    await expect(run({ prepared: ready, workers: 0 })).resolves.toMatchObject({ status: 'accepted' });
    expect(requests).toHaveLength(1);
  });

  it('reports its solve and then its wait as round 0, as the 428 loop reports its rounds', async () => {
    const { ready, reports } = prepared();
    await ready;
    const pows = reports.filter((p) => p.phase === 'pow');
    expect(pows[0]).toEqual({ phase: 'pow', round: 0, difficulty: 8, hashes: 0, expected: 256, rate: 0 });
    const waits = reports.filter((p) => p.phase === 'challenge');
    expect(waits.map((p) => p.remainingMs)).toEqual([1500, 1250, 1000, 750, 500, 250, 0]);
    expect(waits.every((p) => p.round === 0 && p.minAgeMs === 1500)).toBe(true);
    // The minimum age runs while the solver works: the solve's reports all come first.
    expect(reports.findIndex((p) => p.phase === 'challenge')).toBe(pows.length);
  });

  it('near expiry, the tokens are left out: the 428 loop passes the gates', async () => {
    const { run, ready, requests, clock } = prepared();
    await ready;
    clock.advance(TOKEN_TTL_MS - 30_000);
    await expect(run({ prepared: ready, workers: 0 })).resolves.toMatchObject({ status: 'accepted' });
    expect(requests).toHaveLength(3);
    expect(requests[0]?.body.challenge_token).toBeUndefined();
  });

  it('tokens the service refuses (settings changed): the 428 loop passes the gates', async () => {
    const { run, ready, requests } = prepared({ ...gatesOn, refuseTokens: 1 });
    await expect(run({ prepared: ready, workers: 0 })).resolves.toMatchObject({ status: 'accepted' });
    expect(requests.length).toBeGreaterThan(1);
  });

  it('a failed prepare resolves undefined and the sign-up passes the gates itself', async () => {
    const service = setup(gatesOn);
    server.use(http.post(`${BASE_URL}/v1/public/waitlists/:id/gates`, () => HttpResponse.error()));
    const ready = prepareGates({ baseUrl: BASE_URL, waitlistId: WAITLIST_ID, clock: service.clock });
    await expect(ready).resolves.toBeUndefined();
    await expect(service.run({ prepared: ready, workers: 0 })).resolves.toMatchObject({ status: 'accepted' });
    expect(service.requests).toHaveLength(3);
  });

  it('sends `{}` without cookies, as the sign-up does', async () => {
    const calls: RequestInit[] = [];
    const fetch = (async (_url: string, init: RequestInit) => {
      calls.push(init);
      return Response.json({});
    }) as typeof globalThis.fetch;
    await prepareGates({ baseUrl: BASE_URL, waitlistId: WAITLIST_ID, fetch });
    expect(calls).toEqual([expect.objectContaining({ method: 'POST', body: '{}', credentials: 'omit' })]);
  });

  it('no gate on: `{}`, nothing waited or solved', async () => {
    const { run, ready, requests, clock } = prepared({});
    expect(await ready).toEqual({ at: clock.now(), challenge_token: undefined, pow: undefined });
    expect(clock.sleeps).toEqual([]);
    await run({ prepared: ready });
    expect(requests).toHaveLength(1);
  });
});
