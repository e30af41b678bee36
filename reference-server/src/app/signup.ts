/**
 * Sign-up through the public endpoint, and its gates: the walk of docs/protocol.md#order-of-checks (public-checks.ts),
 * then one commit. Gate tokens are stateless (signed); a token is redeemed, once, only when every
 * gate has passed, so the final request of a Challenge-then-PoW flow can carry both; in the
 * sign-up's own write when it is accepted, so a gated sign-up costs one statement group like any
 * other.
 */
import type {
  AcceptedSignup,
  ChallengeRequired,
  FormDescription,
  GatesResponse,
} from '@waitlistkit/protocol';
import type { TokenUse, Waitlist } from '../domain/records.js';
import type { Context } from './context.js';
import { acceptedBody } from './create-checks.js';
import { issueChallenge, issuePow, recordAccepted } from './gates.js';
import {
  type Counted,
  type Gated,
  live,
  NOT_FOUND,
  newChallenge,
  newPow,
  originOn,
  type PublicSignupInput,
  type PublicWalks,
  publicWalks,
  type Refused,
  type SignupFacts,
} from './public-checks.js';
import type { Refusal } from './refusal.js';
import { RememberedWaitlists } from './remembered-waitlists.js';

export type { PublicSignupInput } from './public-checks.js';

/**
 * `origin` is set once the request's Origin is known to be allowlisted: only then may the
 * answer carry CORS headers (a `failed` one included: its 500 must be readable too).
 * `confirmEmail`: the waitlist confirms addresses, whoever this was (a fact about the waitlist,
 * not the address).
 */
