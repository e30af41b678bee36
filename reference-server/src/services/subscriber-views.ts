/**
 * Answers about subscribers that take several statements, each read in one snapshot: the
 * waitlist's settings are read in the same transaction as the rows they rank, so a settings
 * change committed meanwhile is either wholly in the answer or not at all.
 */
import { findByStatusToken, type ListPageResult, listSubscribers } from '../store/subscribers.js';
import { getWaitlist } from '../store/waitlists.js';
import type { Database } from './database.js';

export interface PageQuery {
  page: number;
  limit: number;
  q: string;
}

/** A page of a live waitlist, or undefined when it is missing or archived. */
export function listPage(
  db: Database,
  waitlistId: string,
  query: PageQuery,
): Promise<ListPageResult | undefined> {
  return db.snapshot(async (tx) => {
    const waitlist = await getWaitlist(tx, waitlistId);
    if (!waitlist || waitlist.archived) return undefined;
    return listSubscribers(tx, waitlist.id, waitlist.settings, query);
  });
}

/** Every page of a waitlist in position order, from one snapshot: an export that does not tear. */
export function eachPage(
  db: Database,
  waitlistId: string,
  q: string,
  onPage: (items: ListPageResult['items']) => void,
): Promise<void> {
  return db.snapshot(async (tx) => {
    const waitlist = await getWaitlist(tx, waitlistId);
    if (!waitlist) return;
    for (let page = 1; ; page++) {
      const chunk = await listSubscribers(tx, waitlist.id, waitlist.settings, { page, limit: 1000, q });
      onPage(chunk.items);
      if (chunk.items.length < 1000) return;
    }
  });
}

export function statusView(db: Database, token: string) {
  return db.snapshot((tx) => findByStatusToken(tx, token));
}
