/**
 * Reading the line: pages, exports and the status page. Each answer is read in one snapshot, so
 * the waitlist's settings and the rows they rank come from the same committed state.
 */
import type { ListPage, PageQuery, StatusView } from '../domain/records.js';
import type { Store } from '../store/store.js';

/** A page of a live waitlist, or undefined when it is missing or archived. */
export function listPage(store: Store, waitlistId: string, query: PageQuery): Promise<ListPage | undefined> {
  return store.read(async (tx) => {
    const waitlist = await tx.waitlists.get(waitlistId);
    if (!waitlist || waitlist.archived) return undefined;
    return tx.subscribers.list(waitlist.id, waitlist.settings, query);
  });
}

/** Every page of a waitlist in position order, from one snapshot: an export that does not tear. */
export function eachPage(
  store: Store,
  waitlistId: string,
  q: string,
  onPage: (items: ListPage['items']) => void,
): Promise<void> {
  return store.read(async (tx) => {
    const waitlist = await tx.waitlists.get(waitlistId);
    if (!waitlist) return;
    for (let page = 1; ; page++) {
      const chunk = await tx.subscribers.list(waitlist.id, waitlist.settings, {
        page,
        limit: 1000,
        q,
        status: 'waiting',
      });
      onPage(chunk.items);
      if (chunk.items.length < 1000) return;
    }
  });
}

/** The status page of a token: undefined (a 404 page) for an unknown token, an archived waitlist or referrals off. */
export async function statusView(store: Store, token: string): Promise<StatusView | undefined> {
  const found = await store.read((tx) => tx.subscribers.byStatusToken(token));
  return found && !found.archived && found.settings.referrals ? found : undefined;
}
