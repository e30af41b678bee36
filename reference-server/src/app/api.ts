/**
 * The customer API's use cases. Each endpoint is a walk of checks in the order of docs/protocol.md#order-of-checks
 * (domain/checks.ts): the access checks (api-access.ts), then its own; what the walk established
 * (the key's grant and budget, the waitlist, the body) is what the use case then works with.
 * Every answer to an authenticated request carries the key's budget, refusals of the budget included.
 */
import {
  type AcceptedSignup,
  ErrorCode,
  parseAdmissionsBody,
  parseApiCreateBody,
  parseListQuery,
  parseStatsQuery,
  planAllowsApi,
  Scope,
  type Stats,
} from '@waitlistkit/protocol';
import { countryOf } from '../adapters/geo.js';
import {
  API_ADMIT_ORDER,
  API_CREATE_ORDER,
  API_LIST_ORDER,
  API_STATS_ORDER,
  API_SUBSCRIBER_ORDER,
} from '../domain/checks.js';
import type { KeyGrant, ListedSubscriber, ListPage } from '../domain/records.js';
import { statsRange } from '../domain/stats.js';
import type { Repositories } from '../store/store.js';
import {
  type ApiPost,
  type ApiRequest,
  type ApiResult,
  type ApiState,
  accessChecks,
  type Budget,
  bodyCheck,
  FEATURE_NOT_ALLOWED,
  NOT_FOUND,
  type Refused,
  refused,
  stopOn,
  UNAUTHORIZED,
} from './api-access.js';
import { idempotently } from './api-idempotency.js';
import type { Context } from './context.js';
import {
  acceptedBody,
  disposableCheck,
  emailThrottle,
  extrasCheck,
  geoCheck,
  mxCheck,
} from './create-checks.js';
import { admitIn, eraseIn, type Who } from './lifecycle.js';
import { refusal } from './refusal.js';
import { readStats } from './stats.js';
import { listPage } from './subscribers.js';

export type { ApiPost, ApiRequest, ApiResult, Budget } from './api-access.js';

const NO_SUBSCRIBER = refusal(ErrorCode.notFound, 'Subscriber not found.');

export type ListResult = ListPage & { page: number; limit: number };

type CreateRequest = ApiPost & { ip: string | undefined };
type SubscriberRequest = ApiRequest & { subscriberId: string };

export class ApiRequests {
  private readonly lastTouched = new Map<string, number>();
  private readonly listing;
  private readonly creating;
  private readonly subscriber;
  private readonly admitting;
  private readonly ranging;