export type PublicSignupResult = { origin?: string } & (
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

/** The public form (docs/endpoints.md#the-form): its fields, for an allowlisted origin; else not found. */
export type PublicFormResult = { origin?: string } & (
  | { kind: 'form'; body: FormDescription }
  | { kind: 'refused'; refusal: Refusal }
  | { kind: 'failed'; error: unknown }
);

/**
 * How stale the form may be: a change of the fields reaches this process's answers within this,
 * and the browser's cache keeps an answer as long (http/public.ts's Cache-Control).
 */
export const FORM_MAX_AGE_MS = 60_000;

/** A sign-up decided: written, stopped, or not written because the waitlist changed. */
type Decision =
  | { kind: 'accepted'; result: PublicSignupResult }
  | { kind: 'stopped'; stop: Refused | Gated; facts: SignupFacts }
  | { kind: 'changed'; facts: SignupFacts };

const NOTHING_COUNTED: Counted = {};

export class PublicSignups {
  private readonly waitlists: RememberedWaitlists;
  private readonly walks: PublicWalks;

  constructor(private readonly ctx: Context) {
    this.waitlists = new RememberedWaitlists(ctx.store);
    this.walks = publicWalks(ctx);
  }

  /**
   * The form's fields from the waitlist as remembered (no read per request: a page view asks for
   * it), the remembered copy at most FORM_MAX_AGE_MS old. Not counted in the per-IP window: it
   * writes nothing and costs no read.
   */
  async form(waitlistId: string, origin: string | undefined): Promise<PublicFormResult> {
    let found: Waitlist | undefined;
    try {
      found = await this.waitlists.recent(waitlistId, FORM_MAX_AGE_MS);
      // A browser sends no Origin with a GET of its own page's origin (a form served by the
      // service itself): the description is no secret, so it is answered, without CORS headers.
      // An origin the waitlist does not allow is the subscribe endpoint's 404.
      const waitlist = live(found);
      const allowed = originOn(found, origin);
      if (!waitlist || (origin !== undefined && allowed === undefined))
        return { kind: 'refused', ...NOT_FOUND.stop };
      return { kind: 'form', body: { fields: waitlist.settings.fields }, origin: allowed };
    } catch (error) {
      return { kind: 'failed', error, origin: originOn(found, origin) };
    }
  }

  /** What the waitlist requires before the submit (docs/gates.md#gates-before-the-submit), issued now. */
  async gates(input: PublicSignupInput): Promise<PublicGatesResult> {
    let found: Waitlist | undefined;
    try {
      found = await this.waitlists.read(input.waitlistId);
      const walked = await this.walks.gates.run({ input, found, counted: NOTHING_COUNTED });
      if (walked.stop) return { kind: 'refused', refusal: walked.stop.refusal, origin: walked.state.origin };
      const { waitlist, origin } = walked.state;
      const { challenge, pow } = waitlist.settings;
      const body: GatesResponse = {
        ...(challenge ? { challenge: issueChallenge(this.ctx, waitlist) } : {}),
        ...(pow ? { pow: await issuePow(this.ctx, waitlist, input.ip) } : {}),
      };
      return { kind: 'gates', body, origin };
    } catch (error) {
      return { kind: 'failed', error, origin: originOn(found, input.origin) };
    }
  }

  /**
   * A public sign-up, decided on the waitlist as this process remembers it when it has no gates
   * (the hot path: no read), and on a fresh read otherwise. A decision on a remembered waitlist
   * stands only if the waitlist has not changed since: its write checks the version, and any
   * other answer waits for a fresh read that shows the same version. Otherwise the request is
   * decided again on the fresh waitlist, as it would have been without the memory, and counted
   * by the throttles that counted it the first time as the one attempt it is. Gated waitlists
   * are always read fresh, since their tokens are spent by the decision.
   */
  async signUp(input: PublicSignupInput): Promise<PublicSignupResult> {
    let found: Waitlist | undefined;
    try {
      let counted = NOTHING_COUNTED;
      const known = this.waitlists.remembered(input.waitlistId);
      if (known && !known.settings.challenge && !known.settings.pow) {
        found = known;
        const first = await this.decide({ input, found, counted }, known.version);
        if (first.kind === 'accepted') return first.result;
        found = await this.waitlists.read(input.waitlistId);
        if (first.kind === 'stopped' && found?.version === known.version) return await this.answer(first);
        counted = { ip: first.facts.ipCounted, email: first.facts.emailCounted };
      } else found = await this.waitlists.read(input.waitlistId);
      const decided = await this.decide({ input, found, counted }, undefined);
      // Without a version the store answers a missing waitlist, never a changed one.
      return await this.answer(
        decided.kind === 'changed'
          ? { kind: 'stopped', stop: NOT_FOUND.stop, facts: decided.facts }
          : decided,
      );
    } catch (error) {
      return { kind: 'failed', error, origin: originOn(found, input.origin) };
    }
  }

  /** `version`: the sign-up is written only while the waitlist has it (none: whatever it has). */
  private async decide(
    state: { input: PublicSignupInput; found: Waitlist | undefined; counted: Counted },
    version: number | undefined,
  ): Promise<Decision> {
    const walked = await this.walks.signUp.run(state);
    if (walked.stop) return { kind: 'stopped', stop: walked.stop, facts: walked.state };
    const facts = walked.state;
    const { waitlist, body, extras } = facts;
    const signup = {
      waitlistId: waitlist.id,
      waitlistVersion: version,
      email: body.email,
      emailNorm: body.normalized_email,
      confirm: waitlist.settings.confirm_email,
      extras,
    };
    const tokens = tokensOf(facts);
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
    if (result.outcome === 'tokens_taken') {
      // A concurrent request redeemed one of the tokens first: a fresh 428 for the first of them.
      const lost = facts.challenge && result.taken.includes(facts.challenge.id);
      const gate = lost ? newChallenge(this.ctx, waitlist) : await newPow(this.ctx, waitlist, state.input.ip);
      return { kind: 'stopped', stop: gate.stop, facts };
    }
    if (result.outcome === 'waitlist_gone') return { kind: 'changed', facts };
    // The sign-up is committed: a counter that cannot be recorded must not turn it into an error.
    await recordAccepted(this.ctx, waitlist.id, state.input.ip).catch((error: unknown) =>
      this.ctx.log.error('could not count an accepted sign-up', { error: String(error) }),
    );
    return {
      kind: 'accepted',
      result: {
        kind: 'accepted',
        body: acceptedBody(result.subscriber, waitlist.settings, this.ctx.config.appUrl),
        confirmEmail: waitlist.settings.confirm_email,
        origin: facts.origin,
      },
    };
  }

  private async answer(decided: Exclude<Decision, { kind: 'changed' }>): Promise<PublicSignupResult> {
    if (decided.kind === 'accepted') return decided.result;
    const { stop, facts } = decided;
    if ('gate' in stop) return { kind: 'gate', body: stop.gate, origin: facts.origin };
    // Passed gates are spent even when a later check refuses.
    const tokens = tokensOf(facts);
    if (tokens.length > 0) await this.ctx.store.write((tx) => tx.tokens.redeem(tokens));
    return { kind: 'refused', refusal: stop.refusal, origin: facts.origin };
  }
}

/** The gate tokens that passed, in the order of their gates. */
function tokensOf(facts: SignupFacts): TokenUse[] {
  const tokens: TokenUse[] = [];
  if (facts.challenge) tokens.push(facts.challenge);
  if (facts.pow) tokens.push(facts.pow);
  return tokens;
}

/** The CORS preflight: the allowlisted origin, or undefined for a missing waitlist or a refused origin. */
export async function preflightOrigin(
  ctx: Context,
  waitlistId: string,
  origin: string | undefined,
): Promise<string | undefined> {
  return originOn(await ctx.store.reads.waitlists.get(waitlistId), origin);
}
