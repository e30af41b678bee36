/**
 * The customer API's use cases: a Bearer key, the per-key budget, plans and scopes, then the
 * endpoint's own checks, in the order of contract §2. Every answer to an authenticated request
 * carries the key's budget, refusals of the budget included.
 */
import {
  type AcceptedSignup,
  ErrorCode,
  type Parsed,
  parseAdmissionsBody,
  parseApiCreateBody,
  parseApiKey,
  parseIdempotencyKey,
  parseListQuery,
  planAllowsApi,
  Scope,
} from '@waitlistkit/protocol';
import { countryOf } from '../adapters/geo.js';
import {
  API_ADMIT_ORDER,
  API_CREATE_ORDER,
  API_LIST_ORDER,
  API_SUBSCRIBER_ORDER,
  runChecks,
} from '../domain/checks.js';
import { constantTimeEqual, sha256Hex } from '../domain/crypto.js';
import { keeps } from '../domain/idempotency.js';
import type { Admission, KeyGrant, ListedSubscriber, ListPage, Waitlist } from '../domain/records.js';
import type { Bucket, Take } from '../domain/throttle.js';
import type { Repositories } from '../store/store.js';
import type { Context } from './context.js';
import { admitIn, eraseIn, type Who } from './lifecycle.js';
import { type BodyRead, type Refusal, refusal } from './refusal.js';
import { acceptedBody, disposableCheck, emailThrottle, geoCheck, mxCheck } from './signup.js';
import { listPage } from './subscribers.js';

// One message for the four cases of the spec (missing, malformed, unknown, revoked).
const UNAUTHORIZED = refusal(
  ErrorCode.unauthorized,
  'The API key is missing, malformed, unknown or revoked.',
);
const NOT_FOUND = refusal(ErrorCode.notFound, 'Waitlist not found.');
const NO_SUBSCRIBER = refusal(ErrorCode.notFound, 'Subscriber not found.');
const REUSED = refusal(
  ErrorCode.idempotencyKeyReused,
  'This Idempotency-Key was used with a different request; use a new key for a new request.',
);
const IN_USE = refusal(
  ErrorCode.idempotencyKeyInUse,
  'A request with this Idempotency-Key is still in progress; retry once it has finished.',
);
const FEATURE_NOT_ALLOWED = refusal(
  ErrorCode.featureNotAllowed,
  "API access needs the Pro or Team plan; this tenant's plan lacks it.",
);

export interface Budget {
  limit: number;
  remaining: number;
  reset: number;
}

type Outcome<T> = { ok: true; value: T } | { ok: false; refusal: Refusal };

/**
 * `budget` is absent only when no key was authenticated (or it was revoked before the answer);
 * `replayed` marks the kept answer to an earlier request with the same Idempotency-Key.
 */
export type ApiResult<T> = { budget?: Budget; replayed?: true } & Outcome<T>;

/** A POST: its body read on demand, and the Idempotency-Key header as sent. */
export interface ApiPost extends ApiRequest {
  readBody: () => Promise<BodyRead>;
  idempotencyKey: string | undefined;
}

export interface ApiRequest {
  /** The Authorization header as sent. */
  authorization: string | undefined;
  waitlistId: string;
}

interface Access {
  request: ApiRequest;
  scope: Scope;
  grant?: KeyGrant;
  budget?: Take<Bucket>;
  waitlist?: Waitlist;
}

export type ListResult = ListPage & { page: number; limit: number };

/** The `body` check of a POST: its body read, parsed with `parse`, and handed to `take`. */
function bodyCheck<T>(request: ApiPost, parse: (value: unknown) => Parsed<T>, take: (value: T) => void) {
  return async (): Promise<Refusal | undefined> => {
    const raw = await request.readBody();
    if (!raw.ok) return raw.refusal;
    const parsed = parse(raw.value);
    if (!parsed.ok) return refusal(parsed.error.code, parsed.error.message);
    take(parsed.value);
    return undefined;
  };
}

/** What a write re-checks inside its transaction: a key revoked, or a plan lost, while in flight. */
type Recheck = 'key_revoked' | 'plan_lost';

export class ApiRequests {
  private readonly lastTouched = new Map<string, number>();
  private readonly access;

