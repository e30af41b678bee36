/**
 * The write of a signup, shared by both create endpoints: one committer job that creates or
 * matches the subscriber and, for the customer API, re-checks the key inside the transaction
 * (a key revoked while the request was in flight writes nothing) and appends the activity entry.
 */
import { type AcceptedSignup, planAllowsApi } from '@waitlistkit/protocol';
import type { GroupJob } from '../db/committer.js';
import type { WaitlistSettings } from '../domain/settings.js';
import { appendActivity } from '../store/activity.js';
import { getGrant } from '../store/keys.js';
import {
  type FreshSignup,
  insertOrMatchMany,
  insertOrMatchSubscriber,
  type SignupResult,
  type SignupRow,
} from '../store/subscribers.js';
import type { Clock } from './clock.js';
import type { Database } from './database.js';

export interface KeyActor {
  keyId: string;
  keyName: string;
  tenantId: string;
}

export interface SignupRequest {
  waitlistId: string;
  email: string;
  emailNorm: string;
  referralCode: string | undefined;
  actor?: KeyActor;
}

export type SignupCommit =
  | { outcome: 'created' | 'matched'; subscriber: SignupRow }
  | { outcome: 'waitlist_gone' | 'key_revoked' | 'plan_lost' };

/** One group job per clock (in practice, per server), so concurrent fresh sign-ups share it. */
const freshGroups = new WeakMap<Clock, GroupJob<FreshSignup, SignupResult>>();

function freshGroup(clock: Clock): GroupJob<FreshSignup, SignupResult> {
  let run = freshGroups.get(clock);
  if (!run) {
    run = (tx, inputs) => insertOrMatchMany(tx, inputs, clock.nowMicros());
    freshGroups.set(clock, run);
  }
  return run;
}

export async function commitSignup(
  db: Database,
  clock: Clock,
  request: SignupRequest,
): Promise<SignupCommit> {
  if (request.actor === undefined && request.referralCode === undefined) {
    // The common public sign-up: written together with every other one waiting for the writer.
    const result = await db.writer.joinGroup(freshGroup(clock), request);
    return result.outcome === 'waitlist_gone'
      ? result
      : { outcome: result.outcome, subscriber: result.subscriber };
  }
  return db.writer.submit(async (tx): Promise<SignupCommit> => {
    const { actor } = request;
    if (actor) {
      const grant = await getGrant(tx, actor.keyId);
      if (grant?.state !== 'active') return { outcome: 'key_revoked' };
      if (!planAllowsApi(grant.plan)) return { outcome: 'plan_lost' };
    }
    const result = await insertOrMatchSubscriber(
      tx,
      {
        waitlistId: request.waitlistId,
        email: request.email,
        emailNorm: request.emailNorm,
        referralCode: request.referralCode,
      },
      clock.nowMicros(),
    );
    if (result.outcome === 'waitlist_gone') return result;
    if (actor) {
      await appendActivity(
        tx,
        {
          tenantId: actor.tenantId,
          actor: { type: 'key', id: actor.keyId, name: actor.keyName },
          action: result.outcome === 'created' ? 'subscriber.created' : 'subscriber.matched',
          subjectId: result.subscriber.id,
          details: { waitlist_id: request.waitlistId, new_subscriber: result.outcome === 'created' },
        },
        clock.now(),
      );
    }
    return { outcome: result.outcome, subscriber: result.subscriber };
  });
}

export function acceptedBody(
  subscriber: SignupRow,
  settings: WaitlistSettings,
  appUrl: string,
): AcceptedSignup {
  if (!settings.referrals) return { status: 'accepted', status_token: '', referral_code: '', status_url: '' };
  return {
    status: 'accepted',
    status_token: subscriber.status_token,
    referral_code: subscriber.referral_code,
    status_url: `${appUrl}/s/${subscriber.status_token}`,
  };
}
