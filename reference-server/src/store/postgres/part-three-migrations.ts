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
  -- The launch's figures per waitlist, UTC day (days since 1970-01-01) and channel
  -- (docs/insights.md#stats), as SQLite keeps them (its migrations.ts says how they count): kept
  -- by triggers on every path that writes a subscriber, none on DELETE, so an erasure leaves past
  -- days as they were. Inserts are counted once per statement from its new rows (an import of a
  -- million rows is one upsert per day and channel, not a million); the rarer changes per row.
  CREATE TABLE daily_counts (
    waitlist_id TEXT NOT NULL,
    day INTEGER NOT NULL,
    channel TEXT NOT NULL,
    views BIGINT NOT NULL DEFAULT 0,
    signups BIGINT NOT NULL DEFAULT 0,
    confirmed BIGINT NOT NULL DEFAULT 0,
    referred BIGINT NOT NULL DEFAULT 0,
    credits BIGINT NOT NULL DEFAULT 0,
    admitted BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (waitlist_id, day, channel)
  );
  INSERT INTO daily_counts (waitlist_id, day, channel, signups, referred, confirmed, credits, admitted)
    SELECT waitlist_id, day, channel, sum(s), sum(r), sum(c), sum(k), sum(a) FROM (
      SELECT waitlist_id, joined_us / 86400000000 AS day, CASE WHEN credited THEN 'referral' ELSE coalesce(source_channel, 'direct') END AS channel,
             1 AS s, credited::int AS r, 0 AS c, 0 AS k, 0 AS a FROM subscribers
      UNION ALL
      SELECT waitlist_id, confirmed_us / 86400000000, CASE WHEN credited THEN 'referral' ELSE coalesce(source_channel, 'direct') END, 0, 0, 1, 0, 0
        FROM subscribers WHERE confirmed_us IS NOT NULL
      UNION ALL
      SELECT waitlist_id, coalesce(confirmed_us, joined_us) / 86400000000, 'referral', 0, 0, 0, 1, 0
        FROM subscribers WHERE credited
      UNION ALL
      SELECT waitlist_id, admitted_us / 86400000000, CASE WHEN credited THEN 'referral' ELSE coalesce(source_channel, 'direct') END, 0, 0, 0, 0, 1
        FROM subscribers WHERE admitted_us IS NOT NULL
    ) AS counted GROUP BY waitlist_id, day, channel;
  CREATE FUNCTION daily_signups() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO daily_counts AS c (waitlist_id, day, channel, signups, referred, credits)
      SELECT waitlist_id, joined_us / 86400000000, CASE WHEN credited THEN 'referral' ELSE coalesce(source_channel, 'direct') END, count(*),
             count(*) FILTER (WHERE credited), count(*) FILTER (WHERE credited)
        FROM new_rows GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
      ON CONFLICT (waitlist_id, day, channel) DO UPDATE SET signups = c.signups + excluded.signups,
        referred = c.referred + excluded.referred, credits = c.credits + excluded.credits;
    RETURN NULL;
  END $$;
  CREATE TRIGGER daily_signup AFTER INSERT ON subscribers REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION daily_signups();
  CREATE FUNCTION daily_credit() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    UPDATE daily_counts SET signups = signups - 1
     WHERE waitlist_id = NEW.waitlist_id AND day = NEW.joined_us / 86400000000
       AND channel = coalesce(NEW.source_channel, 'direct');
    INSERT INTO daily_counts AS c (waitlist_id, day, channel, signups, referred)
      VALUES (NEW.waitlist_id, NEW.joined_us / 86400000000, 'referral', 1, 1)
      ON CONFLICT (waitlist_id, day, channel) DO UPDATE SET signups = c.signups + 1, referred = c.referred + 1;
    INSERT INTO daily_counts AS c (waitlist_id, day, channel, credits)
      VALUES (NEW.waitlist_id, coalesce(NEW.confirmed_us, NEW.joined_us) / 86400000000, 'referral', 1)
      ON CONFLICT (waitlist_id, day, channel) DO UPDATE SET credits = c.credits + 1;
    RETURN NULL;
  END $$;
  CREATE TRIGGER daily_credit AFTER UPDATE OF credited ON subscribers
    FOR EACH ROW WHEN (NEW.credited AND NOT OLD.credited) EXECUTE FUNCTION daily_credit();
  CREATE FUNCTION daily_confirmed() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO daily_counts AS c (waitlist_id, day, channel, confirmed)
      VALUES (NEW.waitlist_id, NEW.confirmed_us / 86400000000, CASE WHEN NEW.credited THEN 'referral' ELSE coalesce(NEW.source_channel, 'direct') END, 1)
      ON CONFLICT (waitlist_id, day, channel) DO UPDATE SET confirmed = c.confirmed + 1;
    RETURN NULL;
  END $$;
  CREATE TRIGGER daily_confirmed AFTER UPDATE OF confirmed_us ON subscribers
    FOR EACH ROW WHEN (OLD.confirmed_us IS NULL AND NEW.confirmed_us IS NOT NULL) EXECUTE FUNCTION daily_confirmed();
  CREATE FUNCTION daily_admitted() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO daily_counts AS c (waitlist_id, day, channel, admitted)
      VALUES (NEW.waitlist_id, NEW.admitted_us / 86400000000, CASE WHEN NEW.credited THEN 'referral' ELSE coalesce(NEW.source_channel, 'direct') END, 1)
      ON CONFLICT (waitlist_id, day, channel) DO UPDATE SET admitted = c.admitted + 1;
    RETURN NULL;
  END $$;
  CREATE TRIGGER daily_admitted AFTER UPDATE OF admitted_us ON subscribers
    FOR EACH ROW WHEN (OLD.admitted_us IS NULL AND NEW.admitted_us IS NOT NULL) EXECUTE FUNCTION daily_admitted();
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
  -- A group of sign-ups is one INSERT (signup-group.ts): its welcome mails are queued by one
  -- statement over its rows, not a trigger call per row. Called per row, queue_message_mail's
  -- statement was prepared for every row, about 0.2 ms each, the most of a sign-up's database
  -- time even with the message off. The same mails, for the same rows.
  DROP TRIGGER subscribers_welcome_mail ON subscribers;
  CREATE FUNCTION queue_welcome_mails() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM queue_message_mail(n.id, n.waitlist_id, 'welcome', coalesce(n.confirmed_us, n.joined_us) / 1000)
       FROM new_rows AS n
      WHERE n.confirm_token IS NULL
        AND EXISTS (SELECT 1 FROM messages AS m WHERE m.waitlist_id = n.waitlist_id AND m.kind = 'welcome' AND m.enabled);
    RETURN NULL;
  END $$;
  CREATE TRIGGER subscribers_welcome_mails AFTER INSERT ON subscribers REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION queue_welcome_mails();
  `,
  `
  -- A sign-up's event is recorded only when a live endpoint wants it, by the rule of
  -- domain/webhook-routing.ts (docs/webhooks.md#endpoints): its waitlist, or none named, and
  -- subscriber.created among its events, or none named. A tenant whose endpoints want other
  -- events (admissions, say) no longer writes, and later discards, an event per sign-up. SQLite's
  -- instr(haystack, needle), so the statements both stores share can test an endpoint's events.
  CREATE FUNCTION instr(text, text) RETURNS integer LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$ SELECT strpos($1, $2) $$;
  CREATE OR REPLACE FUNCTION subscriber_created_event() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO events (message_id, tenant_id, waitlist_id, type, subject_id, at)
    SELECT 'msg_' || random_hex(12), w.tenant_id, NEW.waitlist_id, 'subscriber.created', NEW.id, NEW.joined_us / 1000
      FROM waitlists AS w
     WHERE w.id = NEW.waitlist_id
       AND EXISTS (SELECT 1 FROM webhook_endpoints AS e
                    WHERE e.tenant_id = w.tenant_id AND e.state = 'active'
                      AND (e.waitlist_id IS NULL OR e.waitlist_id = NEW.waitlist_id)
                      AND (e.events = '[]' OR instr(e.events, '"subscriber.created"') > 0));
    RETURN NULL;
  END $$;
  `,
];
