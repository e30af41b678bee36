/**
 * Public subscribe, /v1/public/*: no key, an anti-abuse pipeline instead, in the order of
 * contract §2. Gate tokens are stateless (signed); a token is redeemed, once, only when every
 * gate has passed, so the final request of a Challenge-then-PoW flow can carry both.
 */
import {
  type ChallengeRequired,
  ErrorCode,
  Gate,
  Header,
  PUBLIC_RETRY_AFTER_SECONDS,
  parsePublicSubscribeBody,
} from '@waitlistkit/protocol';
import { type Request, type Response, Router } from 'express';
import { errorOutcome, type Outcome, PUBLIC_ORDER, runChecks } from '../domain/checks.js';
import { isOriginAllowed } from '../domain/origins.js';
import {
  checkChallengeToken,
  checkPowSolution,
  issueChallengeToken,
  issuePowNonce,
} from '../domain/tokens.js';
import { countryOf } from '../services/geo.js';
import type { Services } from '../services/services.js';
import { acceptedBody, commitSignup } from '../services/signup.js';
import { redeemTokens, usedTokens } from '../store/used-tokens.js';
import { getWaitlist, type Waitlist } from '../store/waitlists.js';
import { readJsonBody } from './body.js';
import { clientIp } from './client-ip.js';
import { corsHeaders, PREFLIGHT_HEADERS } from './cors.js';
import { send } from './respond.js';
import { disposableCheck, emailThrottle, geoCheck, mxCheck } from './signup-checks.js';

// Missing or archived waitlist, missing or refused Origin: one answer for all, by design.
const NOT_FOUND = errorOutcome(ErrorCode.notFound, 'Waitlist not found.');

type Body = Extract<ReturnType<typeof parsePublicSubscribeBody>, { ok: true }>['value'];

interface PublicContext {
  req: Request;
  origin: string | undefined;
  ip: string | undefined;
  waitlist?: Waitlist;
  body?: Body;
  /** Tokens that passed their gate, to redeem once every gate has passed. */
  tokens: { gate: 'challenge' | 'pow'; id: string; expiresAt: number }[];
}

function challengeRequired(body: ChallengeRequired): Outcome {
  return { status: 428, body };
}

