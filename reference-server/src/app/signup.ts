/**
 * Sign-up through the public endpoint: the anti-abuse pipeline of contract §2, in its order,
 * then one commit. Gate tokens are stateless (signed); a token is redeemed, once, only when every
 * gate has passed, so the final request of a Challenge-then-PoW flow can carry both; in the
 * sign-up's own write when it is accepted, so a gated sign-up costs one statement group like any
 * other.
 */
import {
  type AcceptedSignup,
  type ChallengeRequired,
  ErrorCode,
  Gate,
  type GatesResponse,
  PUBLIC_RETRY_AFTER_SECONDS,
  parseGatesBody,
  parsePublicSubscribeBody,
  verifyPow,
} from '@waitlistkit/protocol';
import { countryOf } from '../adapters/geo.js';
import { GATES_ORDER, PUBLIC_ORDER, runChecks } from '../domain/checks.js';
import { clientKey } from '../domain/client-key.js';
import { isOriginAllowed } from '../domain/origins.js';
import type { TokenUse, Waitlist } from '../domain/records.js';
import { checkChallengeToken, checkPowSolution } from '../domain/tokens.js';
import type { Context } from './context.js';
import { acceptedBody, disposableCheck, emailThrottle, geoCheck, mxCheck } from './create-checks.js';
import { difficultyToRedeem, issueChallenge, issuePow, recordAccepted } from './gates.js';
import { type BodyRead, type Refusal, refusal } from './refusal.js';
import { RememberedWaitlists } from './remembered-waitlists.js';

// ------------------------------------------------------------------ the public endpoint

export interface PublicSignupInput {
  waitlistId: string;
  origin: string | undefined;
  /** The full address, for geo; the throttles count its client key (domain/client-key). */
  ip: string | undefined;
  /** Read only when the checks before it have passed (413/415/400 come after 404 and 429). */
  readBody: () => Promise<BodyRead>;
}

/**
 * `origin` is set once the request's Origin is known to be allowlisted: only then may the
 * answer carry CORS headers (a `failed` one included: its 500 must be readable too).
 */
/** `confirmEmail`: the waitlist confirms addresses (a fact about the waitlist, not about this address). */
export type PublicSignupResult = {
  origin?: string;
} /** `confirmEmail`: the waitlist confirms addresses, whoever this was (a fact about the waitlist, not the address). */ & (
  | { kind: 'accepted'; body: AcceptedSignup; confirmEmail: boolean }
  | { kind: 'refused'; refusal: Refusal }
  | { kind: 'gate'; body: ChallengeRequired }
  | { kind: 'failed'; error: unknown }
);

export type PublicGatesResult = { origin?: string } & (
  | { kind: 'gates'; body: GatesResponse }
  | { kind: 'refused'; refusal: Refusal }
  | { kind: 'failed'; error: unknown }
);

type Body = Extract<ReturnType<typeof parsePublicSubscribeBody>, { ok: true }>['value'];
type Stop = { refusal: Refusal } | { gate: ChallengeRequired };

interface PublicState {
  input: PublicSignupInput;
  /** As read for this request, or as remembered (see signUp). */
  waitlist: Waitlist | undefined;
  body?: Body;
  /** Tokens that passed their gate, to redeem once every gate has passed. */
  tokens: (TokenUse & { gate: 'challenge' | 'pow' })[];
  /**
   * Throttles that counted this request and let it through. A request decided a second time, on
   * fresher settings, is still one attempt: it is not counted again.
   */
  passed: Set<'ip' | 'email'>;
}

/** A sign-up decided: written, stopped by a check, or not written because the waitlist changed. */
type Decision =
  | { kind: 'accepted'; result: PublicSignupResult }
  | { kind: 'stopped'; stop: Stop }
  | { kind: 'changed' };

// Missing or archived waitlist, missing or refused Origin: one answer for all, by design.
const NOT_FOUND: Stop = { refusal: refusal(ErrorCode.notFound, 'Waitlist not found.') };