  constructor(private readonly ctx: Context) {
    this.access = {
      auth: async (a: Access) => {
        a.grant = await this.authenticate(a.request.authorization);
        return a.grant ? undefined : UNAUTHORIZED;
      },
      key_budget: async (a: Access) => {
        a.budget = await ctx.limiters.key.take((a.grant as KeyGrant).id, ctx.clock.now(), ctx.limits.key);
        if (a.budget.allowed) return undefined;
        return refusal(
          ErrorCode.rateLimitExceeded,
          `This key exceeded its budget of ${ctx.limits.key.capacity} requests per minute.`,
          a.budget.retryAfter,
        );
      },
      plan: (a: Access) => (planAllowsApi((a.grant as KeyGrant).plan) ? undefined : FEATURE_NOT_ALLOWED),
      scope: (a: Access) =>
        (a.grant as KeyGrant).scopes.includes(a.scope)
          ? undefined
          : refusal(ErrorCode.insufficientScope, `This key lacks the ${a.scope} scope.`),
      waitlist: async (a: Access) => {
        const waitlist = await ctx.store.reads.waitlists.get(a.request.waitlistId);
        if (!waitlist || waitlist.archived || waitlist.tenant_id !== (a.grant as KeyGrant).tenant_id)
          return NOT_FOUND;
        a.waitlist = waitlist;
        return undefined;
      },
    };
  }

  private async authenticate(header: string | undefined): Promise<KeyGrant | undefined> {
    const parsed = parseApiKey(header?.match(/^Bearer ([^\s]+)$/i)?.[1]);
    if (!parsed.ok) return undefined;
    const hash = sha256Hex(parsed.value);
    const grant = await this.ctx.store.reads.keys.findByHash(hash);
    if (grant?.state !== 'active') return undefined;
    return constantTimeEqual(grant.hash, hash) ? grant : undefined;
  }

  private answer<T>(
    a: Access,
    result: { ok: true; value: T } | { ok: false; refusal: Refusal },
  ): ApiResult<T> {
    if (!a.budget) return result;
    const budget = {
      limit: this.ctx.limits.key.capacity,
      remaining: a.budget.remaining,
      reset: a.budget.reset,
    };
    return { ...result, budget };
  }

  /** Records use at most once a minute per key: a write per request would cost every request. */
  private touch(grant: KeyGrant): void {
    const now = this.ctx.clock.now();
    if ((this.lastTouched.get(grant.id) ?? 0) > now - 60_000) return;
    this.lastTouched.set(grant.id, now);
    this.ctx.store
      .write((tx) => tx.keys.touch(grant.id, now))
      .catch((error: unknown) => this.ctx.log.error('could not record key use', { error: String(error) }));
  }

  async list(request: ApiRequest & { query: unknown }): Promise<ApiResult<ListResult>> {
    const a: Access = { request, scope: Scope.read };
    let query: ReturnType<typeof parseListQuery> | undefined;
    const refused = await runChecks(
      API_LIST_ORDER,
      {
        ...this.access,
        query: () => {
          query = parseListQuery(request.query);
          return query.ok ? undefined : refusal(query.error.code, query.error.message);
        },
      },
      a,
    );
    if (refused) return this.answer(a, { ok: false, refusal: refused });
    if (!query?.ok) throw new Error('unreachable: the query check passed');
    const { value } = query;
    const page = await listPage(this.ctx.store, (a.waitlist as Waitlist).id, value);
    if (!page) return this.answer(a, { ok: false, refusal: NOT_FOUND });
    // A key revoked while this page was read must not see it (contract §8: immediate, also in flight).
    const grant = await this.ctx.store.reads.keys.grant((a.grant as KeyGrant).id);
    if (grant?.state !== 'active') return { ok: false, refusal: UNAUTHORIZED };
    this.touch(a.grant as KeyGrant);
    return this.answer(a, { ok: true, value: { ...page, page: value.page, limit: value.limit } });
  }

