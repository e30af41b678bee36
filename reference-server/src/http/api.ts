/**
 * The customer API, /v1/api/*: Bearer keys, the per-key budget, plans and scopes, then the
 * endpoint's own checks, in the order of contract §2.
 */
import { timingSafeEqual } from 'node:crypto';
import {
  ErrorCode,
  Header,
  parseApiCreateBody,
  parseApiKey,
  parseListQuery,
  planAllowsApi,
  type Scope,
  Scope as Scopes,
} from '@waitlistkit/protocol';
import { type Request, type Response, Router } from 'express';
import { API_CREATE_ORDER, API_LIST_ORDER, errorOutcome, type Outcome, runChecks } from '../domain/checks.js';
import type { Bucket, Take } from '../domain/throttle.js';
import { hashKey } from '../services/admin.js';
import { countryOf } from '../services/geo.js';
import type { Services } from '../services/services.js';
import { acceptedBody, commitSignup } from '../services/signup.js';
import { listPage } from '../services/subscriber-views.js';
import { findKeyByHash, getGrant, type KeyGrant } from '../store/keys.js';
import { getWaitlist, type Waitlist } from '../store/waitlists.js';
import { readJsonBody } from './body.js';
import { clientIp } from './client-ip.js';
import { send } from './respond.js';
import { disposableCheck, emailThrottle, geoCheck, mxCheck } from './signup-checks.js';

// One body for the four cases of the spec (missing, malformed, unknown, revoked): byte-identical.
const UNAUTHORIZED = errorOutcome(
  ErrorCode.unauthorized,
  'The API key is missing, malformed, unknown or revoked.',
  {
    'WWW-Authenticate': 'Bearer',
  },
);

const NOT_FOUND = errorOutcome(ErrorCode.notFound, 'Waitlist not found.');

const FEATURE_NOT_ALLOWED = errorOutcome(
  ErrorCode.featureNotAllowed,
  "API access needs the Pro or Team plan; this tenant's plan lacks it.",
);

interface ApiContext {
  req: Request;
  scope: Scope;
  grant?: KeyGrant;
  budget?: Take<Bucket>;
  waitlist?: Waitlist;
}

async function authenticate(services: Services, header: string | undefined): Promise<KeyGrant | undefined> {
  const match = header?.match(/^Bearer ([^\s]+)$/i);
  const parsed = parseApiKey(match?.[1]);
  if (!parsed.ok) return undefined;
  const hash = hashKey(parsed.value);
  const grant = await findKeyByHash(services.db.reader, hash);
  if (grant?.state !== 'active') return undefined;
  return timingSafeEqual(Buffer.from(grant.hash), Buffer.from(hash)) ? grant : undefined;
}

function budgetHeaders(services: Services, budget: Take<Bucket>): Record<string, string> {
  return {
    [Header.rateLimitLimit]: String(services.limits.key.capacity),
    [Header.rateLimitRemaining]: String(budget.remaining),
    [Header.rateLimitReset]: String(budget.reset),
  };
}

/** The checks both endpoints share, up to and including the waitlist lookup. */
function commonChecks(services: Services) {
  return {
    auth: async (c: ApiContext) => {
      c.grant = await authenticate(services, c.req.headers.authorization);
      return c.grant ? undefined : UNAUTHORIZED;
    },
    key_budget: (c: ApiContext) => {
      const grant = c.grant as KeyGrant;
      c.budget = services.limiters.key.take(grant.id, services.clock.now(), services.limits.key);
      if (c.budget.allowed) return undefined;
      return errorOutcome(
        ErrorCode.rateLimitExceeded,
        `This key exceeded its budget of ${services.limits.key.capacity} requests per minute.`,
        { [Header.retryAfter]: String(c.budget.retryAfter) },
      );
    },
    plan: (c: ApiContext) => (planAllowsApi((c.grant as KeyGrant).plan) ? undefined : FEATURE_NOT_ALLOWED),
    scope: (c: ApiContext) =>
      (c.grant as KeyGrant).scopes.includes(c.scope)
        ? undefined
        : errorOutcome(ErrorCode.insufficientScope, `This key lacks the ${c.scope} scope.`),
    waitlist: async (c: ApiContext) => {
      const waitlist = await getWaitlist(services.db.reader, String(c.req.params.waitlistId));
      if (!waitlist || waitlist.archived || waitlist.tenant_id !== (c.grant as KeyGrant).tenant_id)
        return NOT_FOUND;
      c.waitlist = waitlist;
      return undefined;
    },
  };
}

