/** Waitlists: list, create, settings, archive. Their subscribers are routes/subscribers.ts. */
import type { Container } from '../../container.js';
import type { Waitlist } from '../../domain/records.js';
import { parseFieldsForm } from '../field-editor.js';
import { field, parseName, parseSettingsForm, settingsValues } from '../forms.js';
import { archivePage, waitlistPage, waitlistsPage } from '../pages/waitlists.js';
import { NO_WAITLIST, ownWaitlist, refused } from '../refusals.js';
import { sendPage } from '../respond.js';
import type { Pages } from '../signed-in.js';

export function waitlistRoutes(app: Container, pages: Pages): void {
  const { waitlists } = app;

  const snippet = (waitlist: Waitlist) =>
    `<script src="${app.config.baseUrl}/widget/waitlist.js" data-waitlist-id="${waitlist.id}" data-base-url="${app.config.baseUrl}" async></script>`;

  pages.get('/waitlists', async (_req, res, who) => {
    sendPage(res, waitlistsPage(who, await waitlists.list(who)));
  });

  pages.post('/waitlists', async (req, res, who) => {
    const { name, error } = parseName(req.body, 'waitlist');
    if (!name) {
      const form = { name: field(req.body, 'name') ?? '', error };
      return sendPage(res, waitlistsPage(who, await waitlists.list(who), form), 400);
    }
    const waitlist = await waitlists.create(who, name, {});
    if (!waitlist.ok) return refused(res, who, waitlist.refusal);
    res.redirect(303, `/dashboard/waitlists/${waitlist.value.id}`);
  });

  pages.get('/waitlists/:id', async (req, res, who) => {
    const waitlist = await ownWaitlist(app, res, who, req.params.id as string);
    if (!waitlist) return;
    sendPage(
      res,
      waitlistPage(who, {
        waitlist,
        snippet: snippet(waitlist),
        values: settingsValues(waitlist.settings),
        errors: {},
        saved: req.query.saved === '1',
        fieldsSaved: req.query.saved === 'fields',
        mailWaits: !app.config.sendsMail,
      }),
    );
  });

  pages.post('/waitlists/:id', async (req, res, who) => {
    const waitlist = await ownWaitlist(app, res, who, req.params.id as string);
    if (!waitlist) return;
    const form = parseSettingsForm(req.body);
    const { name, error } = parseName(req.body, 'waitlist');
    const errors = error ? { ...form.errors, name: error } : form.errors;
    const values = { ...form.values, name: field(req.body, 'name') ?? '' };
    const again = (status: number, formError?: string) =>
      sendPage(
        res,
        waitlistPage(who, { waitlist, snippet: snippet(waitlist), values, errors, formError }),
        status,
      );
    if (Object.keys(errors).length > 0) return again(400);
    const saved = await waitlists.update(who, waitlist.id, { name, patch: form.patch });
    if (!saved.ok) {
      // A rule across fields (geo allow or deny): shown beside the field it names, and above the form.
      const { field: named, message } = saved.refusal;
      if (named) errors[named] = message;
      return again(400, message);
    }
    res.redirect(303, `/dashboard/waitlists/${waitlist.id}?saved=1`);
  });

  pages.post('/waitlists/:id/fields', async (req, res, who) => {
    const waitlist = await ownWaitlist(app, res, who, req.params.id as string);
    if (!waitlist) return;
    const form = parseFieldsForm(req.body);
    const page = (fieldsError: string) =>
      waitlistPage(who, {
        waitlist,
        snippet: snippet(waitlist),
        values: settingsValues(waitlist.settings),
        errors: {},
        fieldRows: form.rows,
        fieldsError,
      });
    if (!form.fields) return sendPage(res, page(form.error ?? 'The fields are not valid.'), 400);
    const saved = await waitlists.update(who, waitlist.id, { patch: { fields: form.fields } });
    if (!saved.ok) return sendPage(res, page(saved.refusal.message), 400);
    res.redirect(303, `/dashboard/waitlists/${waitlist.id}?saved=fields#fields-heading`);
  });

  pages.get('/waitlists/:id/archive', async (req, res, who) => {
    const waitlist = await ownWaitlist(app, res, who, req.params.id as string);
    if (waitlist) sendPage(res, archivePage(who, waitlist));
  });

  pages.post('/waitlists/:id/archive', async (req, res, who) => {
    const archived = await waitlists.update(who, req.params.id as string, { archive: true });
    if (!archived.ok) return refused(res, who, archived.refusal, NO_WAITLIST);
    res.redirect(303, `/dashboard/waitlists/${archived.value.id}`);
  });
}
