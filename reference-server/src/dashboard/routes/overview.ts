/**
 * The overview of a waitlist, the launch's cockpit: read-only, for admins and members alike.
 * `from` and `to` are the stats endpoint's (docs/insights.md#stats); a range it refuses is shown
 * as its reason at the form, over the default range, with a 400.
 */
import { waitlistOverview } from '../../app/overview.js';
import type { Container } from '../../container.js';
import { overviewPage } from '../pages/overview.js';
import { NO_WAITLIST, refused } from '../refusals.js';
import { sendPage } from '../respond.js';
import type { Pages } from '../signed-in.js';

/** A query parameter as text: absent or empty is not given; repeated (`?from=a&from=b`) is text the range refuses. */
const param = (value: unknown) => (value === undefined || value === '' ? undefined : String(value));

export function overviewRoutes(app: Container, pages: Pages): void {
  pages.get('/waitlists/:id/overview', async (req, res, who) => {
    const id = req.params.id as string;
    const today = new Date(app.clock.now()).toISOString().slice(0, 10);
    const asked = { from: param(req.query.from), to: param(req.query.to) };
    const overview = await waitlistOverview(app, who, id, asked);
    if (overview.ok) return sendPage(res, overviewPage(who, overview.value, { today }));
    const { refusal } = overview;
    if (refusal.code !== 'invalid_request') return refused(res, who, refusal, NO_WAITLIST);
    const fallback = await waitlistOverview(app, who, id);
    if (!fallback.ok) return refused(res, who, fallback.refusal, NO_WAITLIST);
    const why = { ...asked, field: refusal.field ?? 'from', message: refusal.message };
    sendPage(res, overviewPage(who, fallback.value, { today, refused: why }), 400);
  });
}