function respond(res: Response, services: Services, c: ApiContext, outcome: Outcome): void {
  // Every authenticated answer carries the budget, refusals of the budget included.
  if (c.budget) res.set(budgetHeaders(services, c.budget));
  send(res, outcome);
}

/** Records use at most once a minute per key: a write per request would cost every request. */
function touch(services: Services, grant: KeyGrant, lastTouched: Map<string, number>): void {
  const now = services.clock.now();
  if ((lastTouched.get(grant.id) ?? 0) > now - 60_000) return;
  lastTouched.set(grant.id, now);
  services.db.writer
    .submit(
      (db) =>
        db.run('UPDATE api_keys SET last_used_at = ? WHERE id = ?', [new Date(now).toISOString(), grant.id]),
      {
        savepoint: false,
      },
    )
    .catch((error: unknown) => services.log.error('could not record key use', { error: String(error) }));
}

export function apiRouter(services: Services): Router {
  const router = Router();
  const common = commonChecks(services);
  const lastTouched = new Map<string, number>();

  router.get('/waitlists/:waitlistId/subscribers', async (req, res) => {
    const c: ApiContext = { req, scope: Scopes.read };
    let query: ReturnType<typeof parseListQuery> | undefined;
    const refusal = await runChecks(
      API_LIST_ORDER,
      {
        ...common,
        query: () => {
          query = parseListQuery(req.query);
          return query.ok ? undefined : errorOutcome(query.error.code, query.error.message);
        },
      },
      c,
    );
    if (refusal) return respond(res, services, c, refusal);
    if (!query?.ok) throw new Error('unreachable: the query check passed');
    const page = await listPage(services.db, (c.waitlist as Waitlist).id, query.value);
    if (!page) return respond(res, services, c, NOT_FOUND);
    // A key revoked while this page was read must not see it (contract §8: immediate, also in flight).
    const grant = await getGrant(services.db.reader, (c.grant as KeyGrant).id);
    if (grant?.state !== 'active') return respond(res, services, {} as ApiContext, UNAUTHORIZED);
    touch(services, c.grant as KeyGrant, lastTouched);
    respond(res, services, c, {
      status: 200,
      body: { items: page.items, total: page.total, page: query.value.page, limit: query.value.limit },
    });
  });

  router.post('/waitlists/:waitlistId/subscribers', async (req, res) => {
    const c: ApiContext = { req, scope: Scopes.write };
    let body: Extract<ReturnType<typeof parseApiCreateBody>, { ok: true }>['value'] | undefined;
    const settings = () => (c.waitlist as Waitlist).settings;
    const refusal = await runChecks(
      API_CREATE_ORDER,
      {
        ...common,
        body: async () => {
          const raw = await readJsonBody(req);
          if (!raw.ok) return raw.outcome;
          const parsed = parseApiCreateBody(raw.value);
          if (!parsed.ok) return errorOutcome(parsed.error.code, parsed.error.message);
          body = parsed.value;
          return undefined;
        },
        email_throttle: () =>
          emailThrottle(services, c.waitlist as Waitlist, body?.normalized_email as string),
        disposable: () => disposableCheck(settings(), body?.email_domain as string),
        mx: () => mxCheck(services, settings().mx_check, body?.email_domain as string),
        // The visitor's country when the backend forwards it, else the calling peer's.
        geo: () =>
          geoCheck(settings(), body?.client_country ?? countryOf(clientIp(req, services.config.trustProxy))),
      },
      c,
    );
    if (refusal) return respond(res, services, c, refusal);
    const grant = c.grant as KeyGrant;
    const input = body as NonNullable<typeof body>;
    const result = await commitSignup(services.db, services.clock, {
      waitlistId: (c.waitlist as Waitlist).id,
      email: input.email,
      emailNorm: input.normalized_email,
      referralCode: input.referral_code,
      actor: { keyId: grant.id, keyName: grant.name, tenantId: grant.tenant_id },
    });
    touch(services, grant, lastTouched);
    switch (result.outcome) {
      case 'key_revoked':
        return respond(res, services, {} as ApiContext, UNAUTHORIZED);
      case 'plan_lost':
        return respond(res, services, c, FEATURE_NOT_ALLOWED);
      case 'waitlist_gone':
        return respond(res, services, c, NOT_FOUND);
      default:
        return respond(res, services, c, {
          status: 202,
          body: acceptedBody(result.subscriber, settings(), services.config.appUrl),
        });
    }
  });

  return router;
}
