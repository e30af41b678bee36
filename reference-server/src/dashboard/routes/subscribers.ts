/**
 * Subscribers of a waitlist: the line and the admitted list, the CSV export, one subscriber, and
 * letting people in or erasing them. Who may do what is the app's rule (`subscribers.admit`,
 * `subscribers.erase` refuse members); this door turns its answers into redirects and pages.
 */
import { ADMISSION_MAX, parseListQuery, SubscriberStatus } from '@waitlistkit/protocol';
import type { Request, Response } from 'express';
import { exportList } from '../../app/export.js';
import { listPage } from '../../app/subscribers.js';
import type { Container } from '../../container.js';
import type { Waitlist } from '../../domain/records.js';
import { field, newFormToken, parseCount } from '../forms.js';
import type { SignedIn } from '../pages/shell.js';
import {
  erasePage,
  type ListView,
  subscriberPage,
  subscriberPath,
  subscribersPage,
  subscribersPath,
} from '../pages/subscribers.js';
import { ownWaitlist, refused } from '../refusals.js';
import { sendPage } from '../respond.js';
import type { Pages } from '../signed-in.js';

const NO_SUBSCRIBER = 'There is no such subscriber on this waitlist in your organisation.';

/** The notice a redirect asked for; only these few, so a link cannot make the page say anything else. */
function listNotice(query: Request['query']): string | undefined {
  if (query.erased === '1') return 'Subscriber erased.';
  if (query.repeated === '1') return 'That form was sent already: nobody more was let in.';
  if (typeof query.imported === 'string' && /^\d{1,7}$/.test(query.imported))
    return `Imported ${Number(query.imported)} ${query.imported === '1' ? 'subscriber' : 'subscribers'}.`;
  const admitted = typeof query.admitted === 'string' && /^\d{1,4}$/.test(query.admitted);
  if (!admitted) return undefined;
  const n = Number(query.admitted);
  if (n === 0) return 'Nobody was waiting, so nobody was let in.';
  return `Let in ${n} ${n === 1 ? 'person' : 'people'}.`;
}

export function subscriberRoutes(app: Container, pages: Pages): void {
  const { subscribers } = app;
  const params = (req: Request) => ({ id: req.params.id as string, sid: req.params.sid as string });

  async function renderList(
    req: Request,
    res: Response,
    who: SignedIn,
    waitlist: Waitlist,
    extra: Partial<ListView> = {},
  ) {
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
    const status = extra.admit ? 400 : parsed.ok ? 200 : 400;
    sendPage(res, subscribersPage(who, waitlist, result, view), status);
  }

  pages.get('/waitlists/:id/subscribers', async (req, res, who) => {
    const waitlist = await ownWaitlist(app, res, who, req.params.id as string);
    if (waitlist) await renderList(req, res, who, waitlist);
  });

  pages.get('/waitlists/:id/subscribers.csv', async (req, res, who) => {
    const waitlist = await ownWaitlist(app, res, who, req.params.id as string);
    if (!waitlist) return;
    const parsed = parseListQuery({ q: req.query.q });
    const q = parsed.ok ? parsed.value.q : '';
    res.set({
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${waitlist.id}-subscribers.csv"`,
    });
    // Pages of 1000 in position order from one snapshot, streamed: memory stays flat for a
    // million rows, and a settings change during the export does not tear it.
    await exportList(app, who, {
      waitlistId: waitlist.id,
      status: SubscriberStatus.waiting,
      q,
      write: (text) => res.write(text),
    });
    res.end();
  });

  // "Admit the next N": the first N of the line, by position.
  pages.post('/waitlists/:id/admissions', async (req, res, who) => {
    const waitlist = await ownWaitlist(app, res, who, req.params.id as string);
    if (!waitlist) return;
    const { raw, count } = parseCount(req.body);
    const items = await subscribers.admit(who, waitlist.id, { count }, field(req.body, 'once') ?? '');
    if (items.ok) {
      const outcome = items.value === 'repeated' ? 'repeated=1' : `admitted=${items.value.length}`;
      return res.redirect(303, `${subscribersPath(waitlist.id)}?${outcome}`);
    }
    const { refusal } = items;
    if (refusal.code !== 'invalid_request' || refusal.field !== 'count') return refused(res, who, refusal);
    // The app's words for a stale form; plainer ones than its own for a bad number.
    const error =
      Number.isNaN(count) || count < 1 || count > ADMISSION_MAX
        ? `Enter a whole number from 1 to ${ADMISSION_MAX}.`
        : refusal.message;
    await renderList(req, res, who, waitlist, { admit: { count: raw, error } });
  });

  pages.get('/waitlists/:id/subscribers/:sid', async (req, res, who) => {
    const { id, sid } = params(req);
    const found = await subscribers.withReferred(who, id, sid);
    if (!found.ok) return refused(res, who, found.refusal, NO_SUBSCRIBER);
    const notice = req.query.admitted === '1' ? 'Let in: they are no longer in the line.' : undefined;
    sendPage(res, subscriberPage(who, found.value, notice));
  });

  pages.post('/waitlists/:id/subscribers/:sid/admit', async (req, res, who) => {
    const { id, sid } = params(req);
    const items = await subscribers.admit(who, id, { subscriberIds: [sid] });
    if (!items.ok) return refused(res, who, items.refusal, NO_SUBSCRIBER);
    // Nobody let in: already admitted, or not on this waitlist; the page then says which.
    res.redirect(303, `${subscriberPath(id, sid)}${items.value.length > 0 ? '?admitted=1' : ''}`);
  });

  pages.get('/waitlists/:id/subscribers/:sid/erase', async (req, res, who) => {
    const { id, sid } = params(req);
    const found = await subscribers.toErase(who, id, sid);
    if (!found.ok) return refused(res, who, found.refusal, NO_SUBSCRIBER);
    sendPage(res, erasePage(who, found.value.waitlist, found.value.subscriber));
  });

  pages.post('/waitlists/:id/subscribers/:sid/erase', async (req, res, who) => {
    const { id, sid } = params(req);
    const erased = await subscribers.erase(who, id, { id: sid });
    if (!erased.ok) return refused(res, who, erased.refusal, NO_SUBSCRIBER);
    res.redirect(303, `${subscribersPath(id)}?erased=1`);
  });
}