export function publicRouter(services: Services): Router {
  const router = Router();
  const now = () => services.clock.now();

  const newChallenge = (waitlist: Waitlist) =>
    challengeRequired({
      status: 'challenge_required',
      gate: Gate.challenge,
      challenge: {
        token: issueChallengeToken(
          services.secret,
          waitlist.id,
          now(),
          waitlist.settings.challenge_min_age_ms,
        ),
        min_age_ms: waitlist.settings.challenge_min_age_ms,
      },
    });

  const newPow = (waitlist: Waitlist) =>
    challengeRequired({
      status: 'challenge_required',
      gate: Gate.pow,
      pow: {
        nonce: issuePowNonce(services.secret, waitlist.id, now(), waitlist.settings.pow_difficulty),
        difficulty: waitlist.settings.pow_difficulty,
      },
    });

  const checks = {
    waitlist: async (c: PublicContext) => {
      const waitlist = await getWaitlist(services.db.reader, String(c.req.params.waitlistId));
      if (!waitlist || waitlist.archived) return NOT_FOUND;
      c.waitlist = waitlist;
      return undefined;
    },
    origin: (c: PublicContext) =>
      isOriginAllowed(c.origin, (c.waitlist as Waitlist).settings.origins) ? undefined : NOT_FOUND,
    ip_throttle: (c: PublicContext) => {
      const waitlist = c.waitlist as Waitlist;
      const limit = { capacity: waitlist.settings.ip_limit, windowMs: 60_000 };
      if (services.limiters.ip.take(`${waitlist.id}|${c.ip}`, now(), limit).allowed) return undefined;
      return errorOutcome(
        ErrorCode.rateLimitExceeded,
        `Too many sign-up attempts from this address; try again in ${PUBLIC_RETRY_AFTER_SECONDS} seconds.`,
        { [Header.retryAfter]: String(PUBLIC_RETRY_AFTER_SECONDS) },
      );
    },
    body: async (c: PublicContext) => {
      const raw = await readJsonBody(c.req);
      if (!raw.ok) return raw.outcome;
      const parsed = parsePublicSubscribeBody(raw.value);
      if (!parsed.ok) return errorOutcome(parsed.error.code, parsed.error.message);
      c.body = parsed.value;
      return undefined;
    },
    challenge: async (c: PublicContext) => {
      const waitlist = c.waitlist as Waitlist;
      if (!waitlist.settings.challenge) return undefined;
      const token = c.body?.challenge_token;
      if (token === undefined) return newChallenge(waitlist);
      const checked = checkChallengeToken(services.secret, waitlist.id, token, now());
      if (!checked.ok || (await usedTokens(services.db.reader, [checked.id])).size > 0)
        return newChallenge(waitlist);
      c.tokens.push({ gate: 'challenge', id: checked.id, expiresAt: checked.expiresAt });
      return undefined;
    },
    pow: async (c: PublicContext) => {
      const waitlist = c.waitlist as Waitlist;
      if (!waitlist.settings.pow) return undefined;
      const pow = c.body?.pow;
      if (pow === undefined) return newPow(waitlist);
      const checked = checkPowSolution(services.secret, waitlist.id, pow.nonce, pow.solution, now());
      if (!checked.ok || (await usedTokens(services.db.reader, [checked.id])).size > 0)
        return newPow(waitlist);
      c.tokens.push({ gate: 'pow', id: checked.id, expiresAt: checked.expiresAt });
      return undefined;
    },
    redeem: async (c: PublicContext) => {
      if (c.tokens.length === 0) return undefined;
      const taken = await services.db.writer.submit((db) => redeemTokens(db, c.tokens));
      const lost = c.tokens.find((t) => taken.includes(t.id));
      if (!lost) return undefined;
      return lost.gate === 'challenge'
        ? newChallenge(c.waitlist as Waitlist)
        : newPow(c.waitlist as Waitlist);
    },
    email_throttle: (c: PublicContext) =>
      emailThrottle(services, c.waitlist as Waitlist, (c.body as Body).normalized_email),
    disposable: (c: PublicContext) =>
      disposableCheck((c.waitlist as Waitlist).settings, (c.body as Body).email_domain),
    mx: (c: PublicContext) =>
      mxCheck(services, (c.waitlist as Waitlist).settings.mx_check, (c.body as Body).email_domain),
    geo: (c: PublicContext) => geoCheck((c.waitlist as Waitlist).settings, countryOf(c.ip)),
  };

  router.options('/waitlists/:waitlistId/subscribers', async (req, res) => {
    const origin = req.headers.origin;
    const waitlist = await getWaitlist(services.db.reader, String(req.params.waitlistId));
    if (!waitlist || waitlist.archived || !isOriginAllowed(origin, waitlist.settings.origins)) {
      return send(res, NOT_FOUND);
    }
    res
      .set({ ...corsHeaders(origin as string), ...PREFLIGHT_HEADERS })
      .status(204)
      .end();
  });

  router.post('/waitlists/:waitlistId/subscribers', async (req, res: Response) => {
    const c: PublicContext = {
      req,
      origin: req.headers.origin,
      ip: clientIp(req, services.config.trustProxy),
      tokens: [],
    };
    const reply = (outcome: Outcome) => {
      // Only past the origin check is the origin known to be allowed; never echo a refused one.
      if (c.waitlist && isOriginAllowed(c.origin, c.waitlist.settings.origins))
        res.set(corsHeaders(c.origin as string));
      send(res, outcome);
    };
    try {
      const refusal = await runChecks(PUBLIC_ORDER, checks, c);
      if (refusal) return reply(refusal);
      const waitlist = c.waitlist as Waitlist;
      const body = c.body as Body;
      const result = await commitSignup(services.db, services.clock, {
        waitlistId: waitlist.id,
        email: body.email,
        emailNorm: body.normalized_email,
        referralCode: body.referral_code,
      });
      if (result.outcome !== 'created' && result.outcome !== 'matched') return reply(NOT_FOUND);
      reply({
        status: 202,
        body: acceptedBody(result.subscriber, waitlist.settings, services.config.appUrl),
      });
    } catch (error) {
      // The 500 must carry CORS headers too (contract §9), so it is answered here.
      services.log.error('public subscribe failed', {
        error: error instanceof Error ? error.stack : String(error),
      });
      reply(errorOutcome(ErrorCode.internalError, 'Something went wrong on our side; try again.'));
    }
  });

  return router;
}
