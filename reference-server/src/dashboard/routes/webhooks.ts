/**
 * Webhook endpoints (docs/webhooks.md#endpoints): list, create (the signing secret shown once), delete, and an
 * endpoint's deliveries with "send again". Who may do what is the app's rule (`create`, `delete`
 * and `resend` refuse members; any operator of the tenant may look); this door turns its answers
 * into redirects and pages.
 */
import type { Request, Response } from 'express';
import { holdReveal, takeReveal } from '../../app/reveals.js';
import type { Container } from '../../container.js';
import { type FieldErrors, type WebhookForm, webhookForm } from '../forms.js';
import type { SignedIn } from '../pages/shell.js';
import {
  webhookCreatedPage,
  webhookGonePage,
  webhookPage,
  webhookPath,
  webhooksPage,
} from '../pages/webhooks.js';
import { NO_WAITLIST, refused } from '../refusals.js';
import { sendPage } from '../respond.js';
import type { Pages } from '../signed-in.js';

const NO_ENDPOINT = 'There is no such webhook endpoint in your organisation.';
const EMPTY_FORM: WebhookForm = { url: '', events: [], waitlist: '' };

/** The notice a redirect asked for; only these, so a link cannot make the page say anything else. */
function noticeOf(query: Request['query']): string | undefined {
  if (query.deleted === '1') return 'Endpoint deleted: nothing more is sent to it.';
  if (query.resent === '1') return 'Sent again: the delivery is pending until its next attempt.';
  return undefined;
}

export function webhookRoutes(app: Container, pages: Pages): void {
  const { webhooks, waitlists } = app;

  async function renderList(
    req: Request,
    res: Response,
    who: SignedIn,
    form: WebhookForm = EMPTY_FORM,
    errors: FieldErrors = {},
  ) {
    const [endpoints, listed] = await Promise.all([webhooks.list(who), waitlists.list(who)]);
    const view = { endpoints, waitlists: listed, form, errors, notice: noticeOf(req.query) };
    sendPage(res, webhooksPage(who, view), Object.keys(errors).length > 0 ? 400 : 200);
  }

  pages.get('/webhooks', (req, res, who) => renderList(req, res, who));

  pages.post('/webhooks', async (req, res, who) => {
    const form = webhookForm(req.body);
    const created = await webhooks.create(who, {
      url: form.url.trim(),
      events: form.events,
      waitlistId: form.waitlist === '' ? undefined : form.waitlist,
    });
    if (created.ok) {
      const { endpoint, secret } = created.value;
      const reveal = await holdReveal(app, who.operator.id, endpoint.id, secret);
      return res.redirect(303, `/dashboard/webhooks/created/${reveal}`);
    }
    const { refusal } = created;
    // The app's reason for a bad URL or event goes beside that field; a blank URL gets plainer
    // words than the app's "is not a URL".
    if (refusal.code === 'invalid_request' && refusal.field) {
      const blank = refusal.field === 'url' && form.url.trim() === '';
      const message = blank ? 'Enter the URL to send events to.' : refusal.message;
      return renderList(req, res, who, form, { [refusal.field]: message });
    }
    refused(res, who, refusal, NO_WAITLIST);
  });

  pages.get('/webhooks/created/:reveal', async (req, res, who) => {
    const shown = await takeReveal(app, who.operator.id, req.params.reveal as string);
    // Among the tenant's live endpoints: another tenant's, or one deleted since, is gone too.
    const endpoint = shown && (await webhooks.list(who)).find((e) => e.id === shown.id);
    if (!shown || !endpoint) return sendPage(res, webhookGonePage(who), 410);
    sendPage(res, webhookCreatedPage(who, endpoint, shown.secret));
  });

  pages.get('/webhooks/:id', async (req, res, who) => {
    const [found, listed] = await Promise.all([
      webhooks.deliveries(who, req.params.id as string),
      waitlists.list(who),
    ]);
    if (!found.ok) return refused(res, who, found.refusal, NO_ENDPOINT);
    sendPage(res, webhookPage(who, { ...found.value, waitlists: listed, notice: noticeOf(req.query) }));
  });

  pages.post('/webhooks/:id/delete', async (req, res, who) => {
    const deleted = await webhooks.delete(who, req.params.id as string);
    if (!deleted.ok) return refused(res, who, deleted.refusal, NO_ENDPOINT);
    res.redirect(303, '/dashboard/webhooks?deleted=1');
  });

  pages.post('/webhooks/:id/deliveries/:delivery/resend', async (req, res, who) => {
    const resent = await webhooks.resend(who, req.params.delivery as string);
    if (!resent.ok)
      return refused(res, who, resent.refusal, 'There is no such delivery in your organisation.');
    // The delivery's own endpoint, whatever the address said.
    const endpointId = resent.value?.endpoint_id ?? (req.params.id as string);
    res.redirect(303, `${webhookPath(encodeURIComponent(endpointId))}?resent=1`);
  });
}