  constructor(private readonly ctx: Context) {
    const parseBody = bodyCheck(parseApiCreateBody);
    this.listing = accessChecks<ApiState<ApiRequest & { query: unknown }>>(ctx)
      .prefixOf(API_LIST_ORDER)
      .check('query', (s) => {
        const query = parseListQuery(s.request.query);
        return query.ok
          ? { query: query.value }
          : { stop: refused(s.budget, refusal(query.error.code, query.error.message)) };
      });
    this.creating = accessChecks<ApiState<CreateRequest>>(ctx)
      .prefixOf(API_CREATE_ORDER)
      .check('body', async (s) => {
        const parsed = await parseBody(s);
        if ('stop' in parsed) return parsed;
        const checked = extrasCheck(s.waitlist.settings, parsed.body);
        return 'refusal' in checked
          ? { stop: refused(s.budget, checked.refusal) }
          : { body: parsed.body, extras: checked.extras };
      })
      .check('email_throttle', async (s) =>
        stopOn(s, await emailThrottle(ctx, s.waitlist, s.body.normalized_email)),
      )
      .check('disposable', (s) => stopOn(s, disposableCheck(s.waitlist.settings, s.body.email_domain)))
      .check('mx', async (s) => stopOn(s, await mxCheck(ctx, s.waitlist.settings, s.body.email_domain)))
      // The visitor's country when the backend forwards it, else the calling peer's.
      .check('geo', (s) =>
        stopOn(s, geoCheck(s.waitlist.settings, s.body.client_country ?? countryOf(s.request.ip))),
      );
    // GET and DELETE of one subscriber: the subscriber, on this waitlist, is the last check.
    this.subscriber = accessChecks<ApiState<SubscriberRequest>>(ctx)
      .prefixOf(API_SUBSCRIBER_ORDER)
      .check('subscriber', async (s) => {
        const { waitlist } = s;
        const subscriber = await ctx.store.read((tx) =>
          tx.subscribers.get(waitlist.id, waitlist.settings, s.request.subscriberId),
        );
        return subscriber ? { subscriber } : { stop: refused(s.budget, NO_SUBSCRIBER) };
      });
    this.admitting = accessChecks<ApiState<ApiPost>>(ctx)
      .prefixOf(API_ADMIT_ORDER)
      .check('body', bodyCheck(parseAdmissionsBody));
    this.ranging = accessChecks<ApiState<ApiRequest & { query: unknown }>>(ctx)
      .prefixOf(API_STATS_ORDER)
      .check('range', (s) => {
        const query = parseStatsQuery(s.request.query);
        if (!query.ok) return { stop: refused(s.budget, refusal(query.error.code, query.error.message)) };
        const range = statsRange(query.value.from, query.value.to, ctx.clock.now());
        return range.ok
          ? { range: range.value }
          : { stop: refused(s.budget, refusal(ErrorCode.invalidRequest, range.reason)) };
      });
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

  /**
   * A read's answer is given only if its key is still active once it was read: a key revoked
   * while the request was in flight must not see it (docs/protocol.md#api-keys: immediate, also in flight).
   */
  private async answerRead<T>(grant: KeyGrant, budget: Budget, value: T): Promise<ApiResult<T>> {
    const fresh = await this.ctx.store.reads.keys.grant(grant.id);
    if (fresh?.state !== 'active') return UNAUTHORIZED;
    this.touch(grant);
    return { ok: true, value, budget };
  }

  /**
   * `work` in a write, after the key is checked again inside it: a key revoked, or a plan lost,
   * while the request was in flight writes nothing.
   */
  private async writeAs<T>(
    grant: KeyGrant,
    budget: Budget,
    work: (tx: Repositories, who: Who) => Promise<T>,
  ): Promise<Refused | { ok: true; value: T }> {
    const who: Who = { tenantId: grant.tenant_id, actor: { type: 'key', id: grant.id, name: grant.name } };
    const result = await this.ctx.store.write(async (tx): Promise<Refused | { ok: true; value: T }> => {
      const fresh = await tx.keys.grant(grant.id);
      if (fresh?.state !== 'active') return UNAUTHORIZED;
      if (!planAllowsApi(fresh.plan)) return refused(budget, FEATURE_NOT_ALLOWED);
      return { ok: true, value: await work(tx, who) };
    });
    this.touch(grant);
    return result;
  }

  async list(request: ApiRequest & { query: unknown }): Promise<ApiResult<ListResult>> {
    const walked = await this.listing.run({ request, scope: Scope.read });
    if (walked.stop) return walked.stop;
    const { grant, budget, waitlist, query } = walked.state;
    const page = await listPage(this.ctx.store, waitlist.id, query);
    if (!page) return refused(budget, NOT_FOUND);
    return this.answerRead(grant, budget, { ...page, page: query.page, limit: query.limit });
  }

  /** The launch's figures (docs/insights.md#stats), read from the day aggregates. */
  async stats(request: ApiRequest & { query: unknown }): Promise<ApiResult<Stats>> {
    const walked = await this.ranging.run({ request, scope: Scope.read });
    if (walked.stop) return walked.stop;
    const { grant, budget, waitlist, range } = walked.state;
    return this.answerRead(grant, budget, await readStats(this.ctx.store, waitlist.id, range));
  }

  async get(request: SubscriberRequest): Promise<ApiResult<ListedSubscriber>> {
    const walked = await this.subscriber.run({ request, scope: Scope.read });
    if (walked.stop) return walked.stop;
    const { grant, budget, subscriber } = walked.state;
    return this.answerRead(grant, budget, subscriber);
  }

  create(request: CreateRequest): Promise<ApiResult<AcceptedSignup>> {
    return idempotently(this.ctx, 'create', request, () => this.createOnce(request));
  }

  private async createOnce(request: CreateRequest): Promise<ApiResult<AcceptedSignup>> {
    const walked = await this.creating.run({ request, scope: Scope.write });
    if (walked.stop) return walked.stop;
    const { grant, budget, waitlist, body, extras } = walked.state;
    const { settings } = waitlist;
    // The activity entry is part of the sign-up's write.
    const written = await this.writeAs(grant, budget, async (tx, who) => {
      const signup = await tx.subscribers.signUp(
        {
          waitlistId: waitlist.id,
          email: body.email,
          emailNorm: body.normalized_email,
          referralCode: body.referral_code,
          confirm: settings.confirm_email,
          extras,
        },
        this.ctx.clock.nowMicros(),
      );
      if (signup.outcome === 'waitlist_gone') return signup;
      await tx.activity.append(
        {
          ...who,
          action: signup.outcome === 'created' ? 'subscriber.created' : 'subscriber.matched',
          subjectId: signup.subscriber.id,
          details: { waitlist_id: waitlist.id, new_subscriber: signup.outcome === 'created' },
        },
        this.ctx.clock.now(),
      );
      return signup;
    });
    if (!written.ok) return written;
    const signup = written.value;
    if (signup.outcome === 'waitlist_gone') return refused(budget, NOT_FOUND);
    return { ok: true, value: acceptedBody(signup.subscriber, settings, this.ctx.config.appUrl), budget };
  }

  admit(request: ApiPost): Promise<ApiResult<{ items: ListedSubscriber[] }>> {
    return idempotently(this.ctx, 'admit', request, () => this.admitOnce(request));
  }

  private async admitOnce(request: ApiPost): Promise<ApiResult<{ items: ListedSubscriber[] }>> {
    const walked = await this.admitting.run({ request, scope: Scope.write });
    if (walked.stop) return walked.stop;
    const { grant, budget, body } = walked.state;
    const written = await this.writeAs(grant, budget, (tx, who) =>
      admitIn(tx, this.ctx.clock, who, request.waitlistId, body),
    );
    if (!written.ok) return written;
    if (!written.value) return refused(budget, NOT_FOUND);
    return { ok: true, value: { items: written.value }, budget };
  }

  async erase(request: SubscriberRequest): Promise<ApiResult<null>> {
    const walked = await this.subscriber.run({ request, scope: Scope.write });
    if (walked.stop) return walked.stop;
    const { grant, budget } = walked.state;
    const written = await this.writeAs(grant, budget, (tx, who) =>
      eraseIn(tx, this.ctx.clock, who, request.waitlistId, request.subscriberId),
    );
    if (!written.ok) return written;
    if (!written.value) return refused(budget, NO_SUBSCRIBER);
    // The answer does not wait for the old copies in the database's files to go: queued.
    await this.ctx.erasureCleanup.erased();
    return { ok: true, value: null, budget };
  }
}
