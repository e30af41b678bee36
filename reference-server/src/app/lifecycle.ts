/**
 * Letting people in and erasing them (docs/subscribers.md#lifecycle), for every door: the API with a key, the
 * command line and the dashboard as an operator. Each runs inside the caller's write, beside the
 * caller's own checks, and leaves its activity entry in the same transaction: by ids, never an
 * address.
 */
import type { Clock } from '../adapters/clock.js';
import { newMessageId } from '../domain/ids.js';
import type { Actor, Admission, ListedSubscriber } from '../domain/records.js';
import type { Repositories } from '../store/store.js';

export interface Who {
  tenantId: string;
  actor: Actor;
}

/** Admits on a live waitlist of the tenant; undefined when it is missing, archived or another tenant's. */
export async function admitIn(
  tx: Repositories,
  clock: Clock,
  who: Who,
  waitlistId: string,
  admission: Admission,
): Promise<ListedSubscriber[] | undefined> {
  const waitlist = await tx.waitlists.get(waitlistId);
  if (!waitlist || waitlist.archived || waitlist.tenant_id !== who.tenantId) return undefined;
  const items = await tx.subscribers.admit(waitlist.id, waitlist.settings, admission, clock.nowMicros());
  for (const s of items) {
    await tx.outbox.add(
      {
        messageId: newMessageId(),
        tenantId: who.tenantId,
        waitlistId: waitlist.id,
        type: 'subscriber.admitted',
        subjectId: s.id,
        data: { ...s, waitlist_id: waitlist.id },
      },
      clock.now(),
    );
  }
  if (items.length > 0) {
    await tx.activity.append(
      {
        tenantId: who.tenantId,
        actor: who.actor,
        action: 'subscriber.admitted',
        details: { waitlist_id: waitlist.id, admitted: items.length, subscriber_ids: items.map((s) => s.id) },
      },
      clock.now(),
    );
  }
  return items;
}

/** Erases a subscriber of a waitlist of the tenant; false when there is no such subscriber there. */
export async function eraseIn(
  tx: Repositories,
  clock: Clock,
  who: Who,
  waitlistId: string,
  id: string,
): Promise<boolean> {
  const waitlist = await tx.waitlists.get(waitlistId);
  if (!waitlist || waitlist.tenant_id !== who.tenantId) return false;
  if (!(await tx.subscribers.erase(waitlist.id, id))) return false;
  await tx.outbox.add(
    {
      messageId: newMessageId(),
      tenantId: who.tenantId,
      waitlistId: waitlist.id,
      type: 'subscriber.deleted',
      subjectId: id,
      data: { id, waitlist_id: waitlist.id },
    },
    clock.now(),
  );
  await tx.activity.append(
    {
      tenantId: who.tenantId,
      actor: who.actor,
      action: 'subscriber.erased',
      subjectId: id,
      details: { waitlist_id: waitlist.id },
    },
    clock.now(),
  );
  return true;
}
