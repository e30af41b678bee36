/**
 * Steps 1 to 7 of the SQLite schema (migrations.ts), as they were written: the schema up to the
 * outbox and email confirmation. Never edited: every database that ran them is as they say.
 */
import { searchText } from '../../domain/search.js';
import type { Migration } from './migrations.js';

export const FIRST_MIGRATIONS: readonly Migration[] = [
  `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;

  CREATE TABLE tenants (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    plan TEXT NOT NULL CHECK (plan IN ('free', 'pro', 'team')),
    created_at TEXT NOT NULL
  );

  CREATE TABLE operators (
    id TEXT PRIMARY KEY,
    tenant_id TEXT NOT NULL REFERENCES tenants (id),
    email TEXT NOT NULL,
    email_norm TEXT NOT NULL UNIQUE,
    role TEXT NOT NULL CHECK (role IN ('admin', 'member')),
    password_hash TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE INDEX operators_tenant ON operators (tenant_id);

  CREATE TABLE waitlists (
    id TEXT PRIMARY KEY,
    tenant_id TEXT NOT NULL REFERENCES tenants (id),
    name TEXT NOT NULL,
    archived INTEGER NOT NULL DEFAULT 0,
    settings TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX waitlists_tenant ON waitlists (tenant_id);

  CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    tenant_id TEXT NOT NULL REFERENCES tenants (id),
    name TEXT NOT NULL,
    prefix TEXT NOT NULL,
    hash TEXT NOT NULL UNIQUE,
    scopes TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('active', 'revoked')),
    created_at TEXT NOT NULL,
    created_by TEXT NOT NULL REFERENCES operators (id),
    revoked_at TEXT,
    revoked_by TEXT REFERENCES operators (id),
    last_used_at TEXT
  );
  CREATE INDEX api_keys_tenant ON api_keys (tenant_id, created_at);

  -- seq: dense join order within the waitlist (1, 2, 3, …), assigned in commit order.
  -- rank_key: seq - referral_boost * referral_count, kept current so the list reads in order.
  -- joined_us: join time in microseconds, strictly increasing within a waitlist.
  CREATE TABLE subscribers (
    id TEXT PRIMARY KEY,
    waitlist_id TEXT NOT NULL REFERENCES waitlists (id),
    seq INTEGER NOT NULL,
    email TEXT NOT NULL,
    email_norm TEXT NOT NULL,
    email_search TEXT NOT NULL,
    referral_code TEXT NOT NULL,
    status_token TEXT NOT NULL UNIQUE,
    referred_by TEXT REFERENCES subscribers (id),
    referral_count INTEGER NOT NULL DEFAULT 0,
    rank_key INTEGER NOT NULL,
    joined_us INTEGER NOT NULL,
    UNIQUE (waitlist_id, email_norm),
    UNIQUE (waitlist_id, seq),
    UNIQUE (waitlist_id, referral_code)
  );
  CREATE INDEX subscribers_rank ON subscribers (waitlist_id, rank_key, referral_count DESC, seq);
  -- Search scans this narrow index, not the table, and finds everything ranking needs in it.
  CREATE INDEX subscribers_search ON subscribers (waitlist_id, email_search, rank_key, referral_count, seq);
  -- Referrers only: the prefix counts that positions of search hits are computed from.
  CREATE INDEX subscribers_referrers_rank ON subscribers (waitlist_id, rank_key, referral_count, seq)
    WHERE referral_count > 0;
  CREATE INDEX subscribers_referrers_seq ON subscribers (waitlist_id, seq) WHERE referral_count > 0;

  CREATE TABLE activity (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tenant_id TEXT NOT NULL REFERENCES tenants (id),
    at TEXT NOT NULL,
    actor_type TEXT NOT NULL CHECK (actor_type IN ('operator', 'key')),
    actor_id TEXT NOT NULL,
    actor_name TEXT NOT NULL,
    action TEXT NOT NULL,
    subject_id TEXT,
    details TEXT NOT NULL DEFAULT '{}'
  );
  CREATE INDEX activity_tenant ON activity (tenant_id, id DESC);
  CREATE TRIGGER activity_append_only_update BEFORE UPDATE ON activity
    BEGIN SELECT RAISE(ABORT, 'the activity log is append-only'); END;
  CREATE TRIGGER activity_append_only_delete BEFORE DELETE ON activity
    BEGIN SELECT RAISE(ABORT, 'the activity log is append-only'); END;

  -- Challenge tokens and PoW nonces already redeemed, until they expire.
  CREATE TABLE used_tokens (id TEXT PRIMARY KEY, expires_at INTEGER NOT NULL) WITHOUT ROWID;
  `,
  `
  -- Dashboard sign-ins. Only a hash of the cookie's value is stored.
  CREATE TABLE sessions (
    id_hash TEXT PRIMARY KEY,
    operator_id TEXT NOT NULL REFERENCES operators (id),
    csrf TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX sessions_operator ON sessions (operator_id);
  `,
  // Grouped sign-ups once stored SQLite's ASCII-only lower() as the search text: recompute it
  // for addresses with anything beyond ASCII, with the one function searches use.
  async (db) => {
    const rows = await db.all<{ id: string; email: string }>(
      "SELECT id, email FROM subscribers WHERE email GLOB '*[^ -~]*'",
    );
    for (const row of rows) {
      await db.run('UPDATE subscribers SET email_search = ? WHERE id = ?', [searchText(row.email), row.id]);
    }
  },
  `
  -- The lifecycle (docs/subscribers.md#lifecycle). An admitted subscriber keeps its row, out of the line: the line's
  -- indexes are partial (admitted_us IS NULL), so admitted rows leave them. An erased one leaves
  -- its seq behind in erased_seqs, a number and nothing else, so that join numbers stay dense
  -- and are never given again: positions are computed from them.
  ALTER TABLE subscribers ADD COLUMN admitted_us INTEGER;
  ALTER TABLE waitlists ADD COLUMN admitted_count INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE waitlists ADD COLUMN erased_count INTEGER NOT NULL DEFAULT 0;
  CREATE TABLE erased_seqs (
    waitlist_id TEXT NOT NULL REFERENCES waitlists (id),
    seq INTEGER NOT NULL,
    PRIMARY KEY (waitlist_id, seq)
  ) WITHOUT ROWID;

  DROP INDEX subscribers_rank;
  CREATE INDEX subscribers_line ON subscribers (waitlist_id, rank_key, referral_count DESC, seq)
    WHERE admitted_us IS NULL;
  CREATE INDEX subscribers_admitted ON subscribers (waitlist_id, admitted_us) WHERE admitted_us IS NOT NULL;
  DROP INDEX subscribers_search;
  CREATE INDEX subscribers_search
    ON subscribers (waitlist_id, email_search, rank_key, referral_count, seq, admitted_us);
  -- Waiting referrers by rank; and by seq every row out of join order: referrers and admitted.
  DROP INDEX subscribers_referrers_rank;
  CREATE INDEX subscribers_referrers_rank ON subscribers (waitlist_id, rank_key, referral_count, seq)
    WHERE referral_count > 0 AND admitted_us IS NULL;
  DROP INDEX subscribers_referrers_seq;
  CREATE INDEX subscribers_displaced_seq ON subscribers (waitlist_id, seq)
    WHERE referral_count > 0 OR admitted_us IS NOT NULL;
  -- Whom an erased subscriber referred: their link is cut, their place kept.
  CREATE INDEX subscribers_referred_by ON subscribers (referred_by) WHERE referred_by IS NOT NULL;

  -- Idempotency-Key (docs/protocol.md#idempotency-key): the first answer per API key and Idempotency-Key, 24 hours.
  CREATE TABLE idempotency (
    key_id TEXT NOT NULL,
    idem_key TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('in_progress', 'done')),
    answer TEXT,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (key_id, idem_key)
  ) WITHOUT ROWID;
  CREATE INDEX idempotency_created ON idempotency (created_at);
  `,
  `
  -- The dashboard's overview reads ranges of these, never the whole waitlist: sign-ups per day
  -- count the join times of the last 30 days, and the top referrers are the first entries of a
  -- partial index that holds referrers only. Join times only ever grow, so the first index is
  -- appended to at its end by sign-ups.
  CREATE INDEX subscribers_joined ON subscribers (waitlist_id, joined_us);
  CREATE INDEX subscribers_top_referrers ON subscribers (waitlist_id, referral_count DESC, seq)
    WHERE referral_count > 0;
  `,
  `
  -- The outbox (docs/webhooks.md#endpoints): webhook endpoints, events recorded with the change that caused
  -- them, a delivery per endpoint that wants an event, and every attempt.
  CREATE TABLE webhook_endpoints (
    id TEXT PRIMARY KEY,
    tenant_id TEXT NOT NULL REFERENCES tenants (id),
    url TEXT NOT NULL,
    secret TEXT NOT NULL,
    events TEXT NOT NULL DEFAULT '[]',
    waitlist_id TEXT REFERENCES waitlists (id),
    state TEXT NOT NULL CHECK (state IN ('active', 'deleted')),
    created_at TEXT NOT NULL,
    created_by TEXT NOT NULL REFERENCES operators (id),
    deleted_at TEXT
  );
  CREATE INDEX webhook_endpoints_live ON webhook_endpoints (tenant_id) WHERE state = 'active';

  CREATE TABLE events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    message_id TEXT NOT NULL UNIQUE,
    tenant_id TEXT NOT NULL,
    waitlist_id TEXT NOT NULL,
    type TEXT NOT NULL,
    subject_id TEXT NOT NULL,
    data TEXT,
    at INTEGER NOT NULL,
    dispatched INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX events_pending ON events (seq) WHERE dispatched = 0;

  CREATE TABLE deliveries (
    id TEXT PRIMARY KEY,
    event_seq INTEGER NOT NULL,
    endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints (id),
    tenant_id TEXT NOT NULL,
    message_id TEXT NOT NULL,
    event_type TEXT NOT NULL,
    body TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_at INTEGER NOT NULL,
    lease_until INTEGER,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX deliveries_due ON deliveries (next_at) WHERE state = 'pending';
  CREATE INDEX deliveries_endpoint ON deliveries (endpoint_id, created_at);
  CREATE TABLE delivery_attempts (
    delivery_id TEXT NOT NULL,
    at INTEGER NOT NULL,
    status INTEGER,
    error TEXT,
    duration_ms INTEGER NOT NULL
  );
  CREATE INDEX delivery_attempts_delivery ON delivery_attempts (delivery_id, at);

  -- A fresh sign-up's event is written by the very statement that writes the row: grouped
  -- sign-ups commit without a transaction around them, and no event may be lost between two
  -- statements. Only tenants with a live endpoint pay for it.
  CREATE TRIGGER subscribers_created_event AFTER INSERT ON subscribers
    WHEN EXISTS (SELECT 1 FROM waitlists w JOIN webhook_endpoints e ON e.tenant_id = w.tenant_id AND e.state = 'active'
                  WHERE w.id = NEW.waitlist_id)
  BEGIN
    INSERT INTO events (message_id, tenant_id, waitlist_id, type, subject_id, at)
    SELECT 'msg_' || lower(hex(randomblob(12))), tenant_id, NEW.waitlist_id, 'subscriber.created', NEW.id,
           NEW.joined_us / 1000
      FROM waitlists WHERE id = NEW.waitlist_id;
  END;
  `,
  `
  -- Email confirmation (docs/subscribers.md#email-confirmation). A subscriber who must confirm has a confirm_token, kept
  -- after confirming so a second press of the button is harmless; confirmed_us is when they
  -- did. confirm_mailed_us is when the last mail was queued: setting it is what queues one.
  ALTER TABLE subscribers ADD COLUMN confirm_token TEXT;
  ALTER TABLE subscribers ADD COLUMN confirmed_us INTEGER;
  ALTER TABLE subscribers ADD COLUMN confirm_mailed_us INTEGER;
  CREATE UNIQUE INDEX subscribers_confirm_token ON subscribers (confirm_token) WHERE confirm_token IS NOT NULL;

  -- One outbox for webhooks and mail: a delivery goes out on a channel; a mail has no endpoint
  -- and no event. 'dropped': a mail no longer needed when its turn came (confirmed, erased).
  CREATE TABLE deliveries_v7 (
    id TEXT PRIMARY KEY,
    channel TEXT NOT NULL CHECK (channel IN ('webhook', 'mail')),
    event_seq INTEGER,
    endpoint_id TEXT REFERENCES webhook_endpoints (id),
    tenant_id TEXT NOT NULL,
    message_id TEXT NOT NULL,
    event_type TEXT NOT NULL,
    body TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed', 'dropped')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_at INTEGER NOT NULL,
    lease_until INTEGER,
    created_at INTEGER NOT NULL,
    CHECK ((channel = 'webhook') = (endpoint_id IS NOT NULL))
  );
  INSERT INTO deliveries_v7 SELECT id, 'webhook', event_seq, endpoint_id, tenant_id, message_id, event_type,
    body, state, attempts, next_at, lease_until, created_at FROM deliveries;
  DROP TABLE deliveries;
  ALTER TABLE deliveries_v7 RENAME TO deliveries;
  -- Due deliveries per destination (an endpoint, or the SMTP server for all mail): a claim reads
  -- the first few of each live destination, never the whole backlog, so one endpoint's pile
  -- neither slows the claim nor starves the others.
  CREATE INDEX deliveries_pending ON deliveries (coalesce(endpoint_id, channel), next_at) WHERE state = 'pending';
  CREATE INDEX deliveries_endpoint ON deliveries (endpoint_id, created_at);

  -- The confirmation mail is queued by the statement that writes the row (as the created event
  -- is, for the same reason) and again whenever a re-sign-up sets confirm_mailed_us. Both
  -- triggers queue through this view, so the mail delivery's shape is written once.
  CREATE VIEW confirmation_mail_queue (subscriber_id, waitlist_id, at_us) AS SELECT NULL, NULL, NULL;
  CREATE TRIGGER confirmation_mail_queue_insert INSTEAD OF INSERT ON confirmation_mail_queue
  BEGIN
    INSERT INTO deliveries (id, channel, tenant_id, message_id, event_type, body, state, next_at, created_at)
    SELECT 'dlv_' || lower(hex(randomblob(8))), 'mail', tenant_id, 'msg_' || lower(hex(randomblob(12))),
           'confirmation', json_object('subscriber_id', NEW.subscriber_id), 'pending', NEW.at_us / 1000,
           NEW.at_us / 1000
      FROM waitlists WHERE id = NEW.waitlist_id;
  END;
  CREATE TRIGGER subscribers_confirm_mail AFTER INSERT ON subscribers
    WHEN NEW.confirm_token IS NOT NULL
  BEGIN
    INSERT INTO confirmation_mail_queue VALUES (NEW.id, NEW.waitlist_id, NEW.confirm_mailed_us);
  END;
  CREATE TRIGGER subscribers_confirm_mail_again AFTER UPDATE OF confirm_mailed_us ON subscribers
    WHEN NEW.confirm_token IS NOT NULL AND NEW.confirmed_us IS NULL
  BEGIN
    INSERT INTO confirmation_mail_queue VALUES (NEW.id, NEW.waitlist_id, NEW.confirm_mailed_us);
  END;
  `,
];