export class PublicSignups {
  private readonly checks;
  private readonly waitlists: RememberedWaitlists;
  /** The fresh 428 for the first of `lost`, tokens that a concurrent request redeemed first. */
  private readonly lostGate: (s: PublicState, lost: readonly string[]) => Stop | Promise<Stop>;

  constructor(private readonly ctx: Context) {
    this.waitlists = new RememberedWaitlists(ctx.store);
    const now = () => ctx.clock.now();
    const waitlistOf = (s: PublicState) => s.waitlist as Waitlist;
    const bodyOf = (s: PublicState) => s.body as Body;
    const newChallenge = (waitlist: Waitlist): Stop => ({
      gate: { status: 'challenge_required', gate: Gate.challenge, challenge: issueChallenge(ctx, waitlist) },
    });
    const newPow = async (s: PublicState): Promise<Stop> => ({
      gate: {
        status: 'challenge_required',
        gate: Gate.pow,
        pow: await issuePow(ctx, waitlistOf(s), s.input.ip),
      },
    });
    const unused = async (id: string) => (await ctx.store.reads.tokens.used([id])).size === 0;
    this.lostGate = (s, lost) =>
      s.tokens.find((t) => lost.includes(t.id))?.gate === 'challenge'
        ? newChallenge(waitlistOf(s))
        : newPow(s);

    this.checks = {
      waitlist: (s: PublicState): Stop | undefined =>
        s.waitlist && !s.waitlist.archived ? undefined : NOT_FOUND,
      origin: (s: PublicState) =>
        isOriginAllowed(s.input.origin, waitlistOf(s).settings.origins) ? undefined : NOT_FOUND,
      ip_throttle: async (s: PublicState): Promise<Stop | undefined> => {
        if (s.passed.has('ip')) return undefined;
        const waitlist = waitlistOf(s);
        const limit = { capacity: waitlist.settings.ip_limit, windowMs: 60_000 };
        const key = `${waitlist.id}|${clientKey(s.input.ip)}`;
        if ((await ctx.limiters.ip.take(key, now(), limit)).allowed) {
          s.passed.add('ip');
          return undefined;
        }
        return {
          refusal: refusal(
            ErrorCode.rateLimitExceeded,
            `Too many sign-up attempts from this address; try again in ${PUBLIC_RETRY_AFTER_SECONDS} seconds.`,
            PUBLIC_RETRY_AFTER_SECONDS,
          ),
        };
      },
      body: async (s: PublicState): Promise<Stop | undefined> => {
        const raw = await s.input.readBody();
        if (!raw.ok) return { refusal: raw.refusal };
        const parsed = parsePublicSubscribeBody(raw.value);
        if (!parsed.ok) return { refusal: refusal(parsed.error.code, parsed.error.message) };
        s.body = parsed.value;
        return undefined;
      },
      gates_body: async (s: PublicState): Promise<Stop | undefined> => {
        const raw = await s.input.readBody();
        if (!raw.ok) return { refusal: raw.refusal };
        const parsed = parseGatesBody(raw.value);
        return parsed.ok ? undefined : { refusal: refusal(parsed.error.code, parsed.error.message) };
      },
      challenge: async (s: PublicState): Promise<Stop | undefined> => {
        const waitlist = waitlistOf(s);
        if (!waitlist.settings.challenge) return undefined;
        const token = s.body?.challenge_token;
        if (token === undefined) return newChallenge(waitlist);
        const checked = checkChallengeToken(ctx.secret, waitlist.id, token, now());
        if (!checked.ok || !(await unused(checked.id))) return newChallenge(waitlist);
        s.tokens.push({ gate: 'challenge', id: checked.id, expiresAt: checked.expiresAt });
        return undefined;
      },
      pow: async (s: PublicState): Promise<Stop | undefined> => {
        const waitlist = waitlistOf(s);
        if (!waitlist.settings.pow) return undefined;
        const pow = s.body?.pow;
        if (pow === undefined) return newPow(s);
        const checked = checkPowSolution(ctx.secret, waitlist.id, pow.nonce, pow.solution, now());
        if (!checked.ok || !(await unused(checked.id))) return newPow(s);
        // Sign-ups accepted from the address since the nonce was issued raise its price.
        const needed = await difficultyToRedeem(ctx, waitlist, s.input.ip, checked.difficulty);
        if (needed > checked.difficulty && !verifyPow(pow.nonce, pow.solution, needed)) return newPow(s);
        s.tokens.push({ gate: 'pow', id: checked.id, expiresAt: checked.expiresAt });
        return undefined;
      },
      email_throttle: async (s: PublicState): Promise<Stop | undefined> => {
        if (s.passed.has('email')) return undefined;
        const refused = await emailThrottle(ctx, waitlistOf(s), bodyOf(s).normalized_email);
        if (!refused && waitlistOf(s).settings.email_throttle) s.passed.add('email');
        return stop(refused);
      },
      disposable: (s: PublicState): Stop | undefined =>
        stop(disposableCheck(waitlistOf(s).settings, bodyOf(s).email_domain)),
      mx: async (s: PublicState): Promise<Stop | undefined> =>
        stop(await mxCheck(ctx, waitlistOf(s).settings, bodyOf(s).email_domain)),
      geo: (s: PublicState): Stop | undefined =>
        stop(geoCheck(waitlistOf(s).settings, countryOf(s.input.ip))),
    };
  }

