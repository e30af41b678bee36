/** The PostgreSQL steps of part three, after migrations.ts's first ones (the same columns as SQLite's). */
export const PART_THREE_MIGRATIONS: readonly string[] = [
  `
  -- A sign-up's answers and source (docs/subscribers.md#fields, docs/subscribers.md#attribution),
  -- JSON text, NULL when none; source_channel (NULL for direct) and credited: what the list's
  -- channel filter reads through an index, the channel itself being derived when asked.
  ALTER TABLE subscribers ADD COLUMN fields TEXT;
  ALTER TABLE subscribers ADD COLUMN source TEXT;
  ALTER TABLE subscribers ADD COLUMN source_channel TEXT;
  ALTER TABLE subscribers ADD COLUMN credited BOOLEAN NOT NULL DEFAULT false;
  UPDATE subscribers SET credited = true
   WHERE referred_by IS NOT NULL AND (confirm_token IS NULL OR confirmed_us IS NOT NULL);
  CREATE INDEX subscribers_channel ON subscribers (waitlist_id, source_channel) WHERE source_channel IS NOT NULL;
  CREATE INDEX subscribers_credited ON subscribers (waitlist_id) WHERE credited;
  -- Address variants (docs/subscribers.md#address-variants): one row per variant key on a
  -- waitlist with dedupe=provider; NULL everywhere else.
  ALTER TABLE subscribers ADD COLUMN variant_key TEXT;
  CREATE UNIQUE INDEX subscribers_variant ON subscribers (waitlist_id, variant_key) WHERE variant_key IS NOT NULL;
  `,
  `
  -- The channel filter's counts read its two indexes alone (docs/subscribers.md#attribution): each
  -- now holds what a row is counted by (credited, and in or out of the line), so the total of
  -- direct, most of a line, is the line's size less the other channels' entries, counted by
  -- index-only scans, never a read of the line's rows. The same entries as before, a little wider.
  DROP INDEX subscribers_channel;
  CREATE INDEX subscribers_channel ON subscribers (waitlist_id, source_channel, credited, admitted_us)
    WHERE source_channel IS NOT NULL;
  DROP INDEX subscribers_credited;
  CREATE INDEX subscribers_credited ON subscribers (waitlist_id, admitted_us) WHERE credited;
  `,
  `
  -- Messages (docs/messages.md), as SQLite's step (sqlite/message-migrations.ts): the waitlist's
  -- three messages (lang '' the default language; issue 26's variants are rows of their own), the
  -- subscriber's unsubscribe, and each message's mail queued by the statement that writes its cause.
  CREATE TABLE messages (
    waitlist_id TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('welcome', 'referral', 'admitted')),
    lang TEXT NOT NULL DEFAULT '',
    subject TEXT NOT NULL,
    body TEXT NOT NULL,
    enabled BOOLEAN NOT NULL DEFAULT false,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (waitlist_id, kind, lang)
  );
  ALTER TABLE subscribers ADD COLUMN unsubscribed_us BIGINT;

  CREATE FUNCTION queue_message_mail(subscriber TEXT, waitlist TEXT, message_kind TEXT, at_ms BIGINT)
    RETURNS void LANGUAGE sql AS $$
    INSERT INTO deliveries (id, channel, tenant_id, message_id, event_type, body, state, next_at, created_at,
                            subscriber_id)
    SELECT 'dlv_' || random_hex(8), 'mail', w.tenant_id, 'msg_' || random_hex(12), message_kind,
           json_build_object('subscriber_id', subscriber, 'kind', message_kind)::text, 'pending', at_ms, at_ms,
           subscriber
      FROM waitlists AS w
     WHERE w.id = waitlist
       AND EXISTS (SELECT 1 FROM messages AS m WHERE m.waitlist_id = w.id AND m.kind = message_kind AND m.enabled)
  $$;
  CREATE FUNCTION queue_welcome_mail() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM queue_message_mail(NEW.id, NEW.waitlist_id, 'welcome',
                               coalesce(NEW.confirmed_us, NEW.joined_us) / 1000);
    RETURN NULL;
  END $$;
  CREATE TRIGGER subscribers_welcome_mail AFTER INSERT ON subscribers
    FOR EACH ROW WHEN (NEW.confirm_token IS NULL) EXECUTE FUNCTION queue_welcome_mail();
  CREATE TRIGGER subscribers_welcome_mail_confirmed AFTER UPDATE OF confirmed_us ON subscribers
    FOR EACH ROW WHEN (OLD.confirmed_us IS NULL AND NEW.confirmed_us IS NOT NULL)
    EXECUTE FUNCTION queue_welcome_mail();
  CREATE FUNCTION queue_admitted_mail() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM queue_message_mail(NEW.id, NEW.waitlist_id, 'admitted', NEW.admitted_us / 1000);
    RETURN NULL;
  END $$;
  CREATE TRIGGER subscribers_admitted_mail AFTER UPDATE OF admitted_us ON subscribers
    FOR EACH ROW WHEN (OLD.admitted_us IS NULL AND NEW.admitted_us IS NOT NULL)
    EXECUTE FUNCTION queue_admitted_mail();
  -- One pending referral mail per referrer absorbs later credits, due an hour after the last one went.
  CREATE FUNCTION queue_referral_mail() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF NOT EXISTS (SELECT 1 FROM deliveries
                    WHERE subscriber_id = NEW.id AND event_type = 'referral' AND state = 'pending') THEN
      PERFORM queue_message_mail(NEW.id, NEW.waitlist_id, 'referral', greatest(
        (extract(epoch FROM clock_timestamp()) * 1000)::bigint,
        (SELECT max(next_at) + 3600000 FROM deliveries
          WHERE subscriber_id = NEW.id AND event_type = 'referral' AND state = 'delivered')));
    END IF;
    RETURN NULL;
  END $$;
  CREATE TRIGGER subscribers_referral_mail AFTER UPDATE OF referral_count ON subscribers
    FOR EACH ROW WHEN (NEW.referral_count > OLD.referral_count AND NEW.unsubscribed_us IS NULL)
    EXECUTE FUNCTION queue_referral_mail();
  `,
];
