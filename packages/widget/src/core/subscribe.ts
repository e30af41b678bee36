/**
 * The headless sign-up: one call runs the whole exchange with the public endpoint (challenge
 * wait, Proof of Work, retries) and returns the accepted sign-up or throws a `WaitlistError`.
 * Works in browsers and in Node 20 (pass `origin` there: the endpoint wants an Origin header).
 */
import {
  type AcceptedSignup,
  type FieldValues,
  type GatesResponse,
  normalizeReferralCode,
  type Source,
} from '@waitlistkit/protocol';
import { solvePow } from '../solver/solve.js';
import { type Clock, systemClock } from './clock.js';
import {
  DEFAULT_LIMITS,
  decide,
  decideNetworkFailure,
  newLoopState,
  type PreparedGates,
  requestBody,
  type Step,
  usable,
} from './decide.js';
import { notFoundMessage, pageOrigin, serverAnswers } from './diagnose.js';
import { AbortError, InvalidEmailError, NotFoundError } from './errors.js';
import { parseBaseUrl } from './url.js';

export type Progress =
  | { phase: 'submitting'; attempt: number }
  /** A 5xx or network failure; the request is sent again after `delayMs`. */
  | { phase: 'retry'; delayMs: number }
  /**
   * Waiting out a Challenge token's minimum age; the first report of each round comes at once.
   * Round 0 is `prepareGates()`'s, before any 428.
   */
  | { phase: 'challenge'; round: number; minAgeMs: number; remainingMs: number }
  /** Solving Proof of Work; the first report of each round (hashes 0) comes at once. Round 0: `prepareGates()`. */
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
  /** Answers to the waitlist's fields, by key (docs/subscribers.md#fields); the service checks them. */
  fields?: FieldValues;
  /** Where the sign-up came from (docs/subscribers.md#attribution), sent as given. */
  source?: Source;
  /** The language the visitor reads (a tag of docs/languages.md), sent as given: their mails and pages use it. */
  lang?: string;
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
  /** `prepareGates()`'s promise: its tokens go in the first request, unless it failed or they are near expiry. */
  prepared?: Promise<PreparedGates | undefined>;
}

export type { PreparedGates };
export type PrepareOptions = Pick<
  SubscribeOptions,
  'baseUrl' | 'waitlistId' | 'signal' | 'fetch' | 'origin' | 'workers' | 'clock' | 'onProgress'
>;

/**
 * The address trimmed, or an `InvalidEmailError`: only what no server could accept is refused
 * here (254: the longest address); the service judges the rest.
 */
export function plausibleAddress(input: unknown): string {
  const email = String(input ?? '').trim();
  if (!email.includes('@') || email.length > 254) {
    throw new InvalidEmailError('The email address is not valid.', 400, 'invalid_email');
  }
  return email;
}

/** Progress of a challenge wait is reported this often. */
const CHALLENGE_TICK_MS = 250;

/**
 * The accepted sign-up, and whether the waitlist confirms addresses (docs/subscribers.md#email-confirmation, the
 * `Waitlist-Confirm-Email` header): then a mail is on its way and the visitor should check it.
 */
export type Subscribed = AcceptedSignup & { confirmEmail: boolean };

/** The public endpoint's `path` for this waitlist, and the headers of a request to it. */
export function endpoint(
  { waitlistId, ...options }: Pick<PrepareOptions, 'baseUrl' | 'waitlistId' | 'origin'>,
  path: string,
) {
  const baseUrl = parseBaseUrl(options.baseUrl);
  if (!baseUrl || !waitlistId || typeof waitlistId !== 'string') {
    throw new TypeError('invalid baseUrl or waitlistId');
  }
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.origin) headers.origin = options.origin;
  return {
    baseUrl,
    headers,
    url: `${baseUrl}/v1/public/waitlists/${encodeURIComponent(waitlistId)}/${path}`,
  };
}

type Report = (progress: Progress) => void;

