/**
 * Versioned schema. `PRAGMA user_version` records how many migrations ran; each start applies
 * the missing ones inside one write transaction, so a server and a command line starting
 * together cannot both apply them. The first seven steps are in first-migrations.ts.
 */
import { runMigrations } from '../migration-runner.js';
import type { Connection } from './connection.js';
import { FIRST_MIGRATIONS } from './first-migrations.js';
import { MESSAGE_MIGRATION } from './message-migrations.js';

/** A schema step: SQL, or code for what SQL cannot compute. */
export type Migration = string | ((db: Connection) => Promise<void>);

export const MIGRATIONS: readonly Migration[] = [
  ...FIRST_MIGRATIONS,
  `
  -- Search (q) finds candidates in a trigram index of the search text instead of scanning every
  -- row of the waitlist (issue 16); line.ts confirms each with the exact substring test. The
  -- index is external content (the text stays in subscribers only) and kept in step by the
  -- triggers below, on every statement that writes email_search. secure-delete: an erased
  -- address's entries leave the index at once, not later when segments merge (docs/subscribers.md#erasure);
  -- PRAGMA secure_delete then overwrites their bytes. columnsize=0: no per-row token counts,
  -- which nothing reads.
  CREATE VIRTUAL TABLE subscribers_fts USING fts5 (
    email_search, content = 'subscribers', content_rowid = 'rowid',
    tokenize = 'trigram case_sensitive 0', columnsize = 0
  );
  INSERT INTO subscribers_fts (subscribers_fts, rank) VALUES ('secure-delete', 1);
  INSERT INTO subscribers_fts (subscribers_fts) VALUES ('rebuild');
  CREATE TRIGGER subscribers_fts_insert AFTER INSERT ON subscribers
  BEGIN
    INSERT INTO subscribers_fts (rowid, email_search) VALUES (NEW.rowid, NEW.email_search);
  END;
  CREATE TRIGGER subscribers_fts_delete AFTER DELETE ON subscribers
  BEGIN
    INSERT INTO subscribers_fts (subscribers_fts, rowid, email_search) VALUES ('delete', OLD.rowid, OLD.email_search);
  END;
  CREATE TRIGGER subscribers_fts_update AFTER UPDATE OF email_search ON subscribers
  BEGIN
    INSERT INTO subscribers_fts (subscribers_fts, rowid, email_search) VALUES ('delete', OLD.rowid, OLD.email_search);
    INSERT INTO subscribers_fts (rowid, email_search) VALUES (NEW.rowid, NEW.email_search);
  END;
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
    expires_at INTEGER NOT NULL
  ) WITHOUT ROWID;
  `,
  `
  -- Erasure finds a subscriber's outbox rows by index, not by reading bodies: a delivery records
  -- whose data it carries (a mail's addressee, an event's subject; nobody for subscriber.deleted).
  ALTER TABLE deliveries ADD COLUMN subscriber_id TEXT;
  UPDATE deliveries SET subscriber_id = CASE WHEN channel = 'mail' THEN body ->> '$.subscriber_id'
    WHEN event_type = 'subscriber.deleted' THEN NULL ELSE coalesce((SELECT subject_id FROM events
    WHERE seq = event_seq), body ->> '$.data.referrer.id', body ->> '$.data.id') END;
  CREATE INDEX deliveries_subscriber ON deliveries (subscriber_id) WHERE subscriber_id IS NOT NULL;
  CREATE INDEX events_subject ON events (subject_id);
  DROP TRIGGER confirmation_mail_queue_insert;
  CREATE TRIGGER confirmation_mail_queue_insert INSTEAD OF INSERT ON confirmation_mail_queue BEGIN
    INSERT INTO deliveries (id, channel, tenant_id, message_id, event_type, body, state, next_at, created_at, subscriber_id)
    SELECT 'dlv_' || lower(hex(randomblob(8))), 'mail', tenant_id, 'msg_' || lower(hex(randomblob(12))), 'confirmation',
           json_object('subscriber_id', NEW.subscriber_id), 'pending', NEW.at_us / 1000, NEW.at_us / 1000, NEW.subscriber_id
      FROM waitlists WHERE id = NEW.waitlist_id;
  END;
  -- Pruning (app/housekeeping.ts) reads the oldest first: finished deliveries by when they
  -- finished (their next_at), dispatched events by when they happened.
  CREATE INDEX deliveries_finished ON deliveries (next_at) WHERE state <> 'pending';
  CREATE INDEX events_dispatched ON events (at) WHERE dispatched = 1;
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
  ) WITHOUT ROWID;
  CREATE INDEX idempotency_names_subscriber ON idempotency_names (subscriber_id);
  -- The answers kept before this step: an admission names the ids of its items, a create the
  -- holder of its status token.
  INSERT OR IGNORE INTO idempotency_names (key_id, idem_key, subscriber_id)
    SELECT i.key_id, i.idem_key, json_extract(item.value, '$.id')
      FROM idempotency AS i, json_each(i.answer, '$.value.items') AS item
     WHERE i.state = 'done' AND json_extract(item.value, '$.id') IS NOT NULL;
  INSERT OR IGNORE INTO idempotency_names (key_id, idem_key, subscriber_id)
    SELECT i.key_id, i.idem_key, s.id
      FROM idempotency AS i JOIN subscribers AS s ON s.status_token = json_extract(i.answer, '$.value.status_token')
     WHERE i.state = 'done';
  -- A create answer whose subscriber is gone was erased before this step, which left the answer
  -- whole: its token, code and URL go now.
  UPDATE idempotency
     SET answer = json_set(answer, '$.value.status_token', '', '$.value.referral_code', '', '$.value.status_url', '')
   WHERE state = 'done' AND json_extract(answer, '$.value.status_token') <> ''
     AND NOT EXISTS (SELECT 1 FROM subscribers WHERE status_token = json_extract(answer, '$.value.status_token'));
  `,
  `
  -- Part three. A sign-up's answers to the waitlist's fields and its source (docs/subscribers.md#fields,
  -- docs/subscribers.md#attribution), JSON text, NULL when none: kept from the first sign-up only
  -- and gone with the row at erasure. The channel is derived when asked; what the list's channel
  -- filter reads is kept beside them so an index finds it: source_channel, the channel the source
  -- gives (NULL for direct), and credited, whether a referrer was credited (a referral).
  ALTER TABLE subscribers ADD COLUMN fields TEXT;
  ALTER TABLE subscribers ADD COLUMN source TEXT;
  ALTER TABLE subscribers ADD COLUMN source_channel TEXT;
  ALTER TABLE subscribers ADD COLUMN credited INTEGER NOT NULL DEFAULT 0;
  UPDATE subscribers SET credited = 1
   WHERE referred_by IS NOT NULL AND (confirm_token IS NULL OR confirmed_us IS NOT NULL);
  CREATE INDEX subscribers_channel ON subscribers (waitlist_id, source_channel) WHERE source_channel IS NOT NULL;
  CREATE INDEX subscribers_credited ON subscribers (waitlist_id) WHERE credited = 1;
  -- Address variants (docs/subscribers.md#address-variants): on a waitlist with dedupe=provider,
  -- the variant key of an address of the listed providers, held by one row per key; NULL
  -- everywhere else, so the index costs nothing on the other waitlists.
  ALTER TABLE subscribers ADD COLUMN variant_key TEXT;
  CREATE UNIQUE INDEX subscribers_variant ON subscribers (waitlist_id, variant_key) WHERE variant_key IS NOT NULL;
  `,
  `
  -- The channel filter's counts read its two indexes alone (docs/subscribers.md#attribution): each
  -- now holds what a row is counted by (credited, and in or out of the line), so the total of
  -- direct, most of a line, is the line's size less the other channels' entries, never a read
  -- of the line's rows. The same entries as before, a little wider.
  DROP INDEX subscribers_channel;
  CREATE INDEX subscribers_channel ON subscribers (waitlist_id, source_channel, credited, admitted_us)
    WHERE source_channel IS NOT NULL;
  DROP INDEX subscribers_credited;
  CREATE INDEX subscribers_credited ON subscribers (waitlist_id, admitted_us) WHERE credited = 1;
  `,
  MESSAGE_MIGRATION,
];

