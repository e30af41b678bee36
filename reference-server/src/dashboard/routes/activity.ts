/** The activity log, fifty entries a page, filtered by actor and kind of action. */
import type { Container } from '../../container.js';
import type { ActivityFilter } from '../../domain/records.js';
import { type ActivityFilterForm, activityPage } from '../pages/activity.js';
import { sendPage } from '../respond.js';
import type { Pages } from '../signed-in.js';

const ACTIVITY_PAGE = 50;

export function activityRoutes(app: Container, pages: Pages): void {
  pages.get('/activity', async (req, res, who) => {
    const form: ActivityFilterForm = {
      actor: req.query.actor === 'operator' || req.query.actor === 'key' ? req.query.actor : '',
      action: req.query.action === 'key' || req.query.action === 'subscriber' ? req.query.action : '',
    };
    const before =
      typeof req.query.before === 'string' && /^\d{1,15}$/.test(req.query.before)
        ? Number(req.query.before)
        : undefined;
    const filter: ActivityFilter = { limit: ACTIVITY_PAGE + 1 };
    if (form.actor) filter.actorType = form.actor;
    if (form.action) filter.actionPrefix = `${form.action}.`;
    if (before !== undefined) filter.beforeId = before;
    const entries = await app.activity.list(who, filter);
    const more = entries.length > ACTIVITY_PAGE;
    const shown = entries.slice(0, ACTIVITY_PAGE);
    sendPage(res, activityPage(who, shown, form, more ? shown[shown.length - 1]?.id : undefined));
  });
}
