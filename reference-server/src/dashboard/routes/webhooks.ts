/**
 * Webhook endpoints (contract §14): list, create (the signing secret shown once), delete, and an
 * endpoint's deliveries with "send again". Who may do what is the app's rule (`createWebhook`,
 * `deleteWebhook` and `resend` refuse members; any operator of the tenant may look); this door
 * turns its answers into redirects and pages.
 */
import type { Request, Response, Router } from 'express';
import { holdReveal, takeReveal } from '../../app/reveals.js';
import type { Container } from '../../container.js';
import { DomainError } from '../../domain/errors.js';
import { type FieldErrors, type WebhookForm, webhookForm } from '../forms.js';
import {
  webhookCreatedPage,
  webhookGonePage,
  webhookPage,
  webhookPath,
  webhooksPage,
} from '../pages/webhooks.js';
import { refused } from '../refusals.js';
import { sendPage, who } from '../respond.js';

const NO_ENDPOINT = 'There is no such webhook endpoint in your organisation.';
const EMPTY_FORM: WebhookForm = { url: '', events: [], waitlist: '' };

/** The notice a redirect asked for; only these, so a link cannot make the page say anything else. */
function noticeOf(query: Request['query']): string | undefined {
  if (query.deleted === '1') return 'Endpoint deleted: nothing more is sent to it.';
  if (query.resent === '1') return 'Sent again: the delivery is pending until its next attempt.';
  return undefined;
}

export function webhookRoutes(app: Container, router: Router): void {
  const { operators } = app;
  const waitlistsOf = (res: Response) => operators.listWaitlists(who(res).operator.tenant_id);

  async function renderList(
    req: Request,
    res: Response,
    form: WebhookForm = EMPTY_FORM,
    errors: FieldErrors = {},
  ) {
    const [endpoints, waitlists] = await Promise.all([
      operators.listWebhooks(who(res).operator.tenant_id),
      waitlistsOf(res),
    ]);
    const notice = noticeOf(req.query);
    const status = Object.keys(errors).length > 0 ? 400 : 200;
    sendPage(res, webhooksPage(who(res), { endpoints, waitlists, form, errors, notice }), status);
  }

  router.get('/webhooks', (req, res) => renderList(req, res));

  router.post('/webhooks', async (req, res) => {
    const form = webhookForm(req.body);
    try {
      const { operator } = who(res);
      const { endpoint, secret } = await operators.createWebhook(operator.id, {
        url: form.url.trim(),
        events: form.events,
        waitlistId: form.waitlist === '' ? undefined : form.waitlist,
      });
      const reveal = await holdReveal(app, operator.id, endpoint.id, secret);
      res.redirect(303, `/dashboard/webhooks/created/${reveal}`);
    } catch (failure) {
      // The app's reason for a bad URL or event goes beside that field; a blank URL gets plainer
      // words than the app's "is not a URL".
      if (failure instanceof DomainError && failure.code === 'invalid_request' && failure.field) {
        const message =
          failure.field === 'url' && form.url.trim() === ''
            ? 'Enter the URL to send events to.'
            : failure.message;
        return renderList(req, res, form, { [failure.field]: message });
      }
      refused(res, failure, 'There is no such waitlist in your organisation.');
    }
  });

  router.get('/webhooks/created/:reveal', async (req, res) => {
    const shown = await takeReveal(app, who(res).operator.id, req.params.reveal as string);
    // Among the tenant's live endpoints: another tenant's, or one deleted since, is gone too.
    const endpoint =
      shown && (await operators.listWebhooks(who(res).operator.tenant_id)).find((e) => e.id === shown.id);
    if (!shown || !endpoint) return sendPage(res, webhookGonePage(who(res)), 410);
    sendPage(res, webhookCreatedPage(who(res), endpoint, shown.secret));
  });

  router.get('/webhooks/:id', async (req, res) => {
    try {
      const endpoint = await operators.tenantWebhook(who(res).operator, req.params.id as string);
      const [deliveries, waitlists] = await Promise.all([
        operators.deliveries(endpoint.id, undefined),
        waitlistsOf(res),
      ]);
      sendPage(res, webhookPage(who(res), { endpoint, waitlists, deliveries, notice: noticeOf(req.query) }));
    } catch (failure) {
      refused(res, failure, NO_ENDPOINT);
    }
  });

  router.post('/webhooks/:id/delete', async (req, res) => {
    try {
      await operators.deleteWebhook(who(res).operator.id, req.params.id as string);
      res.redirect(303, '/dashboard/webhooks?deleted=1');
    } catch (failure) {
      refused(res, failure, NO_ENDPOINT);
    }
  });

  router.post('/webhooks/:id/deliveries/:delivery/resend', async (req, res) => {
    try {
      const delivery = await operators.resend(who(res).operator.id, req.params.delivery as string);
      // The delivery's own endpoint, whatever the address said.
      const endpointId = delivery?.endpoint_id ?? (req.params.id as string);
      res.redirect(303, `${webhookPath(encodeURIComponent(endpointId))}?resent=1`);
    } catch (failure) {
      refused(res, failure, 'There is no such delivery in your organisation.');
    }
  });
}
