/** Waitlists: list, create, settings, archive, subscribers and their CSV export. */
import { parseListQuery } from '@waitlistkit/protocol';
import type { Response, Router } from 'express';
import { eachPage, listPage } from '../../app/subscribers.js';
import type { Container } from '../../container.js';
import { DomainError } from '../../domain/errors.js';
import type { Waitlist } from '../../domain/records.js';
import { csvRow } from '../csv.js';
import { field, parseName, parseSettingsForm, settingsValues } from '../forms.js';
import { problemPage } from '../pages/errors.js';
import { archivePage, subscribersPage, waitlistPage, waitlistsPage } from '../pages/waitlists.js';
import { sendPage, who } from '../respond.js';

export function waitlistRoutes(app: Container, router: Router): void {
  const { operators } = app;

  const snippet = (waitlist: Waitlist) =>
    `<script src="${app.config.baseUrl}/widget/waitlist.js" data-waitlist-id="${waitlist.id}" data-base-url="${app.config.baseUrl}" async></script>`;

  async function ownWaitlist(res: Response, id: string): Promise<Waitlist | undefined> {
    try {
      return await operators.tenantWaitlist(who(res).operator, id);
    } catch (failure) {
      if (!(failure instanceof DomainError)) throw failure;
      sendPage(
        res,
        problemPage(who(res), 'Not found', 'There is no such waitlist in your organisation.'),
        404,
      );
      return undefined;
    }
  }

  router.get('/waitlists', async (_req, res) => {
    sendPage(res, waitlistsPage(who(res), await operators.listWaitlists(who(res).operator.tenant_id)));
  });

  router.post('/waitlists', async (req, res) => {
    const { name, error } = parseName(req.body, 'waitlist');
    if (!name) {
      const waitlists = await operators.listWaitlists(who(res).operator.tenant_id);
      return sendPage(
        res,
        waitlistsPage(who(res), waitlists, { name: field(req.body, 'name') ?? '', error }),
        400,
      );
    }
    const waitlist = await operators.createWaitlist(who(res).operator.tenant_id, name, {});
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
      await operators.updateWaitlist(waitlist.id, { name, patch: form.patch });
    } catch (failure) {
      if (!(failure instanceof DomainError)) throw failure;
      // A rule across fields (geo allow or deny): shown beside the field it names, and above the form.
      if (failure.field) errors[failure.field] = failure.message;
      return again(400, failure.message);
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
    await operators.updateWaitlist(waitlist.id, { archive: true });
    res.redirect(303, `/dashboard/waitlists/${waitlist.id}`);
  });

  router.get('/waitlists/:id/subscribers', async (req, res) => {
    const waitlist = await ownWaitlist(res, req.params.id as string);
    if (!waitlist) return;
    const parsed = parseListQuery({ page: req.query.page, q: req.query.q, limit: '50' });
    const query = parsed.ok ? parsed.value : { page: 1, limit: 50, q: '', status: 'waiting' as const };
    const result = (await listPage(app.store, waitlist.id, query)) ?? { items: [], total: 0 };
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
    await eachPage(app.store, waitlist.id, q, (items) => {
      for (const s of items)
        res.write(csvRow([s.position ?? '', s.email, s.joined_at, s.referral_code, s.referral_count]));
    });
    res.end();
  });
}
