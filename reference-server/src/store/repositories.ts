/**
 * The store's repositories on a connection, one factory per aggregate: `keysOn(db)` answers the
 * `Keys` whose methods are the statements themselves, so an editor goes from `tx.keys.grant` to
 * them. Every factory is shared by both stores (`statements/`), written against `Db`; those whose
 * SQL differs between the engines take the store's `Dialect`. The one part each store writes its
 * own way is its `LineEngine`, given here with its dialect.
 */
import type { Db } from './db.js';
import type { Dialect } from './dialect.js';
import { activityOn } from './statements/activity.js';
import { confirmationsOn } from './statements/confirmations.js';
import { idempotencyOn } from './statements/idempotency.js';
import { keysOn } from './statements/keys.js';
import type { LineEngine } from './statements/line.js';
import { messagesOn } from './statements/messages.js';
import { metaOn } from './statements/meta.js';
import { operatorsOn } from './statements/operators.js';
import { outboxOn } from './statements/outbox.js';
import { revealsOn } from './statements/reveals.js';
import { sessionsOn } from './statements/sessions.js';
import { statsOn } from './statements/stats.js';
import { subscribersOn } from './statements/subscribers.js';
import { tenantsOn } from './statements/tenants.js';
import { tokensOn } from './statements/tokens.js';
import { waitlistsOn } from './statements/waitlists.js';
import { webhooksOn } from './statements/webhooks.js';
import type { Repositories } from './store.js';

export function repositoriesOn<C extends Db>(db: C, d: Dialect, line: LineEngine<C>): Repositories {
  return {
    tenants: tenantsOn(db),
    operators: operatorsOn(db),
    waitlists: waitlistsOn(db, d),
    keys: keysOn(db),
    subscribers: subscribersOn(db, d, line),
    confirmations: confirmationsOn(db, d),
    activity: activityOn(db),
    sessions: sessionsOn(db),
    tokens: tokensOn(db, d),
    idempotency: idempotencyOn(db, d),
    webhooks: webhooksOn(db, d),
    outbox: outboxOn(db, d),
    messages: messagesOn(db, d),
    reveals: revealsOn(db),
    meta: metaOn(db),
    stats: statsOn(db),
  };
}
