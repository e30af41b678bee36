/**
 * What a webhook delivery carries (docs/webhooks.md#events): each event's body, built when the
 * outbox makes its deliveries, from the data as recorded or the subject subscriber as it is then.
 */
import type { StoredEvent } from '../store/outbox.js';
import type { Repositories } from '../store/store.js';

/** Events whose data is the subject subscriber as it is when the event goes out. */
const READS_SUBJECT = new Set(['subscriber.created', 'subscriber.confirmed', 'referral.credited']);

/**
 * The bodies of a batch of events, by event seq: the data as recorded, or the subject subscriber
 * as it is now when it was left to read, read for the whole batch at once (one statement and one
 * position count per waitlist). A subscriber erased before the event went out has no body: nothing
 * about them is sent but their deletion.
 */
export async function bodiesOf(
  tx: Repositories,
  events: readonly StoredEvent[],
): Promise<Map<number, string>> {
  const wanted = new Map<string, Set<string>>();
  for (const e of events) {
    if (!READS_SUBJECT.has(e.type)) continue;
    const ids = wanted.get(e.waitlist_id) ?? new Set<string>();
    wanted.set(e.waitlist_id, ids.add(e.subject_id));
  }
  const subjects = new Map<string, object>();
  for (const [waitlistId, ids] of wanted) {
    const waitlist = await tx.waitlists.get(waitlistId);
    if (!waitlist) continue;
    for (const s of await tx.subscribers.byIds(waitlistId, waitlist.settings, [...ids]))
      subjects.set(s.id, { ...s, waitlist_id: waitlistId });
  }
  const bodies = new Map<number, string>();
  for (const event of events) {
    const subject = subjects.get(event.subject_id);
    let data: unknown;
    if (event.type === 'referral.credited') {
      const recorded = JSON.parse(event.data ?? '{}') as { subscriber_id?: string };
      data = subject && { referrer: subject, subscriber_id: recorded.subscriber_id };
    } else if (READS_SUBJECT.has(event.type)) data = subject;
    else
      data =
        event.data === null
          ? { id: event.subject_id, waitlist_id: event.waitlist_id }
          : JSON.parse(event.data);
    if (data !== undefined)
      bodies.set(
        event.seq,
        JSON.stringify({ type: event.type, timestamp: new Date(event.at).toISOString(), data }),
      );
  }
  return bodies;
}
