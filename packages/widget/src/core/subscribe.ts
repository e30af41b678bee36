/**
 * The headless sign-up: one call runs the whole exchange with the public endpoint (challenge
 * wait, Proof of Work, retries) and returns the accepted sign-up or throws a `WaitlistError`.
 * Works in browsers and in Node 20 (pass `origin` there: the endpoint wants an Origin header).
 */
import { type AcceptedSignup, normalizeReferralCode, type PublicSubscribeBody } from '@waitlistkit/protocol';
import { solvePow } from '../solver/solve.js';
import { type Clock, systemClock } from './clock.js';
import {
  DEFAULT_LIMITS,
  decide,
  decideNetworkFailure,
  newLoopState,
  requestBody,
  type Step,
} from './decide.js';
import { notFoundMessage, pageOrigin, serverAnswers } from './diagnose.js';
import { AbortedError, InvalidEmailError, NotFoundError } from './errors.js';
import { parseBaseUrl } from './url.js';

export type Progress =
  | { phase: 'submitting'; attempt: number }
  /** A 5xx or network failure; the request is sent again after `delayMs`. */
  | { phase: 'retry'; delayMs: number }
  /** Waiting out a Challenge token's minimum age; the first report of each round comes at once. */
  | { phase: 'challenge'; round: number; minAgeMs: number; remainingMs: number }
  /** Solving Proof of Work; the first report of each round (hashes 0) comes at once. */
  | { phase: 'pow'; round: number; difficulty: number; hashes: number; expected: number; rate: number }
  | { phase: 'done' };

export interface SubscribeOptions {
  /** The service's address, e.g. `https://api.example.com` (a path prefix is kept). */
  baseUrl: string;
  /** `wl_…`, from the waitlist's setup page. */
  waitlistId: string;
  email: string;
  /** A referral code (`?ref=`); anything that cannot be one is dropped, as the service would. */
  referralCode?: string;
  signal?: AbortSignal;
  onProgress?: (progress: Progress) => void;
  fetch?: typeof fetch;
  /** Outside browsers: the Origin header to send (browsers send their own and ignore this). */
  origin?: string;
  /** Proof of Work workers; 0 solves on the calling thread. Default: one per core, at most 8. */
  workers?: number;
  /** 428 answers of one gate that are answered before giving up; default 5. */
  maxRounds?: number;
  /** Resends after a 5xx or a network failure, with backoff; default 3. */
  retries?: number;
  /** Time source and timers (tests). */
  clock?: Clock;
}

/** Progress of a challenge wait is reported this often. */
const CHALLENGE_TICK_MS = 250;

/**
 * The accepted sign-up, and whether the waitlist confirms addresses (contract §15, the
 * `Waitlist-Confirm-Email` header): then a mail is on its way and the visitor should check it.
 */
export type Subscribed = AcceptedSignup & { confirmEmail: boolean };

export async function subscribe(options: SubscribeOptions): Promise<Subscribed> {
  const {
    waitlistId,
    signal,
    clock = systemClock,
    onProgress: report = () => {},
    fetch: doFetch = fetch,
  } = options;
  const baseUrl = parseBaseUrl(options.baseUrl);
  if (!baseUrl || !waitlistId || typeof waitlistId !== 'string') {
    throw new TypeError('subscribe: needs an http(s) baseUrl and a waitlistId.');
  }
  const email = String(options.email ?? '').trim();
  // Only what no server could accept is refused here (254: the longest address); the service judges the rest.
  if (!email.includes('@') || email.length > 254) {
    throw new InvalidEmailError('The email address is not valid.', 400, 'invalid_email');
  }
  const limits = { ...DEFAULT_LIMITS };
  if (options.maxRounds !== undefined) limits.maxRounds = options.maxRounds;
  if (options.retries !== undefined) limits.retries = options.retries;
  const url = `${baseUrl}/v1/public/waitlists/${encodeURIComponent(waitlistId)}/subscribers`;
  const origin = pageOrigin() ?? options.origin;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.origin) headers.origin = options.origin;
  const referralCode = normalizeReferralCode(options.referralCode);
  const loop = newLoopState();
  const notFound = () => new NotFoundError(notFoundMessage(waitlistId, baseUrl, origin), 404, 'not_found');
  const aborted = () => {
    if (signal?.aborted) throw new AbortedError();
  };
  let challengeToken: string | undefined;
  let pow: PublicSubscribeBody['pow'];

  for (let attempt = 1; ; attempt++) {
    aborted();
    report({ phase: 'submitting', attempt });
    let step: Step;
    let receivedAt = 0;
    let confirmEmail = false;
    try {
      const response = await doFetch(url, {
        method: 'POST',
        headers,
        body: JSON.stringify(requestBody(email, referralCode, challengeToken, pow)),
        credentials: 'omit',
        signal,
      });
      receivedAt = clock.now();
      confirmEmail = response.headers.get('waitlist-confirm-email') === 'on';
      const body = await response.json().catch(() => undefined);
      step = decide(
        loop,
        { status: response.status, body, retryAfter: response.headers.get('retry-after') },
        limits,
      );
    } catch (error) {
      aborted();
      if (!(error instanceof TypeError)) throw error;
      // Cross-origin, a refusal looks like a network failure; a probe tells them apart.
      if (origin && new URL(url).origin !== origin && (await serverAnswers(doFetch, url, signal)))
        throw notFound();
      step = decideNetworkFailure(loop, limits);
    }
    aborted();

    if (step.next === 'accepted') {
      report({ phase: 'done' });
      return { ...step.signup, confirmEmail };
    }
    if (step.next === 'not_found') throw notFound();
    if (step.next === 'fail') throw step.error;
    if (step.next === 'retry') {
      report({ phase: 'retry', delayMs: step.delayMs });
      await clock.sleep(step.delayMs, signal);
    } else if (step.next === 'challenge') {
      const { token, minAgeMs, round } = step;
      challengeToken = token;
      // The token's age counts from its issue; its receipt is the closest the client knows.
      for (;;) {
        const remainingMs = Math.max(0, receivedAt + minAgeMs - clock.now());
        report({ phase: 'challenge', round, minAgeMs, remainingMs });
        if (!remainingMs) break;
        await clock.sleep(Math.min(remainingMs, CHALLENGE_TICK_MS), signal);
      }
    } else {
      const { nonce, difficulty, round } = step;
      const pows = (hashes: number, rate: number) =>
        report({ phase: 'pow', round, difficulty, hashes, expected: 2 ** difficulty, rate });
      pows(0, 0);
      const solution = await solvePow(nonce, difficulty, {
        signal,
        workers: options.workers,
        onProgress: (p) => pows(p.hashes, p.rate),
      });
      pow = { nonce, solution };
    }
  }
}
