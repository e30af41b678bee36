/**
 * How an adapter's statement functions become the store's `Repositories` on a connection. Both
 * adapters write one function per repository method, named alike and taking the connection
 * first; which function serves which method is said once, here, and tsc checks that an adapter
 * has each of them, with the method's arguments and answer after the connection.
 */
import type { Repositories } from './store.js';

/** A repository method by its aggregate and name: `keys.grant`. */
type Path = { [A in keyof Repositories]: `${A}.${keyof Repositories[A] & string}` }[keyof Repositories];

const SERVED_BY = {
  'tenants.insert': 'insertTenant',
  'tenants.get': 'getTenant',
  'tenants.setPlan': 'updatePlan',
  'tenants.count': 'countTenants',
  'operators.insert': 'insertOperator',
  'operators.get': 'getOperator',
  'operators.findByEmail': 'findOperatorByEmail',
  'operators.replacePasswordHash': 'updatePasswordHash',
  'waitlists.insert': 'insertWaitlist',
  'waitlists.get': 'getWaitlist',
  'waitlists.list': 'listWaitlists',
  'waitlists.save': 'saveWaitlist',
  'keys.insert': 'insertKey',
  'keys.get': 'getKey',
  'keys.list': 'listKeys',
  'keys.revoke': 'revokeKey',
  'keys.findByHash': 'findKeyByHash',
  'keys.grant': 'getGrant',
  'keys.touch': 'touchKey',
  'subscribers.signUp': 'insertOrMatchSubscriber',
  'subscribers.list': 'listSubscribers',
  'subscribers.get': 'getSubscriber',
  'subscribers.byIds': 'subscribersByIds',
  'subscribers.idByEmail': 'idByEmail',
  'subscribers.byStatusToken': 'findByStatusToken',
  'subscribers.admit': 'admit',
  'subscribers.erase': 'erase',
  'subscribers.counts': 'lineCounts',
  'subscribers.joinedBetween': 'joinedBetween',
  'subscribers.topReferrers': 'topReferrers',
  'confirmations.byToken': 'confirmationView',
  'confirmations.confirm': 'confirm',
  'confirmations.mail': 'confirmationMail',
  'activity.append': 'appendActivity',
  'activity.list': 'listActivity',
  'sessions.insert': 'insertSession',
  'sessions.find': 'findSession',
  'sessions.delete': 'deleteSession',
  'sessions.deleteExpired': 'deleteExpiredSessions',
  'tokens.used': 'usedTokens',
  'tokens.redeem': 'redeemTokens',
  'tokens.forgetExpired': 'forgetExpiredTokens',
  'idempotency.claim': 'claim',
  'idempotency.complete': 'complete',
  'idempotency.release': 'release',
  'idempotency.forgetExpired': 'forgetExpiredAnswers',
  'webhooks.insert': 'insertEndpoint',
  'webhooks.get': 'getEndpoint',
  'webhooks.live': 'liveEndpoints',
  'webhooks.delete': 'deleteEndpoint',
  'outbox.add': 'addEvent',
  'outbox.pendingEvents': 'pendingEvents',
  'outbox.createDeliveries': 'createDeliveries',
  'outbox.due': 'dueDeliveries',
  'outbox.claim': 'claimDeliveries',
  'outbox.record': 'recordAttempt',
  'outbox.waitingMail': 'waitingMail',
  'outbox.deliveries': 'listDeliveries',
  'outbox.endpointOf': 'deliveryEndpoint',
  'outbox.resend': 'resendDelivery',
  'outbox.prune': 'pruneOutbox',
  'reveals.insert': 'insertReveal',
  'reveals.take': 'takeReveal',
  'reveals.forgetExpired': 'forgetExpiredReveals',
  'meta.get': 'getMeta',
  'meta.putOnce': 'putMetaOnce',
} as const satisfies Record<Path, string>;
type ServedBy = typeof SERVED_BY;

type MethodAt<P> = P extends `${infer A extends keyof Repositories}.${infer M}`
  ? Repositories[A][M & keyof Repositories[A]]
  : never;

type OnConnection<C, F> = F extends (...args: infer P) => infer R ? (db: C, ...args: P) => R : never;

/** The statement functions an adapter on connections `C` hands over, by name. */
export type Statements<C> = { [P in Path as ServedBy[P]]: OnConnection<C, MethodAt<P>> };

type Statement<C> = (db: C, ...args: unknown[]) => unknown;

/** The repositories on a connection, each method its statement function with the connection first. */
export function repositoriesOver<C>(statements: Statements<C>): (db: C) => Repositories {
  const byName = statements as unknown as Record<string, Statement<C>>;
  const served = Object.entries(SERVED_BY).map(([path, name]) => {
    const [aggregate, method] = path.split('.') as [string, string];
    return { aggregate, method, statement: byName[name] as Statement<C> };
  });
  return (db) => {
    const repositories: Record<string, Record<string, unknown>> = {};
    for (const { aggregate, method, statement } of served) {
      repositories[aggregate] ??= {};
      repositories[aggregate][method] = (...args: unknown[]) => statement(db, ...args);
    }
    return repositories as unknown as Repositories;
  };
}
