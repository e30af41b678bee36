import { TOKEN_TTL_MS } from '@waitlistkit/protocol';
import { describe, expect, it } from 'vitest';
import {
  backoffMs,
  DEFAULT_LIMITS,
  decide,
  decideNetworkFailure,
  newLoopState,
  parseRetryAfter,
  requestBody,
  type Step,
  usable,
} from '../src/core/decide.js';
import {
  GeoRestrictedError,
  InvalidEmailError,
  InvalidRequestError,
  TooManyRoundsError,
  WaitlistError,
} from '../src/core/errors.js';
import { NetworkError, RateLimitedError, ServerError } from '../src/core/renamed.js';

const problem = (code: string) => ({ error: { code, message: `${code}!` } });
const accepted = {
  status: 'accepted',
  status_token: 't',
  referral_code: 'K7M2QX',
  status_url: 'https://a.test/s/t',
};
const challenge = {
  status: 'challenge_required',
  gate: 'challenge',
  challenge: { token: 'tok', min_age_ms: 1500 },
};
const pow = { status: 'challenge_required', gate: 'pow', pow: { nonce: 'n'.repeat(63), difficulty: 18 } };
const answer = (status: number, body?: unknown, retryAfter: string | null = null) => ({
  status,
  body,
  retryAfter,
});
const failure = (step: Step) => {
  if (step.next !== 'fail') throw new Error(`expected a failure, got ${step.next}`);
  return step.error;
};

