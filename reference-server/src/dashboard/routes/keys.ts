/** API keys: list, create (the value shown once), revoke. The rules are the app's; refusals become pages. */
import type { Response } from 'express';
import { holdReveal, takeReveal } from '../../app/reveals.js';
import type { Container } from '../../container.js';
import { field, parseName } from '../forms.js';
import { keyCreatedPage, keyGonePage, keysPage, revokePage } from '../pages/keys.js';
import type { SignedIn } from '../pages/shell.js';
import { refused } from '../refusals.js';
import { sendPage } from '../respond.js';
import type { Pages } from '../signed-in.js';

export function keyRoutes(app: Container, pages: Pages): void {
  const { keys } = app;

  async function renderKeys(
    res: Response,
    who: SignedIn,
    form: { name?: string; error?: string } = {},
    status = 200,
  ) {
    const listed = await keys.list(who);
    if (!listed.ok) return refused(res, who, listed.refusal);
    sendPage(res, keysPage(who, listed.value.plan, listed.value.keys, form), status);
  }

  pages.get('/keys', (_req, res, who) => renderKeys(res, who));

  pages.post('/keys', async (req, res, who) => {
    const { name, error } = parseName(req.body, 'key');
    const preset = field(req.body, 'preset');
    if (preset !== 'full' && preset !== 'read-only') {
      const typed = { name: field(req.body, 'name') ?? '', error: 'Choose Full access or Read-only.' };
      return renderKeys(res, who, typed, 400);
    }
    if (!name) return renderKeys(res, who, { name: field(req.body, 'name') ?? '', error }, 400);
    const created = await keys.create(who, name, preset);
    if (!created.ok) return refused(res, who, created.refusal);
    const { key, value } = created.value;
    res.redirect(303, `/dashboard/keys/created/${await holdReveal(app, who.operator.id, key.id, value)}`);
  });

  pages.get('/keys/created/:reveal', async (req, res, who) => {
    const shown = await takeReveal(app, who.operator.id, req.params.reveal as string);
    const key = shown && (await keys.get(who, shown.id));
    if (!shown || !key?.ok) return sendPage(res, keyGonePage(who), 410);
    sendPage(res, keyCreatedPage(who, key.value, shown.secret));
  });

  pages.get('/keys/:id/revoke', async (req, res, who) => {
    const key = await keys.toRevoke(who, req.params.id as string);
    if (!key.ok) return refused(res, who, key.refusal, 'There is no such key in your organisation.');
    sendPage(res, revokePage(who, key.value));
  });

  pages.post('/keys/:id/revoke', async (req, res, who) => {
    const revoked = await keys.revoke(who, req.params.id as string);
    if (!revoked.ok) return refused(res, who, revoked.refusal);
    res.redirect(303, '/dashboard/keys');
  });
}
