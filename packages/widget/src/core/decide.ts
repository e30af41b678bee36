/**
 * The decisions of the sign-up loop, without I/O: what to do with each answer of the public
 * endpoint. `subscribe()` performs the requests, waits and solves; this module only decides.
 */
import {
  type AcceptedSignup,
  type FieldValues,
  type PublicSubscribeBody,
  type Source,
  TOKEN_TTL_MS,
} from '@waitlistkit/protocol';
import {
  ConnectionError,
  GeoRestrictedError,
  InternalServerError,
  InvalidEmailError,
  InvalidRequestError,
  RateLimitError,
  TooManyRoundsError,
  WaitlistError,
  type WaitlistErrorCode,
} from './errors.js';
import { asAccepted, asChallengeRequired, asErrorBody } from './wire.js';

/** The service's `Retry-After` on its public throttle, used when the header is unreadable. */
export const DEFAULT_RETRY_AFTER_SECONDS = 60;

export interface Limits {
  /** 428 answers of one gate that are answered; one more of that gate fails the sign-up. */
  maxRounds: number;
  /** Resends after a 5xx or a network failure before giving up. */
  retries: number;
}

export const DEFAULT_LIMITS: Limits = { maxRounds: 5, retries: 3 };

/** What the loop has been through; `decide` counts in it. */
export interface LoopState {
  challenge: number;
  pow: number;
  failures: number;
}

export const newLoopState = (): LoopState => ({ challenge: 0, pow: 0, failures: 0 });

export interface Answer {
  status: number;
  /** The parsed JSON body, or `undefined` when there was none. */
  body: unknown;
  retryAfter: string | null;
}

export type Step =
  | { next: 'accepted'; signup: AcceptedSignup }
  | { next: 'challenge'; token: string; minAgeMs: number; round: number }
  | { next: 'pow'; nonce: string; difficulty: number; round: number }
  | { next: 'retry'; delayMs: number }
  | { next: 'not_found' }
  | { next: 'fail'; error: WaitlistError };

/** Codes for answers whose body is not the contract's error body. */
const CODES: Record<number, WaitlistErrorCode> = {
  400: 'invalid_request',
  404: 'not_found',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limit_exceeded',
};

/** Exponential backoff with jitter: ~0.5 s, 1 s, 2 s, … capped at 8 s. */
export function backoffMs(failure: number, random: () => number = Math.random): number {
  return Math.round(Math.min(8000, 500 * 2 ** failure) * (1 + random() / 4));
}

export function parseRetryAfter(header: string | null): number {
  return /^\s*\d{1,6}\s*$/.test(header ?? '') ? Number(header) : DEFAULT_RETRY_AFTER_SECONDS;
}

const retryOr = (loop: LoopState, limits: Limits, error: WaitlistError, random: () => number): Step =>
  loop.failures < limits.retries
    ? { next: 'retry', delayMs: backoffMs(loop.failures++, random) }
    : { next: 'fail', error };

/** The step after an answer. Counts rounds and failures in `loop`. */
export function decide(
  loop: LoopState,
  { status, body, retryAfter }: Answer,
  limits: Limits = DEFAULT_LIMITS,
  random: () => number = Math.random,
): Step {
  const signup = status > 199 && status < 300 && asAccepted(body);
  if (signup) return { next: 'accepted', signup };
  const gate = status === 428 && asChallengeRequired(body);
  if (gate) {
    const round = ++loop[gate.gate];
    if (round > limits.maxRounds)
      return { next: 'fail', error: new TooManyRoundsError(gate.gate, limits.maxRounds) };
    return gate.gate === 'pow'
      ? { next: 'pow', nonce: gate.pow.nonce, difficulty: gate.pow.difficulty, round }
      : { next: 'challenge', token: gate.challenge.token, minAgeMs: gate.challenge.min_age_ms, round };
  }
  if (status === 404) return { next: 'not_found' };
  const problem = asErrorBody(body);
  const code = problem?.code ?? CODES[status] ?? (status > 499 ? 'internal_error' : 'unexpected_response');
  const Kind =
    code === 'invalid_email'
      ? InvalidEmailError
      : status === 400 || status === 413 || status === 415
        ? InvalidRequestError
        : code === 'geo_restricted'
          ? GeoRestrictedError
          : status === 429
            ? RateLimitError
            : status > 499
              ? InternalServerError
              : WaitlistError;
  const error = new Kind(
    problem?.message ?? `The waitlist service answered ${status} without the expected body.`,
    status,
    code as WaitlistErrorCode,
    status === 429 ? parseRetryAfter(retryAfter) : undefined,
  );
  return status > 499 ? retryOr(loop, limits, error, random) : { next: 'fail', error };
}

/** The step after a request that got no answer at all (and no sign of a refusal). */
export const decideNetworkFailure = (
  loop: LoopState,
  limits: Limits = DEFAULT_LIMITS,
  random: () => number = Math.random,
): Step =>
  retryOr(
    loop,
    limits,
    new ConnectionError('The waitlist service could not be reached.', 0, 'network_error'),
    random,
  );

/** What a sign-up says besides the address (docs/subscribers.md#fields, docs/subscribers.md#attribution). */
export interface Answers {
  fields?: FieldValues | undefined;
  source?: Source | undefined;
  lang?: string | undefined;
}

/** The request body for the next attempt; absent members are left out. `lang` is sent as given: the server checks it. */
export const requestBody = (
  email: string,
  referral_code: string | undefined,
  challenge_token: string | undefined,
  pow: PublicSubscribeBody['pow'],
  answers?: Answers,
): Omit<PublicSubscribeBody, 'lang'> & Answers => ({
  email,
  referral_code,
  ...answers,
  challenge_token,
  pow,
});

/** Gates passed ahead of the submit (`prepareGates`), for the sign-up's first request. */
export interface PreparedGates {
  challenge_token?: string;
  pow?: PublicSubscribeBody['pow'];
  /** When the gates' answer arrived (clock time): the tokens were issued just before. */
  at: number;
}

/** A minute's margin: the request still has to travel, and clocks and the TTL check differ. */
export const STALE_MS = TOKEN_TTL_MS - 60_000;

/** Prepared gates still worth sending `now`; stale ones would only earn a 428. */
export const usable = (prepared: PreparedGates | undefined, now: number) =>
  // No `prepared`: NaN, not less.
  now - (prepared?.at as number) < STALE_MS ? prepared : undefined;
