/**
 * Who may ask the customer API, as the first checks of every endpoint's walk (API_ACCESS_ORDER):
 * a Bearer key, the key's budget, its tenant's plan, the scope, the waitlist. Each establishes
 * what the next ones take (`grant`, `budget`, `waitlist`), or stops with the answer itself:
 * every answer after the budget carries it, refusals included.
 */
import { ErrorCode, type Parsed, parseApiKey, planAllowsApi, type Scope } from '@waitlistkit/protocol';
import { API_ACCESS_ORDER, checks, type Stop } from '../domain/checks.js';
import { constantTimeEqual, sha256Hex } from '../domain/crypto.js';
import type { KeyGrant } from '../domain/records.js';
import type { Context } from './context.js';
import { type BodyRead, type Refusal, refusal } from './refusal.js';
import { parsedBody } from './request-body.js';

export interface Budget {
  limit: number;
  remaining: number;
  reset: number;
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; refusal: Refusal };

/**
 * `budget` is absent only when no key was authenticated (or it was revoked before the answer);
 * `replayed` marks the kept answer to an earlier request with the same Idempotency-Key.
 */
export type ApiResult<T> = { budget?: Budget; replayed?: true } & Outcome<T>;

/** A refusal as the API answers it. */
export type Refused = { ok: false; refusal: Refusal; budget?: Budget };

export interface ApiRequest {
  /** The Authorization header as sent. */
  authorization: string | undefined;
  waitlistId: string;
}

/** A POST: its body (the same answer on every call), and the Idempotency-Key header as sent. */
export interface ApiPost extends ApiRequest {
  readBody: () => Promise<BodyRead>;
  idempotencyKey: string | undefined;
}

/** What an endpoint's walk starts from: the request, and the scope the endpoint needs. */
export interface ApiState<R extends ApiRequest = ApiRequest> {
  request: R;
  scope: Scope;
}

// One message for the four cases of docs/protocol.md#authentication (missing, malformed, unknown, revoked), and no
// budget: no key was authenticated, or it is revoked by the time of the answer.
export const UNAUTHORIZED: Refused = {
  ok: false,
  refusal: refusal(ErrorCode.unauthorized, 'The API key is missing, malformed, unknown or revoked.'),
};
export const NOT_FOUND = refusal(ErrorCode.notFound, 'Waitlist not found.');
export const FEATURE_NOT_ALLOWED = refusal(
  ErrorCode.featureNotAllowed,
  "API access needs the Pro or Team plan; this tenant's plan lacks it.",
);

export function refused(budget: Budget, refusal: Refusal): Refused {
  return { ok: false, refusal, budget };
}

/** A walk's stop on a check's refusal, when it has one, with the budget the walk established. */
export function stopOn(s: { budget: Budget }, why: Refusal | undefined): Stop<Refused> | undefined {
  return why && { stop: refused(s.budget, why) };
}

export async function authenticate(ctx: Context, header: string | undefined): Promise<KeyGrant | undefined> {
  const parsed = parseApiKey(header?.match(/^Bearer ([^\s]+)$/i)?.[1]);
  if (!parsed.ok) return undefined;
  const hash = sha256Hex(parsed.value);
  const grant = await ctx.store.reads.keys.findByHash(hash);
  if (grant?.state !== 'active') return undefined;
  return constantTimeEqual(grant.hash, hash) ? grant : undefined;
}

/** Counts a request against its key's budget: every authenticated request, whatever comes of it. */
export async function spend(ctx: Context, grant: KeyGrant): Promise<{ budget: Budget } | Stop<Refused>> {
  const taken = await ctx.limiters.key.take(grant.id, ctx.clock.now(), ctx.limits.key);
  const budget = { limit: ctx.limits.key.capacity, remaining: taken.remaining, reset: taken.reset };
  if (taken.allowed) return { budget };
  const limit = ctx.limits.key.capacity;
  const over = `This key exceeded its budget of ${limit} requests per minute.`;
  return { stop: refused(budget, refusal(ErrorCode.rateLimitExceeded, over, taken.retryAfter)) };
}

/** The access checks, the first of a walk over `In` (each endpoint's own follow: `prefixOf`). */
export function accessChecks<In extends ApiState>(ctx: Context) {
  return checks(API_ACCESS_ORDER)
    .from<In>()
    .check('auth', async (s): Promise<{ grant: KeyGrant } | Stop<Refused>> => {
      const grant = await authenticate(ctx, s.request.authorization);
      return grant ? { grant } : { stop: UNAUTHORIZED };
    })
    .check('key_budget', (s) => spend(ctx, s.grant))
    .check('plan', (s) => (planAllowsApi(s.grant.plan) ? undefined : stopOn(s, FEATURE_NOT_ALLOWED)))
    .check('scope', (s) =>
      s.grant.scopes.includes(s.scope)
        ? undefined
        : stopOn(s, refusal(ErrorCode.insufficientScope, `This key lacks the ${s.scope} scope.`)),
    )
    .check('waitlist', async (s) => {
      const waitlist = await ctx.store.reads.waitlists.get(s.request.waitlistId);
      if (!waitlist || waitlist.archived || waitlist.tenant_id !== s.grant.tenant_id)
        return { stop: refused(s.budget, NOT_FOUND) };
      return { waitlist };
    });
}

/** The `body` check of a POST: its body read and parsed with `parse`. */
export function bodyCheck<T>(parse: (value: unknown) => Parsed<T>) {
  return async (s: { request: ApiPost; budget: Budget }): Promise<{ body: T } | Stop<Refused>> => {
    const body = await parsedBody(s.request.readBody, parse);
    return body.ok ? { body: body.value } : { stop: refused(s.budget, body.refusal) };
  };
}