  /**
   * Runs a POST under its Idempotency-Key (contract §13), per API key: the first answer that
   * `keeps` allows is kept 24 hours and given again to a retry of the same request; a different
   * request under the key is refused (422), a running one too (409). The key's budget counts every
   * one of them. Without the header, or without a valid key (the 401 comes in order), it just runs.
   */
  private async idempotently<T>(
    operation: string,
    request: ApiPost,
    run: (request: ApiPost) => Promise<ApiResult<T>>,
  ): Promise<ApiResult<T>> {
    if (request.idempotencyKey === undefined) return run(request);
    const grant = await this.authenticate(request.authorization);
    if (!grant) return run(request);
    const a: Access = { request, scope: Scope.write, grant };
    const key = parseIdempotencyKey(request.idempotencyKey);
    const spend = () => this.access.key_budget(a);
    if (!key.ok)
      return this.answer(a, {
        ok: false,
        refusal: (await spend()) ?? refusal(key.error.code, key.error.message),
      });
    const body = await request.readBody();
    const read = { ...request, readBody: async () => body };
    const hash = sha256Hex(`${operation} ${request.waitlistId}\n${body.digest}`);
    const now = this.ctx.clock.now();
    const decision = await this.ctx.store.write((tx) =>
      tx.idempotency.claim(grant.id, key.value as string, hash, now),
    );
    if (decision.kind !== 'run') {
      const throttled = await spend();
      if (throttled) return this.answer(a, { ok: false, refusal: throttled });
      if (decision.kind === 'replay')
        return { ...this.answer(a, JSON.parse(decision.answer) as Outcome<T>), replayed: true };
      return this.answer(a, { ok: false, refusal: decision.kind === 'reused' ? REUSED : IN_USE });
    }
    const forget = () => this.ctx.store.write((tx) => tx.idempotency.release(grant.id, key.value as string));
    let result: ApiResult<T>;
    try {
      result = await run(read);
    } catch (error) {
      await forget().catch(() => undefined);
      throw error;
    }
    const { budget: _budget, ...outcome } = result;
    if (keeps(result.ok ? undefined : result.refusal.code)) {
      await this.ctx.store.write((tx) =>
        tx.idempotency.complete(grant.id, key.value as string, JSON.stringify(outcome)),
      );
    } else await forget();
    return result;
  }

  create(request: ApiPost & { ip: string | undefined }): Promise<ApiResult<AcceptedSignup>> {
    return this.idempotently('create', request, (r) => this.createOnce({ ...request, ...r }));
  }

  private async createOnce(
    request: ApiPost & { ip: string | undefined },
  ): Promise<ApiResult<AcceptedSignup>> {
    const a: Access = { request, scope: Scope.write };
    let body: Extract<ReturnType<typeof parseApiCreateBody>, { ok: true }>['value'] | undefined;
    const settings = () => (a.waitlist as Waitlist).settings;
    const refused = await runChecks(
      API_CREATE_ORDER,
      {
        ...this.access,
        body: bodyCheck(request, parseApiCreateBody, (value) => {
          body = value;
        }),
        email_throttle: () =>
          emailThrottle(this.ctx, a.waitlist as Waitlist, body?.normalized_email as string),
        disposable: () => disposableCheck(settings(), body?.email_domain as string),
        mx: () => mxCheck(this.ctx, settings().mx_check, body?.email_domain as string),
        // The visitor's country when the backend forwards it, else the calling peer's.
        geo: () => geoCheck(settings(), body?.client_country ?? countryOf(request.ip)),
      },
      a,
    );
    if (refused) return this.answer(a, { ok: false, refusal: refused });
    const grant = a.grant as KeyGrant;
    const input = body as NonNullable<typeof body>;
    const waitlistId = (a.waitlist as Waitlist).id;
    // The key is checked again inside the write: a key revoked while the request was in flight
    // writes nothing. The activity entry is part of the same write.
    const result = await this.ctx.store.write(async (tx) => {
      const fresh = await tx.keys.grant(grant.id);
      if (fresh?.state !== 'active') return { outcome: 'key_revoked' as const };
      if (!planAllowsApi(fresh.plan)) return { outcome: 'plan_lost' as const };
      const signup = await tx.subscribers.signUp(
        {
          waitlistId,
          email: input.email,
          emailNorm: input.normalized_email,
          referralCode: input.referral_code,
          confirm: settings().confirm_email,
        },
        this.ctx.clock.nowMicros(),
      );
      if (signup.outcome === 'waitlist_gone') return signup;
      await tx.activity.append(
        {
          tenantId: grant.tenant_id,
          actor: { type: 'key', id: grant.id, name: grant.name },
          action: signup.outcome === 'created' ? 'subscriber.created' : 'subscriber.matched',
          subjectId: signup.subscriber.id,
          details: { waitlist_id: waitlistId, new_subscriber: signup.outcome === 'created' },
        },
        this.ctx.clock.now(),
      );
      return signup;
    });
    this.touch(grant);
    switch (result.outcome) {
      case 'key_revoked':
        return { ok: false, refusal: UNAUTHORIZED };
      case 'plan_lost':
        return this.answer(a, { ok: false, refusal: FEATURE_NOT_ALLOWED });
      case 'waitlist_gone':
        return this.answer(a, { ok: false, refusal: NOT_FOUND });
      default:
        return this.answer(a, {
          ok: true,
          value: acceptedBody(result.subscriber, settings(), this.ctx.config.appUrl),
        });
    }
  }

