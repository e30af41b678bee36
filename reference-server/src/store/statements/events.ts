/** The events the statement modules record themselves, as both adapters record them (docs/webhooks.md#the-outbox). */
import { newMessageId } from '../../domain/ids.js';
import type { Credit } from '../../domain/referrals.js';
import type { NewEvent } from '../outbox.js';

/** The subscriber whose sign-up or confirmation an event records. */
export interface EventSubject {
  tenantId: string;
  waitlistId: string;
  subscriberId: string;
}

/** `referral.credited`: about the referrer, naming the subscriber who earned the credit. */
export function referralCredited(credit: Credit, of: EventSubject): NewEvent {
  return {
    messageId: newMessageId(),
    tenantId: of.tenantId,
    waitlistId: of.waitlistId,
    type: 'referral.credited',
    subjectId: credit.referrerId,
    data: { subscriber_id: of.subscriberId },
  };
}

export function subscriberConfirmed(of: EventSubject): NewEvent {
  return {
    messageId: newMessageId(),
    tenantId: of.tenantId,
    waitlistId: of.waitlistId,
    type: 'subscriber.confirmed',
    subjectId: of.subscriberId,
  };
}
