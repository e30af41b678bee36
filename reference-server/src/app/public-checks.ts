/**
 * The public endpoints' walks (domain/checks.ts): subscribe (PUBLIC_ORDER), its gates
 * (GATES_ORDER) and the form's views (VIEWS_ORDER), which share their first checks. Each check establishes what the next take: the
 * live `waitlist`, the allowed `origin` (only then may an answer carry CORS headers), the `body`,
 * the gate tokens that passed (`challenge`, `pow`: redeemed once every gate has passed, in the
 * sign-up's own write or with a later refusal), and which throttles counted the request.
 */
import {
  type ChallengeRequired,
  ErrorCode,
  Gate,
  PUBLIC_RETRY_AFTER_SECONDS,
  parseGatesBody,
  parsePublicSubscribeBody,
  parseViewBody,
  type Source,
  verifyPow,
} from '@waitlistkit/protocol';
import { countryOf } from '../adapters/geo.js';
import {
  checks,
  GATES_ORDER,
  PUBLIC_ENTRY_ORDER,
  PUBLIC_ORDER,
  type Stop,
  VIEWS_ORDER,
} from '../domain/checks.js';
import { clientKey } from '../domain/client-key.js';
import { isOriginAllowed } from '../domain/origins.js';
import type { TokenUse, Waitlist } from '../domain/records.js';
import { checkChallengeToken, checkPowSolution } from '../domain/tokens.js';
import type { Context } from './context.js';
import { disposableCheck, emailThrottle, extrasCheck, geoCheck, mxCheck } from './create-checks.js';
import { difficultyToRedeem, issueChallenge, issuePow } from './gates.js';
import { type BodyRead, type Refusal, refusal } from './refusal.js';
import { parsedBody } from './request-body.js';

export interface PublicSignupInput {
  waitlistId: string;
  origin: string | undefined;
  /** The full address, for geo; the throttles count its client key (domain/client-key). */
  ip: string | undefined;
  /**
   * Read only when the checks before it have passed (413/415/400 come after 404 and 429); the
   * same answer on every call.
   */
  readBody: () => Promise<BodyRead>;
}

/**
 * The throttles that counted the request in an earlier decision of it (signup.ts decides a
 * request a second time on fresher settings): it is still one attempt, not counted again.
 */
export interface Counted {
  ip?: boolean;
  email?: boolean;
}

/** What a public walk starts from. */
export interface PublicState {
  input: PublicSignupInput;
  /** The waitlist as read for this request, or as remembered (see signup.ts). */
  found: Waitlist | undefined;
  counted: Counted;
}

export type Refused = { refusal: Refusal };
export type Gated = { gate: ChallengeRequired };

// Missing or archived waitlist, missing or refused Origin: one answer for all, by design.
export const NOT_FOUND: Stop<Refused> = {
  stop: { refusal: refusal(ErrorCode.notFound, 'Waitlist not found.') },
};
// One budget for all of an address's public requests (sign-ups, gates, views): the answer names none.
const IP_REFUSED: Stop<Refused> = {
  stop: {
    refusal: refusal(
      ErrorCode.rateLimitExceeded,
      `Too many requests from this address; try again in ${PUBLIC_RETRY_AFTER_SECONDS} seconds.`,
      PUBLIC_RETRY_AFTER_SECONDS,
    ),
  },
};
// Facts that are the same for every request: no object per request for them.
const IP_COUNTED = { ipCounted: true };
const EMAIL_COUNTED = { emailCounted: true };
const EMAIL_NOT_COUNTED = { emailCounted: false };
const NO_CHALLENGE: { challenge: TokenUse | undefined } = { challenge: undefined };
const NO_POW: { pow: TokenUse | undefined } = { pow: undefined };
const NO_SOURCE: Source = {};

/** The waitlist, when it is live. */
export const live = (found: Waitlist | undefined): Waitlist | undefined =>
  found && !found.archived ? found : undefined;

/** The request's origin when the waitlist allowlists it: never echo a refused one. */
const allowedOrigin = (waitlist: Waitlist, origin: string | undefined): string | undefined =>
  isOriginAllowed(origin, waitlist.settings.origins) ? origin : undefined;

/**
 * The origin an answer may carry when no walk said (a failure, a CORS preflight): the one the
 * first two checks would allow on `found`.
 */
export const originOn = (found: Waitlist | undefined, origin: string | undefined): string | undefined => {
  const waitlist = live(found);
  return waitlist && allowedOrigin(waitlist, origin);
};

/** A walk's stop on a check's refusal, when it has one. */
const stopOn = (why: Refusal | undefined): Stop<Refused> | undefined => why && { stop: { refusal: why } };

export function newChallenge(ctx: Context, waitlist: Waitlist): Stop<Gated> {
  return {
    stop: {
      gate: { status: 'challenge_required', gate: Gate.challenge, challenge: issueChallenge(ctx, waitlist) },
    },
  };
}

