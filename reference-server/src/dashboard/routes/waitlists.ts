/** Waitlists: list, create, settings, archive. Their subscribers are routes/subscribers.ts. */
import type { Response, Router } from 'express';
import type { Container } from '../../container.js';
import { DomainError, storeUnavailable } from '../../domain/errors.js';
import type { Waitlist } from '../../domain/records.js';
import { field, parseName, parseSettingsForm, settingsValues } from '../forms.js';
import { archivePage, waitlistPage, waitlistsPage } from '../pages/waitlists.js';
import { ownWaitlist as own } from '../refusals.js';
import { sendPage, who } from '../respond.js';

export function waitlistRoutes(app: Container, router: Router): void {
  const { operators } = app;

  const snippet = (waitlist: Waitlist) =>
    `<script src="${app.config.baseUrl}/widget/waitlist.js" data-waitlist-id="${waitlist.id}" data-base-url="${app.config.baseUrl}" async></script>`;

  const ownWaitlist = (res: Response, id: string) => own(app, res, id);

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
        mailWaits: !app.config.sendsMail,
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
      if (!(failure instanceof DomainError) || storeUnavailable(failure)) throw failure;
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
}