  /** The key checked again inside a write: a key revoked while the request was in flight writes nothing. */
  private async recheck(tx: Repositories, grant: KeyGrant): Promise<Recheck | undefined> {
    const fresh = await tx.keys.grant(grant.id);
    if (fresh?.state !== 'active') return 'key_revoked';
    return planAllowsApi(fresh.plan) ? undefined : 'plan_lost';
  }

  private refusedBy<T>(a: Access, outcome: Recheck): ApiResult<T> {
    return outcome === 'key_revoked'
      ? { ok: false, refusal: UNAUTHORIZED }
      : this.answer(a, { ok: false, refusal: FEATURE_NOT_ALLOWED });
  }

  private who(grant: KeyGrant): Who {
    return { tenantId: grant.tenant_id, actor: { type: 'key', id: grant.id, name: grant.name } };
  }

  /** The checks of one subscriber's endpoints: access, then the subscriber on this waitlist. */
  private async subscriberAccess(request: ApiRequest & { subscriberId: string }, scope: Scope) {
    const a: Access = { request, scope };
    let subscriber: ListedSubscriber | undefined;
    const refused = await runChecks(
      API_SUBSCRIBER_ORDER,
      {
        ...this.access,
        subscriber: async () => {
          const waitlist = a.waitlist as Waitlist;
          subscriber = await this.ctx.store.read((tx) =>
            tx.subscribers.get(waitlist.id, waitlist.settings, request.subscriberId),
          );
          return subscriber ? undefined : NO_SUBSCRIBER;
        },
      },
      a,
    );
    return { a, refused, subscriber };
  }

  async get(request: ApiRequest & { subscriberId: string }): Promise<ApiResult<ListedSubscriber>> {
    const { a, refused, subscriber } = await this.subscriberAccess(request, Scope.read);
    if (refused) return this.answer(a, { ok: false, refusal: refused });
    // As for a page: a key revoked while the subscriber was read must not see it.
    const grant = await this.ctx.store.reads.keys.grant((a.grant as KeyGrant).id);
    if (grant?.state !== 'active') return { ok: false, refusal: UNAUTHORIZED };
    this.touch(a.grant as KeyGrant);
    return this.answer(a, { ok: true, value: subscriber as ListedSubscriber });
  }

  admit(request: ApiPost): Promise<ApiResult<{ items: ListedSubscriber[] }>> {
    return this.idempotently('admit', request, (r) => this.admitOnce(r));
  }

  private async admitOnce(request: ApiPost): Promise<ApiResult<{ items: ListedSubscriber[] }>> {
    const a: Access = { request, scope: Scope.write };
    let admission: Admission | undefined;
    const refused = await runChecks(
      API_ADMIT_ORDER,
      {
        ...this.access,
        body: bodyCheck(request, parseAdmissionsBody, (value) => {
          admission = value;
        }),
      },
      a,
    );
    if (refused) return this.answer(a, { ok: false, refusal: refused });
    const grant = a.grant as KeyGrant;
    const result = await this.ctx.store.write(async (tx) => {
      const stale = await this.recheck(tx, grant);
      if (stale) return stale;
      return (
        (await admitIn(tx, this.ctx.clock, this.who(grant), request.waitlistId, admission as Admission)) ??
        'gone'
      );
    });
    this.touch(grant);
    if (result === 'gone') return this.answer(a, { ok: false, refusal: NOT_FOUND });
    if (typeof result === 'string') return this.refusedBy(a, result);
    return this.answer(a, { ok: true, value: { items: result } });
  }

  async erase(request: ApiRequest & { subscriberId: string }): Promise<ApiResult<null>> {
    const { a, refused } = await this.subscriberAccess(request, Scope.write);
    if (refused) return this.answer(a, { ok: false, refusal: refused });
    const grant = a.grant as KeyGrant;
    const result = await this.ctx.store.write(async (tx) => {
      const stale = await this.recheck(tx, grant);
      if (stale) return stale;
      return eraseIn(tx, this.ctx.clock, this.who(grant), request.waitlistId, request.subscriberId);
    });
    this.touch(grant);
    if (result === false) return this.answer(a, { ok: false, refusal: NO_SUBSCRIBER });
    if (typeof result === 'string') return this.refusedBy(a, result);
    // The answer does not wait for the old copies in the database's files to go: queued.
    await this.ctx.erasureCleanup.erased();
    return this.answer(a, { ok: true, value: null });
  }
}