  private async redeem(s: PublicState): Promise<void> {
    await this.ctx.store.write((tx) => tx.tokens.redeem(uses(s)));
  }

  /** What the waitlist requires before the submit (contract §16), issued now. */
  async gates(input: PublicSignupInput): Promise<PublicGatesResult> {
    const s: PublicState = { input, waitlist: undefined, tokens: [], passed: new Set() };
    const allowed = () => allowedOrigin(s);
    try {
      s.waitlist = await this.waitlists.read(input.waitlistId);
      // No check of this order answers with a gate: a stop is a refusal.
      const stopped = (await runChecks(GATES_ORDER, this.checks, s)) as { refusal: Refusal } | undefined;
      if (stopped) return { kind: 'refused', refusal: stopped.refusal, ...allowed() };
      const waitlist = s.waitlist as Waitlist;
      const { challenge, pow } = waitlist.settings;
      const body: GatesResponse = {
        ...(challenge ? { challenge: issueChallenge(this.ctx, waitlist) } : {}),
        ...(pow ? { pow: await issuePow(this.ctx, waitlist, input.ip) } : {}),
      };
      return { kind: 'gates', body, ...allowed() };
    } catch (error) {
      return { kind: 'failed', error, ...allowed() };
    }
  }

  /**
   * A public sign-up, decided on the waitlist as this process remembers it when it has no gates
   * (the hot path: no read), and on a fresh read otherwise. A decision on a remembered waitlist
   * stands only if the waitlist has not changed since: its write checks the version, and any
   * other answer waits for a fresh read that shows the same version. Otherwise the request is
   * decided again on the fresh waitlist, as it would have been without the memory. Gated
   * waitlists are always read fresh, since their tokens are spent by the decision.
   */
  async signUp(input: PublicSignupInput): Promise<PublicSignupResult> {
    const shared = { input: { ...input, readBody: once(input.readBody) }, passed: new Set<'ip' | 'email'>() };
    let s: PublicState = { ...shared, waitlist: undefined, tokens: [] };
    try {
      const known = this.waitlists.remembered(input.waitlistId);
      if (known && !known.settings.challenge && !known.settings.pow) {
        s.waitlist = known;
        const first = await this.decide(s, known.version);
        if (first.kind === 'accepted') return first.result;
        const fresh = await this.waitlists.read(input.waitlistId);
        if (first.kind === 'stopped' && fresh?.version === known.version) return await this.answer(s, first);
        s = { ...shared, waitlist: fresh, tokens: [] };
      } else s.waitlist = await this.waitlists.read(input.waitlistId);
      const decided = await this.decide(s, undefined);
      // Without a version the store answers a missing waitlist, never a changed one.
      return await this.answer(
        s,
        decided.kind === 'changed' ? { kind: 'stopped', stop: NOT_FOUND } : decided,
      );
    } catch (error) {
      return { kind: 'failed', error, ...allowedOrigin(s) };
    }
  }

