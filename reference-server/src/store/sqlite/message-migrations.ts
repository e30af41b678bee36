/**
 * The SQLite step of messages (docs/messages.md): the waitlist's three messages, the subscriber's
 * unsubscribe, and the mail each message's cause queues in the statement that writes the cause,
 * as the confirmation mail is (first-migrations.ts), so every door (sign-up batch, API,
 * confirmation, admission by count, by ids, command line, dashboard) queues it without code of its own.
 */
export const MESSAGE_MIGRATION = `
  -- A waitlist's messages (docs/messages.md#the-three-messages): lang '' is the waitlist's
  -- default language; issue 26's variants are rows of their own.
  CREATE TABLE messages (
    waitlist_id TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('welcome', 'referral', 'admitted')),
    lang TEXT NOT NULL DEFAULT '',
    subject TEXT NOT NULL,
    body TEXT NOT NULL,
    enabled INTEGER NOT NULL DEFAULT 0,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (waitlist_id, kind, lang)
  ) WITHOUT ROWID;
  -- When the subscriber unsubscribed (docs/messages.md#unsubscribe); NULL while subscribed.
  ALTER TABLE subscribers ADD COLUMN unsubscribed_us INTEGER;

  -- A message's mail is queued only while the message is on; what it says is read when it is sent.
  CREATE VIEW message_mail_queue (subscriber_id, waitlist_id, kind, at_ms) AS SELECT NULL, NULL, NULL, NULL;
  CREATE TRIGGER message_mail_queue_insert INSTEAD OF INSERT ON message_mail_queue BEGIN
    INSERT INTO deliveries (id, channel, tenant_id, message_id, event_type, body, state, next_at, created_at, subscriber_id)
    SELECT 'dlv_' || lower(hex(randomblob(8))), 'mail', w.tenant_id, 'msg_' || lower(hex(randomblob(12))), NEW.kind,
           json_object('subscriber_id', NEW.subscriber_id, 'kind', NEW.kind), 'pending', NEW.at_ms, NEW.at_ms,
           NEW.subscriber_id
      FROM waitlists AS w
     WHERE w.id = NEW.waitlist_id
       AND EXISTS (SELECT 1 FROM messages AS m WHERE m.waitlist_id = w.id AND m.kind = NEW.kind AND m.enabled = 1);
  END;
  -- welcome: at a fresh sign-up that needs no confirmation, else once confirmed.
  CREATE TRIGGER subscribers_welcome_mail AFTER INSERT ON subscribers WHEN NEW.confirm_token IS NULL BEGIN
    INSERT INTO message_mail_queue VALUES (NEW.id, NEW.waitlist_id, 'welcome', NEW.joined_us / 1000);
  END;
  CREATE TRIGGER subscribers_welcome_mail_confirmed AFTER UPDATE OF confirmed_us ON subscribers
    WHEN OLD.confirmed_us IS NULL AND NEW.confirmed_us IS NOT NULL BEGIN
    INSERT INTO message_mail_queue VALUES (NEW.id, NEW.waitlist_id, 'welcome', NEW.confirmed_us / 1000);
  END;
  -- admitted: in the admission's own statement, whichever door admits.
  CREATE TRIGGER subscribers_admitted_mail AFTER UPDATE OF admitted_us ON subscribers
    WHEN OLD.admitted_us IS NULL AND NEW.admitted_us IS NOT NULL BEGIN
    INSERT INTO message_mail_queue VALUES (NEW.id, NEW.waitlist_id, 'admitted', NEW.admitted_us / 1000);
  END;
  -- referral: one pending mail per referrer absorbs later credits (it reads the count when sent),
  -- due an hour after the last one went (docs/messages.md#the-three-messages).
  CREATE TRIGGER subscribers_referral_mail AFTER UPDATE OF referral_count ON subscribers
    WHEN NEW.referral_count > OLD.referral_count AND NEW.unsubscribed_us IS NULL AND NOT EXISTS (
      SELECT 1 FROM deliveries WHERE subscriber_id = NEW.id AND event_type = 'referral' AND state = 'pending') BEGIN
    INSERT INTO message_mail_queue
    SELECT NEW.id, NEW.waitlist_id, 'referral', max(CAST(unixepoch('subsec') * 1000 AS INTEGER),
           coalesce((SELECT max(next_at) + 3600000 FROM deliveries
                      WHERE subscriber_id = NEW.id AND event_type = 'referral' AND state = 'delivered'), 0));
  END;
`;
