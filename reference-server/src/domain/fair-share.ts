/**
 * How the outbox's slots (its attempts under way at once) are shared, so that one tenant's slow
 * endpoints cannot hold them all (docs/webhooks.md#the-outbox). A group is a tenant's webhooks, or all
 * confirmation mail. Two rules, both over what this worker holds now:
 *
 * - a ceiling: while n groups have work (due, or under way), none holds more than
 *   total / (n + 1) slots, so a group that has none yet always finds one free at once rather than
 *   after the others' attempts end (up to their 15 s timeout); a lone group gets half;
 * - the free slots go one at a time to the group holding the fewest, and between groups holding
 *   as many, to the one whose next delivery has waited longest: a round-robin across tenants,
 *   oldest first within each.
 *
 * Pure: the caller says which deliveries are due (at most what each endpoint may still take) and
 * what each group holds.
 */

/**
 * Live webhook endpoints a tenant may have: each may hold a few slots and adds a few due
 * deliveries to every claim's reading, so a tenant's demand on the outbox stays bounded.
 */
export const ENDPOINTS_PER_TENANT = 20;

/** A due delivery and the group whose share it counts against. */
export interface Candidate {
  id: string;
  group: string;
}

/** The most slots one group may hold while `active` groups have work: room is left for one more. */
export function ceilingOf(total: number, active: number): number {
  return Math.max(1, Math.floor(total / (active + 1)));
}

/**
 * Which of the `due` deliveries (oldest first) to start now, in the order chosen, given the slots
 * each group `held` and `total` slots in all.
 */
export function shareSlots(
  due: readonly Candidate[],
  held: ReadonlyMap<string, number>,
  total: number,
): string[] {
  // Each group's due deliveries, oldest first, with their place in the whole queue.
  const queues = new Map<string, { id: string; place: number }[]>();
  due.forEach(({ id, group }, place) => {
    const queue = queues.get(group);
    if (queue) queue.push({ id, place });
    else queues.set(group, [{ id, place }]);
  });
  const holding = new Map([...held].filter(([, n]) => n > 0));
  let free = total - [...holding.values()].reduce((sum, n) => sum + n, 0);
  const ceiling = ceilingOf(total, new Set([...holding.keys(), ...queues.keys()]).size);

  const chosen: string[] = [];
  while (free > 0) {
    let next: { group: string; holds: number; head: { id: string; place: number } } | undefined;
    for (const [group, queue] of queues) {
      const head = queue[0];
      const holds = holding.get(group) ?? 0;
      if (!head || holds >= ceiling) continue;
      if (!next || holds < next.holds || (holds === next.holds && head.place < next.head.place))
        next = { group, holds, head };
    }
    if (!next) break;
    queues.get(next.group)?.shift();
    chosen.push(next.head.id);
    holding.set(next.group, next.holds + 1);
    free--;
  }
  return chosen;
}
