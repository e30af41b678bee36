/**
 * The operator dashboard under /dashboard: server-rendered pages whose every action is a plain
 * form post followed by a redirect, so everything works without JavaScript. Rules are the
 * service layer's (the same calls as the command line); this file decides only who is asking
 * and what page to show.
 */
import { randomBytes } from 'node:crypto';
import { checkEmail, type KeyPreset, parseListQuery } from '@waitlistkit/protocol';
import express, { type NextFunction, type Request, type Response, Router } from 'express';
import { ServiceError } from '../domain/errors.js';
import { clientIp } from '../http/client-ip.js';
import { sendPage } from '../http/respond.js';
import { HashingBusy } from '../services/passwords.js';
import type { Services } from '../services/services.js';
import { eachPage, listPage } from '../services/subscriber-views.js';
import type { ActivityFilter } from '../store/activity.js';
import { getKey } from '../store/keys.js';
import type { Operator } from '../store/operators.js';
import type { Waitlist } from '../store/waitlists.js';
import { csvRow } from './csv.js';
import { field, parseName, parseSettingsForm, settingsValues } from './forms.js';
import { type ActivityFilterForm, activityPage } from './pages/activity.js';
import { problemPage } from './pages/errors.js';
import { keyCreatedPage, keyGonePage, keysPage, revokePage } from './pages/keys.js';
import { signInPage } from './pages/sign-in.js';
import { archivePage, subscribersPage, waitlistPage, waitlistsPage } from './pages/waitlists.js';
import {
  currentSession,
  endSession,
  isSameOriginPost,
  signInToken,
  signInTokenValid,
  startSession,
} from './session.js';

interface Who {
  operator: Operator;
  csrf: string;
}

/** The signed-in operator of a request, set by `requireSession`. */
const who = (res: Response) => res.locals.who as Who;

const ACTIVITY_PAGE = 50;

