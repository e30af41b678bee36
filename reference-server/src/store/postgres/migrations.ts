/**
 * Versioned schema of the PostgreSQL store: its own numbered list, independent of SQLite's (the
 * first step is the SQLite schema as it stands after its seventh migration). `schema_version`
 * records how many steps ran; a start applies the missing ones in one transaction while holding
 * an advisory lock, so several servers (and a command line) starting together apply each once.
 */
import type pg from 'pg';
import { runMigrations } from '../migration-runner.js';
import { PART_THREE_MIGRATIONS } from './part-three-migrations.js';

export const MIGRATIONS: readonly string[] = [
  `
  -- Search finds literal substrings of email_search through trigrams (line.ts).
  CREATE EXTENSION IF NOT EXISTS pg_trgm;

  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

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

  -- last_seq and last_joined_us: the last join number and join time given on the waitlist
  -- (erased rows included). SQLite reads them off the rows, its single writer ordering
  -- sign-ups; here sign-ups of a waitlist order themselves by locking its row, and these
  -- columns are what they read and advance under that lock. The counters are kept the same way.
  CREATE TABLE waitlists (
    id TEXT PRIMARY KEY,
    tenant_id TEXT NOT NULL REFERENCES tenants (id),
    name TEXT NOT NULL,
    archived BOOLEAN NOT NULL DEFAULT false,
    settings TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    last_seq BIGINT NOT NULL DEFAULT 0,
    last_joined_us BIGINT NOT NULL DEFAULT 0,
    admitted_count BIGINT NOT NULL DEFAULT 0,
    erased_count BIGINT NOT NULL DEFAULT 0
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

  -- As in SQLite: seq is the dense join order, rank_key = seq - boost * referral_count, kept
  -- current so the line reads in order; admitted rows leave the line's partial indexes.
  CREATE TABLE subscribers (
    id TEXT PRIMARY KEY,
    waitlist_id TEXT NOT NULL REFERENCES waitlists (id),
    seq BIGINT NOT NULL,
    email TEXT NOT NULL,
    email_norm TEXT NOT NULL,
    email_search TEXT NOT NULL,
    referral_code TEXT NOT NULL,
    status_token TEXT NOT NULL UNIQUE,
    referred_by TEXT REFERENCES subscribers (id),
    referral_count BIGINT NOT NULL DEFAULT 0,
    rank_key BIGINT NOT NULL,
    joined_us BIGINT NOT NULL,
    admitted_us BIGINT,
    confirm_token TEXT,
    confirmed_us BIGINT,
    confirm_mailed_us BIGINT,
    UNIQUE (waitlist_id, email_norm),
    UNIQUE (waitlist_id, seq),
    UNIQUE (waitlist_id, referral_code)
  );
  CREATE UNIQUE INDEX subscribers_confirm_token ON subscribers (confirm_token) WHERE confirm_token IS NOT NULL;
  CREATE INDEX subscribers_line ON subscribers (waitlist_id, rank_key, referral_count DESC, seq)
    WHERE admitted_us IS NULL;
  CREATE INDEX subscribers_admitted ON subscribers (waitlist_id, admitted_us) WHERE admitted_us IS NOT NULL;
  -- Candidates of a substring search of three characters or more; shorter needles have no
  -- trigram, and scan the waitlist's rows.
  CREATE INDEX subscribers_search ON subscribers USING gin (email_search gin_trgm_ops);
  CREATE INDEX subscribers_referrers_rank ON subscribers (waitlist_id, rank_key, referral_count, seq)
    WHERE referral_count > 0 AND admitted_us IS NULL;
  CREATE INDEX subscribers_displaced_seq ON subscribers (waitlist_id, seq)
    WHERE referral_count > 0 OR admitted_us IS NOT NULL;
  CREATE INDEX subscribers_referred_by ON subscribers (referred_by) WHERE referred_by IS NOT NULL;
  CREATE INDEX subscribers_joined ON subscribers (waitlist_id, joined_us);
  CREATE INDEX subscribers_top_referrers ON subscribers (waitlist_id, referral_count DESC, seq)
    WHERE referral_count > 0;

  CREATE TABLE erased_seqs (
    waitlist_id TEXT NOT NULL REFERENCES waitlists (id),
    seq BIGINT NOT NULL,
    PRIMARY KEY (waitlist_id, seq)
  );

  CREATE TABLE activity (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
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
  CREATE FUNCTION activity_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'the activity log is append-only'; END $$;
  CREATE TRIGGER activity_append_only BEFORE UPDATE OR DELETE ON activity
    FOR EACH ROW EXECUTE FUNCTION activity_append_only();

  CREATE TABLE used_tokens (id TEXT PRIMARY KEY, expires_at BIGINT NOT NULL);

  CREATE TABLE sessions (
    id_hash TEXT PRIMARY KEY,
    operator_id TEXT NOT NULL REFERENCES operators (id),
    csrf TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
  );
  CREATE INDEX sessions_operator ON sessions (operator_id);

  CREATE TABLE idempotency (
    key_id TEXT NOT NULL,
    idem_key TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('in_progress', 'done')),
    answer TEXT,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (key_id, idem_key)
  );
  CREATE INDEX idempotency_created ON idempotency (created_at);

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
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    message_id TEXT NOT NULL UNIQUE,
    tenant_id TEXT NOT NULL,
    waitlist_id TEXT NOT NULL,
    type TEXT NOT NULL,
    subject_id TEXT NOT NULL,
    data TEXT,
    at BIGINT NOT NULL,
    dispatched BOOLEAN NOT NULL DEFAULT false
  );
  CREATE INDEX events_pending ON events (seq) WHERE NOT dispatched;

  CREATE TABLE deliveries (
    id TEXT PRIMARY KEY,
    channel TEXT NOT NULL CHECK (channel IN ('webhook', 'mail')),
    event_seq BIGINT,
    endpoint_id TEXT REFERENCES webhook_endpoints (id),
    tenant_id TEXT NOT NULL,
    message_id TEXT NOT NULL,
    event_type TEXT NOT NULL,
    body TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed', 'dropped')),
    attempts BIGINT NOT NULL DEFAULT 0,
    next_at BIGINT NOT NULL,
    lease_until BIGINT,
    created_at BIGINT NOT NULL,
    CHECK ((channel = 'webhook') = (endpoint_id IS NOT NULL))
  );
  CREATE INDEX deliveries_pending ON deliveries ((coalesce(endpoint_id, channel)), next_at) WHERE state = 'pending';
  CREATE INDEX deliveries_endpoint ON deliveries (endpoint_id, created_at);
  CREATE TABLE delivery_attempts (
    delivery_id TEXT NOT NULL,
    at BIGINT NOT NULL,
    status BIGINT,
    error TEXT,
    duration_ms BIGINT NOT NULL
  );
  CREATE INDEX delivery_attempts_delivery ON delivery_attempts (delivery_id, at);
  `,
  `
  -- Throttle counters (throttles.ts): with several servers on one database, they count here,
  -- not in each process. state is the rule's state as JSON; idle_at is when it counts nothing.
  CREATE TABLE throttles (
    limiter TEXT NOT NULL,
    key TEXT NOT NULL,
    state TEXT,
    idle_at BIGINT NOT NULL,
    PRIMARY KEY (limiter, key)
  );
  CREATE INDEX throttles_idle ON throttles (limiter, idle_at);
  `,
  `
  -- Counts the saves of a waitlist: a sign-up decided on a remembered waitlist is written only
  -- while it still has the version it was decided on (app/remembered-waitlists.ts).
  ALTER TABLE waitlists ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
  `,
  `
  -- Secrets shown once, waiting for their page (domain/one-time-secret.ts): sealed under a key
  -- only the page's address holds, found by a digest of that address.
  CREATE TABLE reveals (
    lookup TEXT PRIMARY KEY,
    operator_id TEXT NOT NULL,
    subject_id TEXT NOT NULL,
    sealed TEXT NOT NULL,
    expires_at BIGINT NOT NULL
  );
  `,
  `
  -- Erasure finds a subscriber's outbox rows through indexes, not by reading every body: a
  -- delivery records whose data it carries (a mail, its addressee; a webhook, its event's subject,
  -- but for subscriber.deleted, which carries nobody's), as an event does in subject_id.
  ALTER TABLE deliveries ADD COLUMN subscriber_id TEXT;
  UPDATE deliveries AS d SET subscriber_id = CASE
    WHEN channel = 'mail' THEN body::jsonb ->> 'subscriber_id'
    WHEN event_type = 'subscriber.deleted' THEN NULL
    ELSE coalesce((SELECT subject_id FROM events AS e WHERE e.seq = d.event_seq),
                  body::jsonb #>> '{data,referrer,id}', body::jsonb #>> '{data,id}') END;
  CREATE INDEX deliveries_subscriber ON deliveries (subscriber_id) WHERE subscriber_id IS NOT NULL;
  CREATE INDEX events_subject ON events (subject_id);

  -- The outbox is pruned after WAITLIST_OUTBOX_RETENTION_DAYS (app/housekeeping.ts), oldest first
  -- and a batch at a time: finished deliveries by when they finished (a finished delivery's
  -- next_at), dispatched events by when they happened.
  CREATE INDEX deliveries_finished ON deliveries (next_at) WHERE state <> 'pending';
  CREATE INDEX events_dispatched ON events (at) WHERE dispatched;
  `,
  `
  -- Whom each kept answer names (domain/kept-answers.ts): an erasure finds the answers naming
  -- the erased person through this index and takes the person out of them, the answers staying
  -- (a retry still replays), instead of reading every answer. Written with the answer, and gone
  -- with it.
  CREATE TABLE idempotency_names (
    key_id TEXT NOT NULL,
    idem_key TEXT NOT NULL,
    subscriber_id TEXT NOT NULL,
    PRIMARY KEY (key_id, idem_key, subscriber_id),
    FOREIGN KEY (key_id, idem_key) REFERENCES idempotency (key_id, idem_key) ON DELETE CASCADE
  );
  CREATE INDEX idempotency_names_subscriber ON idempotency_names (subscriber_id);
  -- The answers kept before this step: an admission names the ids of its items, a create the
  -- holder of its status token.
  INSERT INTO idempotency_names (key_id, idem_key, subscriber_id)
    SELECT i.key_id, i.idem_key, item ->> 'id'
      FROM idempotency AS i,
           jsonb_array_elements(CASE WHEN jsonb_typeof(i.answer::jsonb #> '{value,items}') = 'array'
                                     THEN i.answer::jsonb #> '{value,items}' ELSE '[]' END) AS item
     WHERE i.state = 'done' AND item ->> 'id' IS NOT NULL
    ON CONFLICT DO NOTHING;
  INSERT INTO idempotency_names (key_id, idem_key, subscriber_id)
    SELECT i.key_id, i.idem_key, s.id
      FROM idempotency AS i JOIN subscribers AS s ON s.status_token = i.answer::jsonb #>> '{value,status_token}'
     WHERE i.state = 'done'
    ON CONFLICT DO NOTHING;
  -- A create answer whose subscriber is gone was erased before this step, which left the answer
  -- whole: its token, code and URL go now.
  UPDATE idempotency
     SET answer = jsonb_set(answer::jsonb, '{value}', (answer::jsonb -> 'value')
                  || '{"status_token": "", "referral_code": "", "status_url": ""}'::jsonb)::text
   WHERE state = 'done' AND answer::jsonb #>> '{value,status_token}' <> ''
     AND NOT EXISTS (SELECT 1 FROM subscribers WHERE status_token = answer::jsonb #>> '{value,status_token}');
  `,
  `
  -- A subscriber's row brings its own outbox rows, written by the statement that writes it, as
  -- SQLite's schema does (its grouped sign-ups are one statement, with no transaction around
  -- them): one place for this rule in both stores. subscriber.created, when the tenant has a live
  -- endpoint (only those pay for it); the confirmation mail, when the subscriber must confirm,
  -- and again whenever a re-sign-up sets confirm_mailed_us. Ids as SQLite's triggers make them:
  -- a prefix and random lower-case hex.
  CREATE FUNCTION random_hex(bytes integer) RETURNS text LANGUAGE sql VOLATILE
    AS $$ SELECT left(encode(sha256(uuid_send(gen_random_uuid())), 'hex'), 2 * bytes) $$;

  CREATE FUNCTION subscriber_created_event() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO events (message_id, tenant_id, waitlist_id, type, subject_id, at)
    SELECT 'msg_' || random_hex(12), w.tenant_id, NEW.waitlist_id, 'subscriber.created', NEW.id, NEW.joined_us / 1000
      FROM waitlists AS w
     WHERE w.id = NEW.waitlist_id
       AND EXISTS (SELECT 1 FROM webhook_endpoints AS e WHERE e.tenant_id = w.tenant_id AND e.state = 'active');
    RETURN NULL;
  END $$;
  CREATE TRIGGER subscribers_created_event AFTER INSERT ON subscribers
    FOR EACH ROW EXECUTE FUNCTION subscriber_created_event();

  CREATE FUNCTION queue_confirmation_mail() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO deliveries (id, channel, tenant_id, message_id, event_type, body, state, next_at, created_at,
                            subscriber_id)
    SELECT 'dlv_' || random_hex(8), 'mail', tenant_id, 'msg_' || random_hex(12), 'confirmation',
           '{"subscriber_id":' || to_json(NEW.id)::text || '}', 'pending', NEW.confirm_mailed_us / 1000,
           NEW.confirm_mailed_us / 1000, NEW.id
      FROM waitlists WHERE id = NEW.waitlist_id;
    RETURN NULL;
  END $$;
  CREATE TRIGGER subscribers_confirm_mail AFTER INSERT ON subscribers
    FOR EACH ROW WHEN (NEW.confirm_token IS NOT NULL) EXECUTE FUNCTION queue_confirmation_mail();
  CREATE TRIGGER subscribers_confirm_mail_again AFTER UPDATE OF confirm_mailed_us ON subscribers
    FOR EACH ROW WHEN (NEW.confirm_token IS NOT NULL AND NEW.confirmed_us IS NULL)
    EXECUTE FUNCTION queue_confirmation_mail();
  `,
  ...PART_THREE_MIGRATIONS,
];

/** Any number, the same in every process: the advisory lock that migrations run under. */
const MIGRATION_LOCK = 0x5741_4954;

export async function migrate(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  const exec = async (sql: string) => {
    await client.query(sql);
  };
  // The table has its row once the first steps ran: until then the count is inserted, not updated.
  let recorded = false;
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await runMigrations(MIGRATIONS, {
        exec,
        begin: 'BEGIN',
        version: async () => {
          await exec('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)');
          const row = (await client.query<{ version: number }>('SELECT version FROM schema_version')).rows[0];
          recorded = row !== undefined;
          const version = row?.version ?? 0;
          if (version > MIGRATIONS.length) {
            throw new Error(
              `The database's schema is version ${version}, newer than this server's ${MIGRATIONS.length}: upgrade the server.`,
            );
          }
          return version;
        },
        apply: exec,
        record: async (version) => {
          if (recorded) await client.query('UPDATE schema_version SET version = $1', [version]);
          else await client.query('INSERT INTO schema_version VALUES ($1)', [version]);
        },
      });
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
}