describe('decide', () => {
  it('accepts a 202 with the accepted-signup body', () => {
    expect(decide(newLoopState(), answer(202, accepted))).toEqual({ next: 'accepted', signup: accepted });
  });

  it('answers each 428 gate with its round, counted per gate', () => {
    const loop = newLoopState();
    expect(decide(loop, answer(428, challenge))).toEqual({
      next: 'challenge',
      token: 'tok',
      minAgeMs: 1500,
      round: 1,
    });
    expect(decide(loop, answer(428, pow))).toEqual({
      next: 'pow',
      nonce: 'n'.repeat(63),
      difficulty: 18,
      round: 1,
    });
    expect(decide(loop, answer(428, pow))).toMatchObject({ next: 'pow', round: 2 });
    expect(decide(loop, answer(428, challenge))).toMatchObject({ next: 'challenge', round: 2 });
  });

  it('gives up on a gate after maxRounds of it', () => {
    const loop = newLoopState();
    for (let round = 1; round <= DEFAULT_LIMITS.maxRounds; round++) {
      expect(decide(loop, answer(428, pow))).toMatchObject({ next: 'pow', round });
    }
    const error = failure(decide(loop, answer(428, pow)));
    expect(error).toBeInstanceOf(TooManyRoundsError);
    expect(error).toMatchObject({ status: 428, code: 'too_many_rounds', gate: 'pow' });
    const custom = newLoopState();
    expect(decide(custom, answer(428, challenge), { maxRounds: 1, retries: 0 })).toMatchObject({
      next: 'challenge',
    });
    expect(failure(decide(custom, answer(428, challenge), { maxRounds: 1, retries: 0 }))).toMatchObject({
      gate: 'challenge',
    });
  });

  it('maps every error status to its class and code', () => {
    const cases: [number, unknown, new (...args: never[]) => WaitlistError, string][] = [
      [400, problem('invalid_email'), InvalidEmailError, 'invalid_email'],
      [400, problem('invalid_request'), InvalidRequestError, 'invalid_request'],
      [400, undefined, InvalidRequestError, 'invalid_request'],
      [413, problem('payload_too_large'), InvalidRequestError, 'payload_too_large'],
      [415, undefined, InvalidRequestError, 'unsupported_media_type'],
      [403, problem('geo_restricted'), GeoRestrictedError, 'geo_restricted'],
      [403, problem('feature_not_allowed'), WaitlistError, 'feature_not_allowed'],
      [429, problem('rate_limit_exceeded'), RateLimitedError, 'rate_limit_exceeded'],
      [401, undefined, WaitlistError, 'unexpected_response'],
    ];
    for (const [status, body, Kind, code] of cases) {
      const error = failure(decide(newLoopState(), answer(status, body)));
      expect(error).toBeInstanceOf(Kind);
      expect(error).toMatchObject({ status, code });
    }
    expect(failure(decide(newLoopState(), answer(400, problem('invalid_email')))).message).toBe(
      'invalid_email!',
    );
  });

  it('reads Retry-After on 429, defaulting to the public throttle 60 s', () => {
    expect(failure(decide(newLoopState(), answer(429, undefined, '17'))).retryAfter).toBe(17);
    expect(failure(decide(newLoopState(), answer(429, undefined, null))).retryAfter).toBe(60);
    expect(parseRetryAfter(' 5 ')).toBe(5);
    for (const header of ['', 'soon', '-3', '1.5', 'Wed, 21 Oct 2015 07:28:00 GMT'])
      expect(parseRetryAfter(header)).toBe(60);
  });

  it('leaves a 404 to the caller, who explains it', () => {
    expect(decide(newLoopState(), answer(404, problem('not_found')))).toEqual({ next: 'not_found' });
  });

  it('retries 5xx with growing backoff, then fails with a ServerError', () => {
    const loop = newLoopState();
    const delays = [1, 2, 3].map(() => {
      const step = decide(loop, answer(500, problem('internal_error')), DEFAULT_LIMITS, () => 0);
      if (step.next !== 'retry') throw new Error(step.next);
      return step.delayMs;
    });
    expect(delays).toEqual([500, 1000, 2000]);
    const error = failure(decide(loop, answer(503), DEFAULT_LIMITS, () => 0));
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 503, code: 'internal_error' });
  });

  it('retries network failures on the same budget, then fails with a NetworkError', () => {
    const loop = newLoopState();
    expect(decide(loop, answer(502), DEFAULT_LIMITS, () => 0)).toEqual({ next: 'retry', delayMs: 500 });
    expect(decideNetworkFailure(loop, DEFAULT_LIMITS, () => 0)).toEqual({ next: 'retry', delayMs: 1000 });
    expect(decideNetworkFailure(loop, DEFAULT_LIMITS, () => 0)).toEqual({ next: 'retry', delayMs: 2000 });
    const error = failure(decideNetworkFailure(loop));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ status: 0, code: 'network_error' });
  });

  it('adds at most a quarter of jitter and caps the backoff at 10 s', () => {
    expect(backoffMs(0, () => 0.999)).toBeLessThanOrEqual(625);
    expect(backoffMs(20, () => 0)).toBe(8000);
    expect(backoffMs(20, () => 1)).toBe(10000);
  });

  it('refuses malformed answers instead of guessing', () => {
    const malformed: [number, unknown][] = [
      [202, { status: 'accepted', status_token: 't' }],
      [200, 'ok'],
      [428, { status: 'challenge_required', gate: 'pow', pow: { nonce: 'n', difficulty: 33 } }],
      [428, { status: 'challenge_required', gate: 'pow', pow: { nonce: 'n'.repeat(257), difficulty: 8 } }],
      [428, { status: 'challenge_required', gate: 'challenge', challenge: { token: 't', min_age_ms: -1 } }],
      [
        428,
        { status: 'challenge_required', gate: 'challenge', challenge: { token: 't', min_age_ms: 3_600_000 } },
      ],
      [428, { status: 'challenge_required', gate: 'captcha' }],
      [428, null],
    ];
    for (const [status, body] of malformed) {
      expect(failure(decide(newLoopState(), answer(status, body)))).toMatchObject({
        code: 'unexpected_response',
        status,
      });
    }
  });
});

describe('requestBody', () => {
  it('sends only the fields the attempt has', () => {
    expect(JSON.parse(JSON.stringify(requestBody('a@b.co', undefined, undefined, undefined)))).toEqual({
      email: 'a@b.co',
    });
    expect(requestBody('a@b.co', 'K7M2QX', 'tok', { nonce: 'n', solution: 7 })).toEqual({
      email: 'a@b.co',
      referral_code: 'K7M2QX',
      challenge_token: 'tok',
      pow: { nonce: 'n', solution: 7 },
    });
  });
});

describe('usable: prepared gates at submit time', () => {
  const prepared = { at: 1_000, challenge_token: 't' };
  it('keeps them until a minute before the tokens expire, and passes nothing on', () => {
    expect(usable(prepared, 1_000)).toBe(prepared);
    expect(usable(prepared, 1_000 + TOKEN_TTL_MS - 60_001)).toBe(prepared);
    expect(usable(prepared, 1_000 + TOKEN_TTL_MS - 60_000)).toBeUndefined();
    expect(usable(undefined, 1_000)).toBeUndefined();
  });
});
