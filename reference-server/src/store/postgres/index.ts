/**
 * The PostgreSQL adapter of the store (`../store.ts`): several `serve` processes on one database
 * act as one server. Every write is a transaction on a pooled connection (database.ts), single
 * reads go to any pooled connection, snapshots are REPEATABLE READ transactions. The statement
 * modules beside this file mirror the SQLite adapter's, one per aggregate; where SQLite relies
 * on its single writer, they say what takes its place.
 */
import type { FreshSignupResult, Repositories, Store } from '../store.js';
import { appendActivity, listActivity } from './activity.js';
import { confirm, confirmationMail, confirmationView } from './confirmations.js';
import type { Connection } from './connection.js';
import { openDatabase } from './database.js';
import { claim, complete, forgetExpiredAnswers, release } from './idempotency.js';
import { findKeyByHash, getGrant, getKey, insertKey, listKeys, revokeKey, touchKey } from './keys.js';
import { admit, erase } from './lifecycle.js';
import { findByStatusToken, getSubscriber, idByEmail, listSubscribers, subscribersByIds } from './line.js';
import { getMeta, putMetaOnce } from './meta.js';
import { findOperatorByEmail, getOperator, insertOperator, updatePasswordHash } from './operators.js';
import {
  addEvent,
  claimDeliveries,
  createDeliveries,
  deliveryEndpoint,
  listDeliveries,
  pendingEvents,
  recordAttempt,
  resendDelivery,
  waitingMail,
} from './outbox.js';
import { joinedBetween, lineCounts, topReferrers } from './overview.js';
import { deleteExpiredSessions, deleteSession, findSession, insertSession } from './sessions.js';
import { insertOrMatchSubscriber } from './subscribers.js';
import { countTenants, getTenant, insertTenant, updatePlan } from './tenants.js';
import { postgresLimiter } from './throttles.js';
import { forgetExpiredTokens, redeemTokens, usedTokens } from './tokens.js';
import { getWaitlist, insertWaitlist, listWaitlists, saveWaitlist } from './waitlists.js';
import { deleteEndpoint, getEndpoint, insertEndpoint, liveEndpoints } from './webhooks.js';