  /** `version`: the sign-up is written only while the waitlist has it (none: whatever it has). */
  private async decide(s: PublicState, version: number | undefined): Promise<Decision> {
    const stopped = await runChecks(PUBLIC_ORDER, this.checks, s);
    if (stopped) return { kind: 'stopped', stop: stopped };
    const waitlist = s.waitlist as Waitlist;
    const body = s.body as Body;
    const signup = {
      waitlistId: waitlist.id,
      waitlistVersion: version,
      email: body.email,
      emailNorm: body.normalized_email,
      confirm: waitlist.settings.confirm_email,
    };
    const tokens = uses(s);
    // Gate tokens are redeemed in the sign-up's own write: one commit, like any sign-up.
    const result =
      body.referral_code === undefined
        ? await this.ctx.store.signUpFresh({ ...signup, tokens })
        : await this.ctx.store.write(async (tx) => {
            const taken = await tx.tokens.redeem(tokens);
            if (taken.length > 0) return { outcome: 'tokens_taken' as const, taken };
            return tx.subscribers.signUp(
              { ...signup, referralCode: body.referral_code },
              this.ctx.clock.nowMicros(),
            );
          });
    if (result.outcome === 'tokens_taken')
      return { kind: 'stopped', stop: await this.lostGate(s, result.taken) };
    if (result.outcome === 'waitlist_gone') return { kind: 'changed' };
    // The sign-up is committed: a counter that cannot be recorded must not turn it into an error.
    await recordAccepted(this.ctx, waitlist.id, s.input.ip).catch((error: unknown) =>
      this.ctx.log.error('could not count an accepted sign-up', { error: String(error) }),
    );
    return {
      kind: 'accepted',
      result: {
        kind: 'accepted',
        body: acceptedBody(result.subscriber, waitlist.settings, this.ctx.config.appUrl),
        confirmEmail: waitlist.settings.confirm_email,
        ...allowedOrigin(s),
      },
    };
  }

  private async answer(
    s: PublicState,
    decided: Exclude<Decision, { kind: 'changed' }>,
  ): Promise<PublicSignupResult> {
    if (decided.kind === 'accepted') return decided.result;
    const { stop } = decided;
    if ('gate' in stop) return { kind: 'gate', body: stop.gate, ...allowedOrigin(s) };
    // Passed gates are spent even when a later check refuses.
    if (s.tokens.length > 0) await this.redeem(s);
    return { kind: 'refused', refusal: stop.refusal, ...allowedOrigin(s) };
  }
}

/** `fn`'s first answer, for every call: a request's body can be read once. */
function once<T>(fn: () => Promise<T>): () => Promise<T> {
  let answer: Promise<T> | undefined;
  return () => {
    answer ??= fn();
    return answer;
  };
}

// Only past the origin check is the origin known to be allowed; never echo a refused one.
const allowedOrigin = (s: PublicState): { origin?: string } =>
  s.waitlist && !s.waitlist.archived && isOriginAllowed(s.input.origin, s.waitlist.settings.origins)
    ? { origin: s.input.origin as string }
    : {};

const uses = (s: PublicState): TokenUse[] => s.tokens.map(({ id, expiresAt }) => ({ id, expiresAt }));

const stop = (r: Refusal | undefined): Stop | undefined => (r ? { refusal: r } : undefined);

/** The CORS preflight: the allowlisted origin, or undefined for a missing waitlist or a refused origin. */
export async function preflightOrigin(
  ctx: Context,
  waitlistId: string,
  origin: string | undefined,
): Promise<string | undefined> {
  const waitlist = await ctx.store.reads.waitlists.get(waitlistId);
  return waitlist && !waitlist.archived && isOriginAllowed(origin, waitlist.settings.origins)
    ? origin
    : undefined;
}
