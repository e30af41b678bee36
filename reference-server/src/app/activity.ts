/** A tenant's activity log, newest first: a filtered page for the dashboard, every entry for the command line. */
import type { ActivityEntry, ActivityFilter } from '../domain/records.js';
import type { Base, Scope } from './guard.js';

export class ActivityLog {
  constructor(private readonly ctx: Base) {}

  list(scope: Scope, filter: ActivityFilter = {}): Promise<ActivityEntry[]> {
    return this.ctx.store.reads.activity.list(scope.tenantId, filter);
  }

  /**
   * Every entry, a page at a time: the log has no size limit. Paged by id, so entries appended
   * meanwhile are not mixed in.
   */
  async *pages(scope: Scope, pageSize = 1000): AsyncIterable<ActivityEntry[]> {
    const filter: ActivityFilter = { limit: pageSize };
    for (;;) {
      const page = await this.list(scope, filter);
      if (page.length > 0) yield page;
      const last = page.at(-1);
      if (page.length < pageSize || !last) return;
      filter.beforeId = last.id;
    }
  }
}
