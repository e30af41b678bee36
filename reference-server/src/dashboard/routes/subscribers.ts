/**
 * Subscribers of a waitlist: the line and the admitted list, the CSV export, one subscriber, and
 * letting people in or erasing them. Who may do what is the app's rule (`operators.admit`,
 * `operators.erase` refuse members); this door turns its answers into redirects and pages.
 */
import { ADMISSION_MAX, parseListQuery, SubscriberStatus } from '@waitlistkit/protocol';
import type { Request, Response, Router } from 'express';
import { eachPage, listPage } from '../../app/subscribers.js';
import type { Container } from '../../container.js';
import { DomainError } from '../../domain/errors.js';
import type { Waitlist } from '../../domain/records.js';
import { csvRow } from '../csv.js';
import { field, newFormToken, parseCount } from '../forms.js';
import {
  erasePage,
  type ListView,
  subscriberPage,
  subscriberPath,
  subscribersPage,
  subscribersPath,
} from '../pages/subscribers.js';
import { ownWaitlist, refused } from '../refusals.js';
import { sendPage, who } from '../respond.js';

const NO_SUBSCRIBER = 'There is no such subscriber on this waitlist in your organisation.';

/** The notice a redirect asked for; only these few, so a link cannot make the page say anything else. */
function listNotice(query: Request['query']): string | undefined {
  if (query.erased === '1') return 'Subscriber erased.';
  if (query.repeated === '1') return 'That form was sent already: nobody more was let in.';
  const admitted = typeof query.admitted === 'string' && /^\d{1,4}$/.test(query.admitted);
  if (!admitted) return undefined;
  const n = Number(query.admitted);
  if (n === 0) return 'Nobody was waiting, so nobody was let in.';
  return `Let in ${n} ${n === 1 ? 'person' : 'people'}.`;
}

export function subscriberRoutes(app: Container, router: Router): void {
  const { operators } = app;
  const params = (req: Request) => ({ id: req.params.id as string, sid: req.params.sid as string });

  async function renderList(req: Request, res: Response, waitlist: Waitlist, extra: Partial<ListView> = {}) {
    const parsed = parseListQuery({
      page: req.query.page,
      q: req.query.q,
      status: req.query.status,
      limit: '50',
    });
    const query = parsed.ok
      ? parsed.value
      : { page: 1, limit: 50, q: '', status: SubscriberStatus.waiting as SubscriberStatus };
    const result = (await listPage(app.store, waitlist.id, query)) ?? { items: [], total: 0 };
    const view: ListView = { query, notice: listNotice(req.query), admitOnce: newFormToken(), ...extra };
    sendPage(
      res,
      subscribersPage(who(res), waitlist, result, view),
      extra.admit ? 400 : parsed.ok ? 200 : 400,
    );
  }

  router.get('/waitlists/:id/subscribers', async (req, res) => {
    const waitlist = await ownWaitlist(app, res, req.params.id as string);
    if (waitlist) await renderList(req, res, waitlist);
  });

  router.get('/waitlists/:id/subscribers.csv', async (req, res) => {
    const waitlist = await ownWaitlist(app, res, req.params.id as string);
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
    await eachPage(app.store, waitlist.id, q, (items) => {
      for (const s of items)
        res.write(csvRow([s.position ?? '', s.email, s.joined_at, s.referral_code, s.referral_count]));
    });
    res.end();
  });

  // "Admit the next N": the first N of the line, by position.
  router.post('/waitlists/:id/admissions', async (req, res) => {
    const waitlist = await ownWaitlist(app, res, req.params.id as string);
    if (!waitlist) return;
    const { raw, count } = parseCount(req.body);
    try {
      const once = field(req.body, 'once') ?? '';
      const items = await operators.admit(who(res).operator.id, waitlist.id, { count }, once);
      const outcome = items === 'repeated' ? 'repeated=1' : `admitted=${items.length}`;
      res.redirect(303, `${subscribersPath(waitlist.id)}?${outcome}`);
    } catch (failure) {
      if (failure instanceof DomainError && failure.code === 'invalid_request' && failure.field === 'count') {
        // The app's words for a stale form; plainer ones than its own for a bad number.
        const error =
          Number.isNaN(count) || count < 1 || count > ADMISSION_MAX
            ? `Enter a whole number from 1 to ${ADMISSION_MAX}.`
            : failure.message;
        return renderList(req, res, waitlist, { admit: { count: raw, error } });
      }
      refused(res, failure);
    }
  });

  router.get('/waitlists/:id/subscribers/:sid', async (req, res) => {
    const { id, sid } = params(req);
    try {
      const { waitlist, subscriber } = await operators.tenantSubscriber(who(res).operator, id, sid);
      const notice = req.query.admitted === '1' ? 'Let in: they are no longer in the line.' : undefined;
      sendPage(res, subscriberPage(who(res), waitlist, subscriber, notice));
    } catch (failure) {
      refused(res, failure, NO_SUBSCRIBER);
    }
  });

  router.post('/waitlists/:id/subscribers/:sid/admit', async (req, res) => {
    const { id, sid } = params(req);
    try {
      const items = await operators.admit(who(res).operator.id, id, { subscriberIds: [sid] });
      // Nobody let in: already admitted, or not on this waitlist; the page then says which.
      res.redirect(303, `${subscriberPath(id, sid)}${items.length > 0 ? '?admitted=1' : ''}`);
    } catch (failure) {
      refused(res, failure, NO_SUBSCRIBER);
    }
  });

  router.get('/waitlists/:id/subscribers/:sid/erase', async (req, res) => {
    const { id, sid } = params(req);
    try {
      const { waitlist, subscriber } = await operators.subscriberToErase(who(res).operator, id, sid);
      sendPage(res, erasePage(who(res), waitlist, subscriber));
    } catch (failure) {
      refused(res, failure, NO_SUBSCRIBER);
    }
  });

  router.post('/waitlists/:id/subscribers/:sid/erase', async (req, res) => {
    const { id, sid } = params(req);
    try {
      await operators.erase(who(res).operator.id, id, { id: sid });
      res.redirect(303, `${subscribersPath(id)}?erased=1`);
    } catch (failure) {
      refused(res, failure, NO_SUBSCRIBER);
    }
  });
}
