/**
 * The SQLite adapter of the store (`../store.ts`): one file in WAL mode, every write through the
 * group committer, single reads on a shared reader connection, snapshots on connections of their
 * own. The repositories bind the statement modules beside this file to a connection.
 */
import { memoryLimiters } from '../memory-limiter.js';
import type { Repositories, Store } from '../store.js';
import { appendActivity, listActivity } from './activity.js';
import { confirm, confirmationMail, confirmationView } from './confirmations.js';
import type { Connection } from './connection.js';
import { type Database, openDatabase } from './database.js';
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
import { type FreshSignup, insertOrMatchMany, insertOrMatchSubscriber } from './subscribers.js';
import { countTenants, getTenant, insertTenant, updatePlan } from './tenants.js';
import { forgetExpiredTokens, redeemTokens, usedTokens } from './tokens.js';
import { getWaitlist, insertWaitlist, listWaitlists, saveWaitlist } from './waitlists.js';
import { deleteEndpoint, getEndpoint, insertEndpoint, liveEndpoints } from './webhooks.js';

/** A busy checkpoint is tried again this often, this many times (a reader's snapshot lasts milliseconds). */
const SCRUB_ATTEMPTS = 50;
const SCRUB_RETRY_MS = 10;

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

/** Repositories are plain closures over a connection; each connection gets one set. */
const bound = new WeakMap<Connection, Repositories>();
function on(db: Connection): Repositories {
  let repos = bound.get(db);
  if (!repos) {
    repos = repositories(db);
    bound.set(db, repos);
  }
  return repos;
}

export interface SqliteStoreOptions {
  /** Microseconds since the epoch: join times, read when a write runs. */
  nowMicros: () => number;
  /** False for one-shot commands: one connection does everything. */
  separateReader?: boolean;
}

export function storeOver(db: Database, { nowMicros }: Pick<SqliteStoreOptions, 'nowMicros'>): Store {
  // Fresh sign-ups waiting for the writer share one statement (see insertOrMatchMany).
  const fresh = (tx: Connection, inputs: readonly FreshSignup[]) =>
    insertOrMatchMany(tx, inputs, nowMicros());
  return {
    reads: on(db.reader),
    read: (fn) => db.snapshot((tx) => fn(on(tx))),
    write: (fn) => db.writer.submit((tx) => fn(on(tx))),
    signUpFresh: (input) => db.writer.joinGroup(fresh, input),
    // Throttle counters stay in memory, not in the file: see memory-limiter.ts for why.
    limiter: memoryLimiters(),
    // The WAL still holds pages from before the erasure: copy them back and empty it. It runs
    // alone, outside a transaction, as a checkpoint must; it reports busy (and leaves the WAL)
    // while a reader holds an older snapshot, so it is tried again.
    scrub: async () => {
      for (let attempt = 0; attempt < SCRUB_ATTEMPTS; attempt++) {
        const result = await db.writer.submit(
          (tx) => tx.get<{ busy: number }>('PRAGMA wal_checkpoint(TRUNCATE)'),
          { savepoint: false, alone: true },
        );
        if (result?.busy === 0) return;
        await new Promise((resolve) => setTimeout(resolve, SCRUB_RETRY_MS));
      }
    },
    close: () => db.close(),
  };
}

export async function openSqliteStore(path: string, options: SqliteStoreOptions): Promise<Store> {
  const db = await openDatabase(path, { separateReader: options.separateReader ?? true });
  return storeOver(db, options);
}