/** BEGIN IMMEDIATE takes the write lock at once: a second process starting waits, then finds the steps applied. */
export function migrate(db: Connection): Promise<void> {
  return runMigrations(MIGRATIONS, {
    exec: (sql) => db.exec(sql),
    begin: 'BEGIN IMMEDIATE',
    version: async () => (await db.get<{ user_version: number }>('PRAGMA user_version'))?.user_version ?? 0,
    apply: (step) => (typeof step === 'string' ? db.exec(step) : step(db)),
    record: (version) => db.exec(`PRAGMA user_version = ${version}`),
  });
}

/** Opens a connection tuned for this service: WAL, durable commits, a busy timeout. */
export async function configure(db: Connection, { writer }: { writer: boolean }): Promise<void> {
  // The busy timeout lets the command line write while the server runs, and vice versa.
  await db.exec('PRAGMA busy_timeout = 10000');
  await db.exec('PRAGMA foreign_keys = ON');
  if (writer) {
    await db.exec('PRAGMA journal_mode = WAL');
    // An erased subscriber's bytes are overwritten, not left in free pages (docs/subscribers.md#erasure).
    await db.exec('PRAGMA secure_delete = ON');
    // FULL: every commit is fsynced before it returns, so a 202 survives power loss.
    await db.exec('PRAGMA synchronous = FULL');
  } else {
    await db.exec('PRAGMA query_only = ON');
    // Readers map the file instead of copying each page into a cache of their own (2 MB each by
    // default): a search reads its candidates by rowid from all over the table, thousands of
    // pages that would each be a read() call and evict the index pages the next lookup needs.
    // The mapping shares the operating system's cache, so it costs no memory of its own.
    await db.exec('PRAGMA mmap_size = 2147418112');
  }
}
