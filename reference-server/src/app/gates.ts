/**
 * The gate tokens the public endpoint hands out (docs/gates.md#proof-of-work, docs/gates.md#challenge), with the adaptive Proof of
 * Work difficulty of docs/gates.md#adaptive-difficulty. Both the 428 answers of a sign-up and `POST .../gates` issue through
 * here, so every nonce is priced the same way. Counts are per client (domain/client-key: an IPv6
 * address by its /64), and the surge counts at most a few nonces of each client a minute
 * (domain/pow-difficulty says why). With adaptive Proof of Work off nothing is counted: the
 * difficulty is the base, and a nonce costs no write (on PostgreSQL, no lock on a row that every
 * nonce of the waitlist would wait for).
 */
import { clientKey } from '../domain/client-key.js';
import { powDifficulty, redemptionDifficulty } from '../domain/pow-difficulty.js';
import type { Waitlist } from '../domain/records.js';
import { windowCount } from '../domain/throttle.js';
import { issueChallengeToken, issuePowNonce } from '../domain/tokens.js';
import type { Context } from './context.js';

/** The counters' key of a client on a waitlist. */
const clientOn = (waitlistId: string, ip: string | undefined) => `${waitlistId}|${clientKey(ip)}`;

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
  const now = ctx.clock.now();
  const { settings } = waitlist;
  let difficulty = settings.pow_difficulty;
  if (settings.pow_adaptive) {
    const client = clientOn(waitlist.id, ip);
    const [issued, accepted] = await Promise.all([
      countedBefore(ctx, waitlist.id, client, now),
      ctx.limiters.powAccepted.peek(client),
    ]);
    // Both counts are of what came before this nonce: the first sign-up from a client sees a = 0.
    difficulty = powDifficulty(settings.pow_difficulty, true, {
      issuedLastMinute: issued,
      threshold: settings.pow_surge_threshold,
      acceptedFromIpLastHour: windowCount(accepted, now, ctx.limits.powAccepted),
    });
  }
  return { nonce: issuePowNonce(ctx.secret, waitlist.id, now, difficulty), difficulty };
}

/**
 * The nonces counted for the waitlist in the surge window before this one, counting this one
 * too when its client has not used up its share. A counted nonce is added and the count read in
 * one take (less this nonce): one atomic step, so concurrent nonces each see the ones before
 * them, on a shared store too. The client's share is a take of its own, so concurrent asks of
 * one client cannot both slip under it.
 */
async function countedBefore(ctx: Context, waitlistId: string, client: string, now: number): Promise<number> {
  const { limiters, limits } = ctx;
  const counts = (await limiters.powIssuedByClient.take(client, now, limits.powIssuedByClient)).allowed;
  if (!counts) return windowCount(await limiters.powIssued.peek(waitlistId), now, limits.powIssued);
  const taken = await limiters.powIssued.take(waitlistId, now, limits.powIssued);
  return windowCount(taken.state, now, limits.powIssued) - 1;
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
  const accepted = await ctx.limiters.powAccepted.peek(clientOn(waitlist.id, ip));
  const now = ctx.clock.now();
  return redemptionDifficulty(
    issued,
    settings.pow_difficulty,
    true,
    windowCount(accepted, now, ctx.limits.powAccepted),
  );
}

/**
 * Counts a public 202 towards its client's repeat cost. Every 202, a re-sign-up of a known
 * address too: the answer is identical by design, so counting only fresh ones would tell the
 * server's view apart for nothing, and the abuse it prices (one address, many emails) is all 202s.
 */
export async function recordAccepted(
  ctx: Context,
  waitlistId: string,
  ip: string | undefined,
): Promise<void> {
  await ctx.limiters.powAccepted.take(clientOn(waitlistId, ip), ctx.clock.now(), ctx.limits.powAccepted);
}
