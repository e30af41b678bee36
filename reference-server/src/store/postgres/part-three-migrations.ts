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
];
