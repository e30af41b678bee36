/**
 * The gate tokens the public endpoint hands out (contract §3, §4), with the adaptive Proof of
 * Work difficulty of §16. Both the 428 answers of a sign-up and `POST .../gates` issue through
 * here, so every nonce is counted in the surge window and priced the same way.
 */
import { powDifficulty, redemptionDifficulty } from '../domain/pow-difficulty.js';
import type { Waitlist } from '../domain/records.js';
import { windowCount } from '../domain/throttle.js';
import { issueChallengeToken, issuePowNonce } from '../domain/tokens.js';
import type { Context } from './context.js';

const ipKey = (waitlistId: string, ip: string | undefined) => `${waitlistId}|${ip}`;

export function issueChallenge(ctx: Context, waitlist: Waitlist): { token: string; min_age_ms: number } {
  const minAge = waitlist.settings.challenge_min_age_ms;
  return { token: issueChallengeToken(ctx.secret, waitlist.id, ctx.clock.now(), minAge), min_age_ms: minAge };
}

/** The difficulty is fixed here, in the signed nonce: a later surge does not change an issued one. */
export async function issuePow(
  ctx: Context,
  waitlist: Waitlist,
  ip: string | undefined,
): Promise<{ nonce: string; difficulty: number }> {
  const { limiters, limits } = ctx;
  const now = ctx.clock.now();
  const { settings } = waitlist;
  // This nonce is counted first, and the surge read from that same take (less this nonce): one
  // atomic step, so concurrent nonces each see the ones before them, on a shared store too.
  const [issued, accepted] = await Promise.all([
    limiters.powIssued.take(waitlist.id, now, limits.powIssued),
    limiters.powAccepted.peek(ipKey(waitlist.id, ip)),
  ]);
  // Both counts are of what came before this nonce: the first sign-up from an address sees a = 0.
  const difficulty = powDifficulty(settings.pow_difficulty, settings.pow_adaptive, {
    issuedLastMinute: windowCount(issued.state, now, limits.powIssued) - 1,
    threshold: settings.pow_surge_threshold,
    acceptedFromIpLastHour: windowCount(accepted, now, limits.powAccepted),
  });
  return { nonce: issuePowNonce(ctx.secret, waitlist.id, now, difficulty), difficulty };
}

/** What a solution of a nonce issued at `issued` bits must reach now (see domain/pow-difficulty). */
export async function difficultyToRedeem(
  ctx: Context,
  waitlist: Waitlist,
  ip: string | undefined,
  issued: number,
): Promise<number> {
  const { settings } = waitlist;
  if (!settings.pow_adaptive) return issued;
  const accepted = await ctx.limiters.powAccepted.peek(ipKey(waitlist.id, ip));
  const now = ctx.clock.now();
  return redemptionDifficulty(
    issued,
    settings.pow_difficulty,
    true,
    windowCount(accepted, now, ctx.limits.powAccepted),
  );
}

/**
 * Counts a public 202 towards its address's repeat cost. Every 202, a re-sign-up of a known
 * address too: the answer is identical by design, so counting only fresh ones would tell the
 * server's view apart for nothing, and the abuse it prices (one address, many emails) is all 202s.
 */
export async function recordAccepted(
  ctx: Context,
  waitlistId: string,
  ip: string | undefined,
): Promise<void> {
  await ctx.limiters.powAccepted.take(ipKey(waitlistId, ip), ctx.clock.now(), ctx.limits.powAccepted);
}