export function repositories(db: Connection): Repositories {
  return {
    tenants: {
      insert: (name, plan, now) => insertTenant(db, name, plan, now),
      get: (id) => getTenant(db, id),
      setPlan: (id, plan) => updatePlan(db, id, plan),
      count: () => countTenants(db),
    },
    operators: {
      insert: (fields, now) => insertOperator(db, fields, now),
      get: (id) => getOperator(db, id),
      findByEmail: (emailNorm) => findOperatorByEmail(db, emailNorm),
      replacePasswordHash: (id, before, after) => updatePasswordHash(db, id, before, after),
    },
    waitlists: {
      insert: (tenantId, name, settings, now) => insertWaitlist(db, tenantId, name, settings, now),
      get: (id) => getWaitlist(db, id),
      list: (tenantId) => listWaitlists(db, tenantId),
      save: (before, after, now) => saveWaitlist(db, before, after, now),
    },
    keys: {
      insert: (fields, now) => insertKey(db, fields, now),
      get: (id) => getKey(db, id),
      list: (tenantId) => listKeys(db, tenantId),
      revoke: (id, operatorId, now) => revokeKey(db, id, operatorId, now),
      findByHash: (hash) => findKeyByHash(db, hash),
      grant: (id) => getGrant(db, id),
      touch: (id, now) => touchKey(db, id, now),
    },
    subscribers: {
      signUp: (input, nowUs) => insertOrMatchSubscriber(db, input, nowUs),
      list: (waitlistId, settings, query) => listSubscribers(db, waitlistId, settings, query),
      get: (waitlistId, settings, id) => getSubscriber(db, waitlistId, settings, id),
      byIds: (waitlistId, settings, ids) => subscribersByIds(db, waitlistId, settings, ids),
      idByEmail: (waitlistId, emailNorm) => idByEmail(db, waitlistId, emailNorm),
      byStatusToken: (token) => findByStatusToken(db, token),
      admit: (waitlistId, settings, admission, nowUs) => admit(db, waitlistId, settings, admission, nowUs),
      erase: (waitlistId, id) => erase(db, waitlistId, id),
      counts: (waitlistId) => lineCounts(db, waitlistId),
      joinedBetween: (waitlistId, bounds) => joinedBetween(db, waitlistId, bounds),
      topReferrers: (waitlistId, settings, limit) => topReferrers(db, waitlistId, settings, limit),
    },
    confirmations: {
      byToken: (token) => confirmationView(db, token),
      confirm: (token, nowUs) => confirm(db, token, nowUs),
      mail: (subscriberId) => confirmationMail(db, subscriberId),
    },
    activity: {
      append: (entry, now) => appendActivity(db, entry, now),
      list: (tenantId, filter) => listActivity(db, tenantId, filter),
    },
    sessions: {
      insert: (session) => insertSession(db, session),
      find: (idHash, now) => findSession(db, idHash, now),
      delete: (idHash) => deleteSession(db, idHash),
      deleteExpired: (now) => deleteExpiredSessions(db, now),
    },
    tokens: {
      used: (ids) => usedTokens(db, ids),
      redeem: (tokens) => redeemTokens(db, tokens),
      forgetExpired: (now) => forgetExpiredTokens(db, now),
    },
    idempotency: {
      claim: (keyId, idemKey, hash, now) => claim(db, keyId, idemKey, hash, now),
      complete: (keyId, idemKey, answer) => complete(db, keyId, idemKey, answer),
      release: (keyId, idemKey) => release(db, keyId, idemKey),
      forgetExpired: (now) => forgetExpiredAnswers(db, now),
    },
    webhooks: {
      insert: (fields, now) => insertEndpoint(db, fields, now),
      get: (id) => getEndpoint(db, id),
      live: (tenantIds) => liveEndpoints(db, tenantIds),
      delete: (id, now) => deleteEndpoint(db, id, now),
    },
    outbox: {
      add: (event, now) => addEvent(db, event, now),
      pendingEvents: (limit) => pendingEvents(db, limit),
      createDeliveries: (deliveries, dispatched) => createDeliveries(db, deliveries, dispatched),
      claim: (now, leaseMs, limit, busy, perEndpoint) =>
        claimDeliveries(db, now, leaseMs, limit, busy, perEndpoint),
      record: (attempt, next) => recordAttempt(db, attempt, next),
      deliveries: (endpointId, state) => listDeliveries(db, endpointId, state),
      endpointOf: (deliveryId) => deliveryEndpoint(db, deliveryId),
      resend: (deliveryId, now) => resendDelivery(db, deliveryId, now),
      waitingMail: () => waitingMail(db),
    },
    meta: {
      get: (key) => getMeta(db, key),
      putOnce: (key, value) => putMetaOnce(db, key, value),
    },
  };
}

export interface PostgresStoreOptions {
  /** Microseconds since the epoch: join times, read when a write runs. */
  nowMicros: () => number;
  /** Connections in the pool: a server's requests share them; a one-shot command needs few. */
  connections?: number;
}

/** Tables that hold a subscriber's data, and so old versions of an erased one's rows. */
const HOLDING_SUBSCRIBER_DATA = ['subscribers', 'deliveries', 'delivery_attempts', 'events', 'idempotency'];

export async function openPostgresStore(url: string, options: PostgresStoreOptions): Promise<Store> {
  const db = await openDatabase(url, { connections: options.connections ?? 10 });
  const { nowMicros } = options;
  return {
    reads: repositories(db.reader),
    read: (fn) => db.snapshot((tx) => fn(repositories(tx))),
    write: (fn) => db.write((tx) => fn(repositories(tx))),
    // No batching: each sign-up is a transaction of its own, and sign-ups of one waitlist take
    // turns on its row lock whichever way they come; grouping them would save round trips only.
    // Its gate tokens are redeemed in the same transaction: one taken first (by any process)
    // and nobody is signed up. The tokens it did win stay redeemed, as on SQLite.
    signUpFresh: ({ tokens = [], ...input }) =>
      db.write(async (tx): Promise<FreshSignupResult> => {
        const taken = await redeemTokens(tx, tokens);
        if (taken.length > 0) return { outcome: 'tokens_taken', taken };
        return insertOrMatchSubscriber(tx, { ...input, referralCode: undefined }, nowMicros());
      }),
    limiter: (name, rule) => postgresLimiter(db, name, rule),
    // A deleted row stays in its page, as a dead version, until VACUUM prunes it: run it on the
    // tables an erasure deleted from. It visits only pages changed since the last vacuum (the
    // visibility map), so it costs about what the erasure changed. Best effort: a transaction
    // still open may keep old versions, and the WAL keeps them until its segments are recycled.
    scrub: async () => {
      await db.reader.exec(`VACUUM ${HOLDING_SUBSCRIBER_DATA.join(', ')}`);
    },
    close: () => db.close(),
  };
}