export async function newPow(ctx: Context, waitlist: Waitlist, ip: string | undefined): Promise<Stop<Gated>> {
  return {
    stop: { gate: { status: 'challenge_required', gate: Gate.pow, pow: await issuePow(ctx, waitlist, ip) } },
  };
}

/** The two walks, built once per process. */
export function publicWalks(ctx: Context) {
  const now = () => ctx.clock.now();
  const unused = async (id: string) => (await ctx.store.reads.tokens.used([id])).size === 0;

  const entry = checks(PUBLIC_ENTRY_ORDER)
    .from<PublicState>()
    .check('waitlist', (s) => {
      const waitlist = live(s.found);
      return waitlist ? { waitlist } : NOT_FOUND;
    })
    .check('origin', (s) => {
      const origin = allowedOrigin(s.waitlist, s.input.origin);
      return origin === undefined ? NOT_FOUND : { origin };
    })
    .check('ip_throttle', async (s) => {
      if (s.counted.ip) return IP_COUNTED;
      const limit = { capacity: s.waitlist.settings.ip_limit, windowMs: 60_000 };
      const key = `${s.waitlist.id}|${clientKey(s.input.ip)}`;
      return (await ctx.limiters.ip.take(key, now(), limit)).allowed ? IP_COUNTED : IP_REFUSED;
    });

  const signUp = entry
    .prefixOf(PUBLIC_ORDER)
    .check('body', async (s) => {
      const body = await parsedBody(s.input.readBody, parsePublicSubscribeBody);
      if (!body.ok) return { stop: { refusal: body.refusal } };
      const checked = extrasCheck(s.waitlist.settings, body.value);
      return 'refusal' in checked ? { stop: checked } : { body: body.value, extras: checked.extras };
    })
    .check('challenge', async (s): Promise<{ challenge: TokenUse | undefined } | Stop<Gated>> => {
      const { waitlist } = s;
      if (!waitlist.settings.challenge) return NO_CHALLENGE;
      const token = s.body.challenge_token;
      if (token === undefined) return newChallenge(ctx, waitlist);
      const checked = checkChallengeToken(ctx.secret, waitlist.id, token, now());
      if (!checked.ok || !(await unused(checked.id))) return newChallenge(ctx, waitlist);
      return { challenge: { id: checked.id, expiresAt: checked.expiresAt } };
    })
    .check('pow', async (s): Promise<{ pow: TokenUse | undefined } | Stop<Gated>> => {
      const { waitlist, input } = s;
      if (!waitlist.settings.pow) return NO_POW;
      const pow = s.body.pow;
      if (pow === undefined) return newPow(ctx, waitlist, input.ip);
      const checked = checkPowSolution(ctx.secret, waitlist.id, pow.nonce, pow.solution, now());
      if (!checked.ok || !(await unused(checked.id))) return newPow(ctx, waitlist, input.ip);
      // Sign-ups accepted from the address since the nonce was issued raise its price.
      const needed = await difficultyToRedeem(ctx, waitlist, input.ip, checked.difficulty);
      if (needed > checked.difficulty && !verifyPow(pow.nonce, pow.solution, needed))
        return newPow(ctx, waitlist, input.ip);
      return { pow: { id: checked.id, expiresAt: checked.expiresAt } };
    })
    .check('email_throttle', (s) => {
      if (s.counted.email) return EMAIL_COUNTED;
      const taking = emailThrottle(ctx, s.waitlist, s.body.normalized_email);
      return taking ? taking.then((refused) => stopOn(refused) ?? EMAIL_COUNTED) : EMAIL_NOT_COUNTED;
    })
    .check('disposable', (s) => stopOn(disposableCheck(s.waitlist.settings, s.body.email_domain)))
    .check('mx', (s) => {
      const looking = mxCheck(ctx, s.waitlist.settings, s.body.email_domain);
      return looking ? looking.then(stopOn) : undefined;
    })
    .check('geo', (s) => stopOn(geoCheck(s.waitlist.settings, countryOf(s.input.ip))));

  const gates = entry.prefixOf(GATES_ORDER).check('gates_body', async (s) => {
    const body = await parsedBody(s.input.readBody, parseGatesBody);
    return body.ok ? undefined : { stop: { refusal: body.refusal } };
  });

  const view = entry.prefixOf(VIEWS_ORDER).check('view_body', async (s) => {
    const body = await parsedBody(s.input.readBody, parseViewBody);
    return body.ok ? { source: body.value.source ?? NO_SOURCE } : { stop: { refusal: body.refusal } };
  });

  return { signUp, gates, view };
}

export type PublicWalks = ReturnType<typeof publicWalks>;
/** A sign-up's walk, ended: what it established, and how it stopped if it did. */
type SignupWalked = Awaited<ReturnType<PublicWalks['signUp']['run']>>;
/** What a sign-up's walk established before it stopped (all of it, when it did not). */
export type SignupFacts = Exclude<SignupWalked, { stop?: undefined }>['state'];
