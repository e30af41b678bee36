/** API keys: list, create (the value shown once), revoke. The rules are the app's; refusals become pages. */
import { randomBytes } from 'node:crypto';
import type { KeyPreset } from '@waitlistkit/protocol';
import type { Response, Router } from 'express';
import type { Container } from '../../container.js';
import { field, parseName } from '../forms.js';
import { keyCreatedPage, keyGonePage, keysPage, revokePage } from '../pages/keys.js';
import { refused } from '../refusals.js';
import { sendPage, who } from '../respond.js';

export function keyRoutes(app: Container, router: Router): void {
  const { operators, clock } = app;
  // Values of keys just created, shown once on the page the creation redirects to. In memory
  // only: a key's value is never written anywhere.
  const revealOnce = new Map<string, { keyId: string; value: string; until: number }>();

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
      const { key, value } = await operators.createKey(who(res).operator.id, name, preset as KeyPreset);
      const reveal = randomBytes(16).toString('base64url');
      revealOnce.set(reveal, { keyId: key.id, value, until: clock.now() + 10 * 60_000 });
      res.redirect(303, `/dashboard/keys/created/${reveal}`);
    } catch (failure) {
      refused(res, failure);
    }
  });

  router.get('/keys/created/:reveal', async (req, res) => {
    const entry = revealOnce.get(req.params.reveal as string);
    revealOnce.delete(req.params.reveal as string);
    for (const [id, e] of revealOnce) if (e.until < clock.now()) revealOnce.delete(id);
    const key =
      entry && entry.until > clock.now()
        ? await operators.tenantKey(who(res).operator, entry.keyId)
        : undefined;
    if (!entry || !key) return sendPage(res, keyGonePage(who(res)), 410);
    sendPage(res, keyCreatedPage(who(res), key, entry.value));
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
