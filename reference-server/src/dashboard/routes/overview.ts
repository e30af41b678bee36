/** The overview of a waitlist: read-only, for admins and members alike. */
import { waitlistOverview } from '../../app/overview.js';
import type { Container } from '../../container.js';
import { problemPage } from '../pages/errors.js';
import { overviewPage } from '../pages/overview.js';
import { NO_WAITLIST } from '../refusals.js';
import { sendPage } from '../respond.js';
import type { Pages } from '../signed-in.js';

export function overviewRoutes(app: Container, pages: Pages): void {
  pages.get('/waitlists/:id/overview', async (req, res, who) => {
    const overview = await waitlistOverview(app, who.tenantId, req.params.id as string);
    if (!overview) return sendPage(res, problemPage(who, 'Not found', NO_WAITLIST), 404);
    sendPage(res, overviewPage(who, overview));
  });
}
