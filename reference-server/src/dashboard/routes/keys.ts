/** API keys: list, create (the value shown once), revoke. The rules are the app's; refusals become pages. */
import type { KeyPreset } from '@waitlistkit/protocol';
import type { Response, Router } from 'express';
import { holdReveal, takeReveal } from '../../app/reveals.js';
import type { Container } from '../../container.js';
import { field, parseName } from '../forms.js';
import { keyCreatedPage, keyGonePage, keysPage, revokePage } from '../pages/keys.js';
import { refused } from '../refusals.js';
import { sendPage, who } from '../respond.js';

export function keyRoutes(app: Container, router: Router): void {
  const { operators } = app;

  async function renderKeys(res: Response, form: { name?: string; error?: string } = {}, status = 200) {
    const { operator } = who(res);
    const [plan, keys] = await Promise.all([
      operators.plan(operator.tenant_id),
      operators.listKeys(operator.tenant_id),
    ]);
    sendPage(res, keysPage(who(res), plan, keys, form), status);
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
      const { operator } = who(res);
      const { key, value } = await operators.createKey(operator.id, name, preset as KeyPreset);
      res.redirect(303, `/dashboard/keys/created/${await holdReveal(app, operator.id, key.id, value)}`);
    } catch (failure) {
      refused(res, failure);
    }
  });

  router.get('/keys/created/:reveal', async (req, res) => {
    const shown = await takeReveal(app, who(res).operator.id, req.params.reveal as string);
    const key = shown && (await operators.tenantKey(who(res).operator, shown.id));
    if (!shown || !key) return sendPage(res, keyGonePage(who(res)), 410);
    sendPage(res, keyCreatedPage(who(res), key, shown.secret));
  });

  router.get('/keys/:id/revoke', async (req, res) => {
    try {
      sendPage(
        res,
        revokePage(who(res), await operators.keyToRevoke(who(res).operator, req.params.id as string)),
      );
    } catch (failure) {
      refused(res, failure, 'There is no such key in your organisation.');
    }
  });

  router.post('/keys/:id/revoke', async (req, res) => {
    try {
      await operators.revokeKey(who(res).operator.id, req.params.id as string);
      res.redirect(303, '/dashboard/keys');
    } catch (failure) {
      refused(res, failure);
    }
  });
}