export function dashboardRouter(services: Services): Router {
  const router = Router();
  const { admin } = services;
  // Values of keys just created, shown once on the page the creation redirects to. In memory
  // only: a key's value is never written anywhere.
  const revealOnce = new Map<string, { keyId: string; value: string; until: number }>();

  router.use(express.urlencoded({ extended: false, limit: '32kb', parameterLimit: 100 }));
  router.use((_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });

  const snippet = (waitlist: Waitlist) =>
    `<script src="${services.config.baseUrl}/widget/waitlist.js" data-waitlist-id="${waitlist.id}" data-base-url="${services.config.baseUrl}" async></script>`;

  // ------------------------------------------------------------------ sign-in

  router.get('/sign-in', async (req, res) => {
    if (await currentSession(services, req)) return res.redirect(303, '/dashboard/waitlists');
    sendPage(res, signInPage({ token: signInToken(services, req, res) }));
  });

  router.post('/sign-in', async (req, res) => {
    const email = field(req.body, 'email') ?? '';
    const password = field(req.body, 'password') ?? '';
    if (!signInTokenValid(services, req, field(req.body, '_csrf'))) {
      return sendPage(
        res,
        signInPage({
          token: signInToken(services, req, res),
          email,
          error: 'The form expired; sign in again.',
        }),
        403,
      );
    }
    const now = services.clock.now();
    const ip = clientIp(req, services.config.trustProxy);
    const normalized = checkEmail(email);
    // Per address first, whatever the email: otherwise varying it buys unlimited password checks.
    const throttle = [
      services.limiters.signInIp.take(String(ip), now, services.limits.signInIp),
      services.limiters.signIn.take(
        `${normalized.ok ? normalized.normalized : email}|${ip}`,
        now,
        services.limits.signIn,
      ),
    ].find((t) => !t.allowed);
    const again = (status: number, error: string, retryAfter: number) => {
      res.set('Retry-After', String(retryAfter));
      sendPage(res, signInPage({ token: signInToken(services, req, res), email, error }), status);
    };
    if (throttle) {
      const minutes = Math.ceil(throttle.retryAfter / 60);
      return again(
        429,
        `Too many sign-in attempts; try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
        throttle.retryAfter,
      );
    }
    let operator: Operator | undefined;
    try {
      operator = password.length <= 1024 ? await admin.signIn(email, password) : undefined;
    } catch (error) {
      if (error instanceof HashingBusy) return again(429, error.message, 5);
      throw error;
    }
    if (!operator) {
      return sendPage(
        res,
        signInPage({ token: signInToken(services, req, res), email, error: 'Wrong email or password.' }),
        401,
      );
    }
    await startSession(services, res, operator.id);
    res.redirect(303, '/dashboard/waitlists');
  });

  // ------------------------------------------------------------------ everything else needs a session

  router.use(async (req: Request, res: Response, next: NextFunction) => {
    const session = await currentSession(services, req);
    if (!session) {
      if (req.method === 'GET') return res.redirect(303, '/dashboard/sign-in');
      return sendPage(
        res,
        problemPage(undefined, 'Signed out', 'Your session has ended. Sign in again.'),
        401,
      );
    }
    if (req.method === 'POST' && !isSameOriginPost(services, req, field(req.body, '_csrf'), session.csrf)) {
      return sendPage(
        res,
        problemPage(
          { operator: session.operator, csrf: session.csrf },
          'Refused',
          'This form did not come from the dashboard, so it was not carried out.',
        ),
        403,
      );
    }
    res.locals.who = { operator: session.operator, csrf: session.csrf } satisfies Who;
    next();
  });

  router.post('/sign-out', async (req, res) => {
    await endSession(services, req, res);
    res.redirect(303, '/dashboard/sign-in');
  });

  router.get('/', (_req, res) => res.redirect(303, '/dashboard/waitlists'));

  // ------------------------------------------------------------------ waitlists

  async function ownWaitlist(res: Response, id: string): Promise<Waitlist | undefined> {
    const waitlist = await admin.waitlist(id).catch(() => undefined);
    if (!waitlist || waitlist.tenant_id !== who(res).operator.tenant_id) {
      sendPage(
        res,
        problemPage(who(res), 'Not found', 'There is no such waitlist in your organisation.'),
        404,
      );
      return undefined;
    }
    return waitlist;
  }

  router.get('/waitlists', async (_req, res) => {
    sendPage(res, waitlistsPage(who(res), await admin.listWaitlists(who(res).operator.tenant_id)));
  });

  router.post('/waitlists', async (req, res) => {
    const { name, error } = parseName(req.body, 'waitlist');
    if (!name) {
      const waitlists = await admin.listWaitlists(who(res).operator.tenant_id);
      return sendPage(
        res,
        waitlistsPage(who(res), waitlists, { name: field(req.body, 'name') ?? '', error }),
        400,
      );
    }
    const waitlist = await admin.createWaitlist(who(res).operator.tenant_id, name, {});
    res.redirect(303, `/dashboard/waitlists/${waitlist.id}`);
  });

  router.get('/waitlists/:id', async (req, res) => {
    const waitlist = await ownWaitlist(res, req.params.id as string);
    if (!waitlist) return;
    sendPage(
      res,
      waitlistPage(who(res), {
        waitlist,
        snippet: snippet(waitlist),
        values: settingsValues(waitlist.settings),
        errors: {},
        saved: req.query.saved === '1',
      }),
    );
  });

  router.post('/waitlists/:id', async (req, res) => {
    const waitlist = await ownWaitlist(res, req.params.id as string);
    if (!waitlist) return;
    const form = parseSettingsForm(req.body);
    const { name, error } = parseName(req.body, 'waitlist');
    const errors = error ? { ...form.errors, name: error } : form.errors;
    const values = { ...form.values, name: field(req.body, 'name') ?? '' };
    const again = (status: number, formError?: string) =>
      sendPage(
        res,
        waitlistPage(who(res), { waitlist, snippet: snippet(waitlist), values, errors, formError }),
        status,
      );
    if (Object.keys(errors).length > 0) return again(400);
    try {
      await admin.updateWaitlist(waitlist.id, { name, patch: form.patch });
    } catch (failure) {
      if (failure instanceof ServiceError) return again(400, failure.message);
      throw failure;
    }
    res.redirect(303, `/dashboard/waitlists/${waitlist.id}?saved=1`);
  });

  router.get('/waitlists/:id/archive', async (req, res) => {
    const waitlist = await ownWaitlist(res, req.params.id as string);
    if (waitlist) sendPage(res, archivePage(who(res), waitlist));
  });

  router.post('/waitlists/:id/archive', async (req, res) => {
    const waitlist = await ownWaitlist(res, req.params.id as string);
    if (!waitlist) return;
    await admin.updateWaitlist(waitlist.id, { archive: true });
    res.redirect(303, `/dashboard/waitlists/${waitlist.id}`);
  });

  router.get('/waitlists/:id/subscribers', async (req, res) => {
    const waitlist = await ownWaitlist(res, req.params.id as string);
    if (!waitlist) return;
    const parsed = parseListQuery({ page: req.query.page, q: req.query.q, limit: '50' });
    const query = parsed.ok ? parsed.value : { page: 1, limit: 50, q: '' };
    const result = (await listPage(services.db, waitlist.id, query)) ?? { items: [], total: 0 };
    sendPage(res, subscribersPage(who(res), waitlist, result, query), parsed.ok ? 200 : 400);
  });

  router.get('/waitlists/:id/subscribers.csv', async (req, res) => {
    const waitlist = await ownWaitlist(res, req.params.id as string);
    if (!waitlist) return;
    const parsed = parseListQuery({ q: req.query.q });
    const q = parsed.ok ? parsed.value.q : '';
    res.set({
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${waitlist.id}-subscribers.csv"`,
    });
    res.write(csvRow(['position', 'email', 'joined_at', 'referral_code', 'referral_count']));
    // Pages of 1000 in position order from one snapshot, streamed: memory stays flat for a
    // million rows, and a settings change during the export does not tear it.
    await eachPage(services.db, waitlist.id, q, (items) => {
      for (const s of items)
        res.write(csvRow([s.position, s.email, s.joined_at, s.referral_code, s.referral_count]));
    });
    res.end();
  });

  // ------------------------------------------------------------------ API keys

  async function renderKeys(res: Response, form: { name?: string; error?: string } = {}, status = 200) {
    const { operator } = who(res);
    const [plan, keys] = await Promise.all([
      admin.plan(operator.tenant_id),
      admin.listKeys(operator.tenant_id),
    ]);
    sendPage(res, keysPage(who(res), plan, keys, form), status);
  }

  /** Refusals of the service layer (member, plan) as a page; the service has logged them. */
  function refused(res: Response, failure: unknown): void {
    if (!(failure instanceof ServiceError)) throw failure;
    const title = failure.code === 'not_found' ? 'Not found' : 'Not allowed';
    sendPage(res, problemPage(who(res), title, failure.message), failure.status);
  }

  router.get('/keys', (_req, res) => renderKeys(res));

  router.post('/keys', async (req, res) => {
    const { name, error } = parseName(req.body, 'key');
    const preset = field(req.body, 'preset');
    if (preset !== 'full' && preset !== 'read-only') {
      return renderKeys(
        res,
        { name: field(req.body, 'name') ?? '', error: 'Choose Full access or Read-only.' },
        400,
      );
    }
    if (!name) return renderKeys(res, { name: field(req.body, 'name') ?? '', error }, 400);
    try {
      const { key, value } = await admin.createKey(who(res).operator.id, name, preset as KeyPreset);
      const reveal = randomBytes(16).toString('base64url');
      revealOnce.set(reveal, { keyId: key.id, value, until: services.clock.now() + 10 * 60_000 });
      res.redirect(303, `/dashboard/keys/created/${reveal}`);
    } catch (failure) {
      refused(res, failure);
    }
  });

  router.get('/keys/created/:reveal', async (req, res) => {
    const entry = revealOnce.get(req.params.reveal as string);
    revealOnce.delete(req.params.reveal as string);
    for (const [id, e] of revealOnce) if (e.until < services.clock.now()) revealOnce.delete(id);
    const key =
      entry && entry.until > services.clock.now() ? await getKey(services.db.reader, entry.keyId) : undefined;
    if (!entry || !key || key.tenant_id !== who(res).operator.tenant_id)
      return sendPage(res, keyGonePage(who(res)), 410);
    sendPage(res, keyCreatedPage(who(res), key, entry.value));
  });

  router.get('/keys/:id/revoke', async (req, res) => {
    const key = await getKey(services.db.reader, req.params.id as string);
    if (!key || key.tenant_id !== who(res).operator.tenant_id) {
      return sendPage(
        res,
        problemPage(who(res), 'Not found', 'There is no such key in your organisation.'),
        404,
      );
    }
    if (who(res).operator.role !== 'admin') {
      return sendPage(res, problemPage(who(res), 'Not allowed', 'Only admins can revoke API keys.'), 403);
    }
    sendPage(res, revokePage(who(res), key));
  });

  router.post('/keys/:id/revoke', async (req, res) => {
    try {
      await admin.revokeKey(who(res).operator.id, req.params.id as string);
      res.redirect(303, '/dashboard/keys');
    } catch (failure) {
      refused(res, failure);
    }
  });

  // ------------------------------------------------------------------ activity

  router.get('/activity', async (req, res) => {
    const form: ActivityFilterForm = {
      actor: req.query.actor === 'operator' || req.query.actor === 'key' ? req.query.actor : '',
      action: req.query.action === 'key' || req.query.action === 'subscriber' ? req.query.action : '',
    };
    const before =
      typeof req.query.before === 'string' && /^\d{1,15}$/.test(req.query.before)
        ? Number(req.query.before)
        : undefined;
    const filter: ActivityFilter = { limit: ACTIVITY_PAGE + 1 };
    if (form.actor) filter.actorType = form.actor;
    if (form.action) filter.actionPrefix = `${form.action}.`;
    if (before !== undefined) filter.beforeId = before;
    const entries = await admin.activity(who(res).operator.tenant_id, filter);
    const more = entries.length > ACTIVITY_PAGE;
    const shown = entries.slice(0, ACTIVITY_PAGE);
    sendPage(res, activityPage(who(res), shown, form, more ? shown[shown.length - 1]?.id : undefined));
  });

  return router;
}
