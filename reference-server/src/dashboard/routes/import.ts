/**
 * Importing a CSV file on the dashboard (docs/moving-a-list.md): the upload page, the check (a
 * dry run of the file as uploaded), and the commit of the same file. Admins only, as the app
 * decides; a member sees why not.
 */
import { createReadStream, existsSync, rmSync } from 'node:fs';
import type { Request, Router } from 'express';
import { importList } from '../../app/import.js';
import type { Container } from '../../container.js';
import { field } from '../forms.js';
import { checkedPage, importPage } from '../pages/import.js';
import { subscribersPath } from '../pages/subscribers.js';
import { ownWaitlist, refused } from '../refusals.js';
import { sendPage } from '../respond.js';
import type { Pages } from '../signed-in.js';
import { receiveUpload, UPLOAD_MAX_BYTES, uploadOf, uploadPath } from '../upload.js';

export function importRoutes(app: Container, pages: Pages, router: Router): void {
  const base = { store: app.store, clock: app.clock };
  const id = (req: Request) => req.params.id as string;
  // The file is read before the session guard, which finds the form's CSRF token among its fields.
  router.post('/waitlists/:id/import', receiveUpload(app));

  pages.get('/waitlists/:id/import', async (req, res, who) => {
    const waitlist = await ownWaitlist(app, res, who, id(req));
    if (waitlist) sendPage(res, importPage(who, waitlist));
  });

  pages.post('/waitlists/:id/import', async (req, res, who) => {
    const waitlist = await ownWaitlist(app, res, who, id(req));
    const upload = uploadOf(req);
    if (!waitlist) return;
    if (!upload || upload.bytes === 0) {
      const error = upload?.tooLarge
        ? `The file is larger than ${UPLOAD_MAX_BYTES / 1024 / 1024} MB: import it with the command line (subscriber import).`
        : 'Choose a CSV file to import.';
      return sendPage(res, importPage(who, waitlist, error), upload?.tooLarge ? 413 : 400);
    }
    const path = uploadPath(upload.token) as string;
    const checked = await importList(base, who, {
      waitlistId: waitlist.id,
      file: createReadStream(path),
      dryRun: true,
      skipInvalid: true,
      sendEvents: false,
    });
    if (!checked.ok) {
      rmSync(path, { force: true });
      if (checked.refusal.code !== 'invalid_request') return refused(res, who, checked.refusal);
      return sendPage(res, importPage(who, waitlist, checked.refusal.message), 400);
    }
    sendPage(res, checkedPage(who, waitlist, upload.token, checked.value));
  });

  pages.post('/waitlists/:id/import/commit', async (req, res, who) => {
    const waitlist = await ownWaitlist(app, res, who, id(req));
    if (!waitlist) return;
    const path = uploadPath(field(req.body, 'upload') ?? '');
    if (path === undefined || !existsSync(path)) {
      const gone =
        'This upload is gone (uploads are kept an hour, on the server that received them): upload the file again.';
      return sendPage(res, importPage(who, waitlist, gone), 400);
    }
    const done = await importList(base, who, {
      waitlistId: waitlist.id,
      file: createReadStream(path),
      dryRun: false,
      skipInvalid: field(req.body, 'skip_invalid') === 'on',
      sendEvents: false,
    });
    if (!done.ok) {
      if (done.refusal.code === 'forbidden') rmSync(path, { force: true });
      if (done.refusal.code !== 'invalid_request') return refused(res, who, done.refusal);
      return sendPage(res, importPage(who, waitlist, done.refusal.message), 400);
    }
    rmSync(path, { force: true });
    res.redirect(303, `${subscribersPath(waitlist.id)}?imported=${done.value.imported}`);
  });
}
