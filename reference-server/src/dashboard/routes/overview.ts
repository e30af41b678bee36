/** The overview of a waitlist: read-only, for admins and members alike. */
import type { Router } from 'express';
import { waitlistOverview } from '../../app/overview.js';
import type { Container } from '../../container.js';
import { problemPage } from '../pages/errors.js';
import { overviewPage } from '../pages/overview.js';
import { sendPage, who } from '../respond.js';

export function overviewRoutes(app: Container, router: Router): void {
  router.get('/waitlists/:id/overview', async (req, res) => {
    const overview = await waitlistOverview(app, who(res).operator.tenant_id, req.params.id as string);
    if (!overview) {
      const message = 'There is no such waitlist in your organisation.';
      return sendPage(res, problemPage(who(res), 'Not found', message), 404);
    }
    sendPage(res, overviewPage(who(res), overview));
  });
}
