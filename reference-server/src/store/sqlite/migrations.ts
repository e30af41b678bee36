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
  `
  -- The launch's figures per waitlist, UTC day (days since 1970-01-01) and channel
  -- (docs/insights.md#stats): counters with nothing about a person in them. The triggers below keep
  -- them on every path that writes a subscriber (sign-up, import, confirmation, credit, admission),
  -- so no use case counts; none fires on DELETE, so an erasure leaves past days as they were.
  -- A sign-up counts on the day it joined (an imported row on its joined_at), under its channel
  -- then; a credit moves it to 'referral' on that day and counts a credit on the day it is given.
  CREATE TABLE daily_counts (
    waitlist_id TEXT NOT NULL,
    day INTEGER NOT NULL,
    channel TEXT NOT NULL,
    views INTEGER NOT NULL DEFAULT 0,
    signups INTEGER NOT NULL DEFAULT 0,
    confirmed INTEGER NOT NULL DEFAULT 0,
    referred INTEGER NOT NULL DEFAULT 0,
    credits INTEGER NOT NULL DEFAULT 0,
    admitted INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (waitlist_id, day, channel)
  ) WITHOUT ROWID;
  INSERT INTO daily_counts (waitlist_id, day, channel, signups, referred, confirmed, credits, admitted)
    SELECT waitlist_id, day, channel, sum(s), sum(r), sum(c), sum(k), sum(a) FROM (
      SELECT waitlist_id, joined_us / 86400000000 AS day, iif(credited, 'referral', coalesce(source_channel, 'direct')) AS channel,
             1 AS s, credited AS r, 0 AS c, 0 AS k, 0 AS a FROM subscribers
      UNION ALL
      SELECT waitlist_id, confirmed_us / 86400000000, iif(credited, 'referral', coalesce(source_channel, 'direct')),
             0, 0, 1, 0, 0 FROM subscribers WHERE confirmed_us IS NOT NULL
      UNION ALL
      SELECT waitlist_id, coalesce(confirmed_us, joined_us) / 86400000000, 'referral', 0, 0, 0, 1, 0
        FROM subscribers WHERE credited
      UNION ALL
      SELECT waitlist_id, admitted_us / 86400000000, iif(credited, 'referral', coalesce(source_channel, 'direct')),
             0, 0, 0, 0, 1 FROM subscribers WHERE admitted_us IS NOT NULL
    ) GROUP BY waitlist_id, day, channel;
  CREATE TRIGGER daily_signup AFTER INSERT ON subscribers BEGIN
    INSERT INTO daily_counts (waitlist_id, day, channel, signups, referred, credits)
      VALUES (NEW.waitlist_id, NEW.joined_us / 86400000000,
              iif(NEW.credited, 'referral', coalesce(NEW.source_channel, 'direct')), 1, NEW.credited, NEW.credited)
      ON CONFLICT DO UPDATE SET signups = signups + 1, referred = referred + excluded.referred,
                                credits = credits + excluded.credits;
  END;
  CREATE TRIGGER daily_credit AFTER UPDATE OF credited ON subscribers
    WHEN NEW.credited AND NOT OLD.credited BEGIN
    UPDATE daily_counts SET signups = signups - 1
     WHERE waitlist_id = NEW.waitlist_id AND day = NEW.joined_us / 86400000000
       AND channel = coalesce(NEW.source_channel, 'direct');
    INSERT INTO daily_counts (waitlist_id, day, channel, signups, referred)
      VALUES (NEW.waitlist_id, NEW.joined_us / 86400000000, 'referral', 1, 1)
      ON CONFLICT DO UPDATE SET signups = signups + 1, referred = referred + 1;
    INSERT INTO daily_counts (waitlist_id, day, channel, credits)
      VALUES (NEW.waitlist_id, coalesce(NEW.confirmed_us, NEW.joined_us) / 86400000000, 'referral', 1)
      ON CONFLICT DO UPDATE SET credits = credits + 1;
  END;
  CREATE TRIGGER daily_confirmed AFTER UPDATE OF confirmed_us ON subscribers
    WHEN OLD.confirmed_us IS NULL AND NEW.confirmed_us IS NOT NULL BEGIN
    INSERT INTO daily_counts (waitlist_id, day, channel, confirmed)
      VALUES (NEW.waitlist_id, NEW.confirmed_us / 86400000000,
              iif(NEW.credited, 'referral', coalesce(NEW.source_channel, 'direct')), 1)
      ON CONFLICT DO UPDATE SET confirmed = confirmed + 1;
  END;
  CREATE TRIGGER daily_admitted AFTER UPDATE OF admitted_us ON subscribers
    WHEN OLD.admitted_us IS NULL AND NEW.admitted_us IS NOT NULL BEGIN
    INSERT INTO daily_counts (waitlist_id, day, channel, admitted)
      VALUES (NEW.waitlist_id, NEW.admitted_us / 86400000000,
              iif(NEW.credited, 'referral', coalesce(NEW.source_channel, 'direct')), 1)
      ON CONFLICT DO UPDATE SET admitted = admitted + 1;
  END;
  `,
  MESSAGE_MIGRATION,
  `
  -- A subscriber's page lists whom they referred, newest first (docs/insights.md#the-cockpit):
  -- the referred-by index widened by what that page reads, so the newest few and the count of
  -- the rest are index ranges of one referrer, however many they brought. Erasure's clearing of
  -- referred_by reads it as before.
  DROP INDEX subscribers_referred_by;
  CREATE INDEX subscribers_referred_by ON subscribers (referred_by, credited, seq) WHERE referred_by IS NOT NULL;
  `,
  `
  -- The language a sign-up gave (docs/languages.md#what-a-sign-up-records): a supported tag, or
  -- NULL for rows from before and sign-ups without one (pages and mails then use the waitlist's
  -- default_lang). Kept from the first sign-up, gone with the row at erasure. No CHECK: the
  -- list of tags grows, and the sign-up's schema is what refuses a tag we lack.
  ALTER TABLE subscribers ADD COLUMN lang TEXT;
  `,
  `
  -- A sign-up's event is recorded only when a live endpoint wants it, by the rule of
  -- domain/webhook-routing.ts (docs/webhooks.md#endpoints): its waitlist, or none named, and
  -- subscriber.created among its events, or none named. A tenant whose endpoints want other
  -- events (admissions, say) no longer writes, and later discards, an event per sign-up.
  DROP TRIGGER subscribers_created_event;
  CREATE TRIGGER subscribers_created_event AFTER INSERT ON subscribers
    WHEN EXISTS (SELECT 1 FROM waitlists w JOIN webhook_endpoints e ON e.tenant_id = w.tenant_id AND e.state = 'active'
                  WHERE w.id = NEW.waitlist_id
                    AND (e.waitlist_id IS NULL OR e.waitlist_id = NEW.waitlist_id)
                    AND (e.events = '[]' OR instr(e.events, '"subscriber.created"') > 0))
  BEGIN
    INSERT INTO events (message_id, tenant_id, waitlist_id, type, subject_id, at)
    SELECT 'msg_' || lower(hex(randomblob(12))), tenant_id, NEW.waitlist_id, 'subscriber.created', NEW.id,
           NEW.joined_us / 1000
      FROM waitlists WHERE id = NEW.waitlist_id;
  END;
  `,
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
    // The commit that takes the WAL past this many pages copies them into the file first (a
    // checkpoint, on the writer, while sign-ups wait). A sign-up rewrites the same pages as the
    // ones before it (its indexes' ends, the trigram index, the day's counts) and lands in
    // random pages of the unique indexes: every checkpoint copies each page once however often
    // it was written since, so checkpointing ten times less often copies far fewer pages per
    // sign-up. At SQLite's default of 1,000 pages, 4a did 0.52× the Express hello; at 10,000
    // (a WAL of up to 40 MB), 0.64× (BENCHMARKS.md item 4).
    await db.exec('PRAGMA wal_autocheckpoint = 10000');
  } else {
    await db.exec('PRAGMA query_only = ON');
    // Readers map the file instead of copying each page into a cache of their own (2 MB each by
    // default): a search reads its candidates by rowid from all over the table, thousands of
    // pages that would each be a read() call and evict the index pages the next lookup needs.
    // The mapping shares the operating system's cache, so it costs no memory of its own.
    await db.exec('PRAGMA mmap_size = 2147418112');
  }
}