/** Solves a Proof of Work round, reporting as it goes (the first report, hashes 0, at once). */
function solveReported(
  nonce: string,
  difficulty: number,
  round: number,
  report: Report,
  options: PrepareOptions,
): Promise<number> {
  const pows = (hashes: number, rate: number) =>
    report({ phase: 'pow', round, difficulty, hashes, expected: 2 ** difficulty, rate });
  pows(0, 0);
  // The options' signal and workers; nothing else of them is the solver's.
  return solvePow(nonce, difficulty, { ...options, onProgress: (p) => pows(p.hashes, p.rate) });
}

/**
 * Waits out a Challenge token's minimum age, reporting every tick. The token's age counts from its
 * issue; its receipt (`receivedAt`) is the closest the client knows.
 */
async function waitOut(
  receivedAt: number,
  minAgeMs: number,
  round: number,
  report: Report,
  clock: Clock,
  signal?: AbortSignal,
): Promise<void> {
  for (;;) {
    const remainingMs = Math.max(0, receivedAt + minAgeMs - clock.now());
    report({ phase: 'challenge', round, minAgeMs, remainingMs });
    if (!remainingMs) return;
    await clock.sleep(Math.min(remainingMs, CHALLENGE_TICK_MS), signal);
  }
}

/**
 * Passes the waitlist's gates before the sign-up (docs/gates.md#gates-before-the-submit): fetches a Challenge token and a
 * Proof of Work nonce, waits out the token's minimum age while solving, and resolves with what
 * `subscribe({ prepared })` sends so that its first request is accepted. Start it while the
 * visitor types. It never rejects: any failure (or `signal`) resolves `undefined`, and the
 * sign-up then passes the gates itself, answering 428s.
 */
export async function prepareGates(options: PrepareOptions): Promise<PreparedGates | undefined> {
  const { signal, clock = systemClock, fetch: doFetch = fetch, onProgress: report = () => {} } = options;
  try {
    const { url, headers } = endpoint(options, 'gates');
    const response = await doFetch(url, { method: 'POST', headers, body: '{}', credentials: 'omit', signal });
    const at = clock.now();
    // Not checked further: an error's body has neither gate, the solver refuses a bad nonce,
    // and a bad token only costs a 428.
    const { challenge, pow }: GatesResponse = await response.json();
    const solved = pow && {
      nonce: pow.nonce,
      solution: await solveReported(pow.nonce, pow.difficulty, 0, report, options),
    };
    // The minimum age runs while the solver works: only what is left of it is waited out.
    if (challenge) await waitOut(at, challenge.min_age_ms, 0, report, clock, signal);
    return { at, challenge_token: challenge?.token, pow: solved };
  } catch {}
}

export async function subscribe(options: SubscribeOptions): Promise<Subscribed> {
  const {
    waitlistId,
    signal,
    clock = systemClock,
    onProgress: report = () => {},
    fetch: doFetch = fetch,
  } = options;
  const { baseUrl, headers, url } = endpoint(options, 'subscribers');
  const email = plausibleAddress(options.email);
  const limits = { ...DEFAULT_LIMITS };
  if (options.maxRounds !== undefined) limits.maxRounds = options.maxRounds;
  if (options.retries !== undefined) limits.retries = options.retries;
  const origin = pageOrigin() ?? options.origin;
  const referralCode = normalizeReferralCode(options.referralCode);
  const answers = { fields: options.fields, source: options.source, lang: options.lang };
  const loop = newLoopState();
  const notFound = () => new NotFoundError(notFoundMessage(waitlistId, baseUrl, origin), 404, 'not_found');
  const aborted = () => {
    if (signal?.aborted) throw new AbortError();
  };
  const prepared = usable(await options.prepared, clock.now());
  let challengeToken = prepared?.challenge_token;
  let pow = prepared?.pow;

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
        body: JSON.stringify(requestBody(email, referralCode, challengeToken, pow, answers)),
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
      challengeToken = step.token;
      await waitOut(receivedAt, step.minAgeMs, step.round, report, clock, signal);
    } else {
      const { nonce } = step;
      pow = { nonce, solution: await solveReported(nonce, step.difficulty, step.round, report, options) };
    }
  }
}
