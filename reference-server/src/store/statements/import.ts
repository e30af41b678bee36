/**
 * Moving a list in (docs/moving-a-list.md), as both stores do it: rows are staged in a temporary
 * table of the import's own connection (no lock on the list while the file is read), and then
 * merged in one transaction: everyone from the first imported join time on is numbered again, so
 * the line stays ordered by join time, ties by id (docs/subscribers.md#positions); the rows go in
 * with their numbers; referrers are credited (docs/subscribers.md#referral-credit). A kill before
 * the commit leaves the list as it was: the staging table dies with its connection.
 */
import type { Referral } from '../../domain/import-plan.js';
import type { Db } from '../db.js';
import type { Dialect } from '../dialect.js';
import { referralCredited } from './events.js';
import { addEvent } from './outbox.js';

/** A row to import, as it is staged. Ids sort in file order: rows joining at the same time keep it. */
export interface StagedRow {
  line: number;
  id: string;
  email: string;
  /** The key repeats are found by (domain/import-row.ts `importKey`). */
  key: string;
  /** The normalised address, stored as the row's `email_norm`. */
  norm: string;
  search: string;
  referralCode: string;
  statusToken: string;
  confirmToken: string | null;
  joinedUs: number | null;
  referrerKey: string | null;
  /** domain/import-plan.ts `referralOutcome`. */
  referral: 'none' | 'noted' | 'credited';
  /** What a sign-up keeps besides the address, as domain/signup-extras.ts writes it. */
  fields: string | null;
  source: string | null;
  sourceChannel: string | null;
  /** The variant key, on a waitlist with `dedupe=provider` (then it is also the `key`); else null. */
  variantKey: string | null;
  /** The language we speak that the row's `lang` asks for (domain/import-row.ts); else null. */
  lang: string | null;
}

export interface ImportCounts {
  imported: number;
  skipped_existing: number;
  credited: number;
}

export interface MergeOptions {
  tenantId: string;
  /**
   * The waitlist's version the rows were checked against (its fields, dedupe, referral rules):
   * saved since, nothing is written.
   */
  version: number;
  nowUs: number;
  boost: number;
  /** Record `subscriber.created` and `referral.credited`, and queue confirmation mail (`--send-events`). */
  sendEvents: boolean;
  /** Queue the confirmation mail of rows not confirmed (with `sendEvents`, on a waitlist that confirms). */
  mailUnconfirmed: boolean;
}

/** One import: its staging, its counts, and its one write. */
export interface ListImport {
  /** Stages the rows whose key no staged row has (the first row of an address counts); answers how many. */
  stage(rows: readonly StagedRow[]): Promise<number>;
  /** The staged rows naming a referrer, each with the line of the referrer's staged row (or null), in line order. */
  referrals(): Promise<Referral[]>;
  /** Takes rows back out of the staging (found invalid once the whole file was read). */
  drop(lines: readonly number[]): Promise<void>;
  /** Which of these keys the list holds. */
  onList(keys: readonly string[]): Promise<Set<string>>;
  /** What `commit` would count, writing nothing to the list. */
  preview(): Promise<ImportCounts>;
  /** Writes the rows; null (nothing written) when the waitlist was saved since `options.version`. */
  commit(options: MergeOptions): Promise<ImportCounts | null>;
  /** Ends the import's connection (a staging left uncommitted is gone with it). */
  close(): Promise<void>;
}

/**
 * The part of an import both stores do alike, on the import's own connection `db`: staging the
 * rows and settling them against the list. Each store adds its commit (its transaction and lock)
 * and how the connection ends.
 */
export function staging(db: Db, d: Dialect, waitlistId: string): Omit<ListImport, 'commit' | 'close'> {
  return {
    stage: (rows) => stageRows(db, d, rows),
    referrals: () => stagedReferrals(db),
    drop: (lines) => dropRows(db, d, lines),
    onList: (keys) => keysOnList(db, d, waitlistId, keys),
    preview: () => previewImport(db, waitlistId),
  };
}

export const CREATE_STAGING = `CREATE TEMP TABLE import_rows (
  line BIGINT PRIMARY KEY, id TEXT NOT NULL, email TEXT NOT NULL, key TEXT NOT NULL UNIQUE, norm TEXT NOT NULL,
  search TEXT NOT NULL, code TEXT NOT NULL, token TEXT NOT NULL, confirm_token TEXT, joined_us BIGINT,
  ref_key TEXT, referral TEXT NOT NULL, fields TEXT, source TEXT, source_channel TEXT, variant_key TEXT,
  lang TEXT, existing_id TEXT, referrer_id TEXT)`;

const STAGED_COLUMNS = {
  line: 'bigint',
  id: 'text',
  email: 'text',
  key: 'text',
  norm: 'text',
  search: 'text',
  code: 'text',
  token: 'text',
  confirm_token: 'text',
  joined_us: 'bigint',
  ref_key: 'text',
  referral: 'text',
  fields: 'text',
  source: 'text',
  source_channel: 'text',
  variant_key: 'text',
  lang: 'text',
} as const;

export async function stageRows(db: Db, d: Dialect, rows: readonly StagedRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  // In line order, so the first row of an address is the one kept.
  const staged = await db.run(
    `INSERT INTO import_rows (${Object.keys(STAGED_COLUMNS).join(', ')})
     SELECT ${Object.keys(STAGED_COLUMNS).join(', ')} FROM ${d.rows('r', STAGED_COLUMNS)}
      ORDER BY line ON CONFLICT (key) DO NOTHING`,
    [
      JSON.stringify(
        rows.map((r) => [
          r.line,
          r.id,
          r.email,
          r.key,
          r.norm,
          r.search,
          r.referralCode,
          r.statusToken,
          r.confirmToken,
          r.joinedUs,
          r.referrerKey,
          r.referral,
          r.fields,
          r.source,
          r.sourceChannel,
          r.variantKey,
          r.lang,
        ]),
      ),
    ],
  );
  return staged.changes;
}

export async function stagedReferrals(db: Db): Promise<Referral[]> {
  const rows = await db.all<{ line: number; ref_key: string; ref_line: number | null }>(
    `SELECT r.line, r.ref_key, o.line AS ref_line FROM import_rows AS r
       LEFT JOIN import_rows AS o ON o.key = r.ref_key
      WHERE r.ref_key IS NOT NULL ORDER BY r.line`,
  );
  return rows.map((r) => ({
    line: Number(r.line),
    refKey: r.ref_key,
    refLine: r.ref_line === null ? null : Number(r.ref_line),
  }));
}

export async function dropRows(db: Db, d: Dialect, lines: readonly number[]): Promise<void> {
  for (let i = 0; i < lines.length; i += 1000)
    await db.run(`DELETE FROM import_rows WHERE ${d.anyOf('line', 'bigint')}`, [lines.slice(i, i + 1000)]);
}

/** Which keys the list holds: as an address, or as the variant key of one (`dedupe=provider`). */
export async function keysOnList(db: Db, d: Dialect, waitlistId: string, keys: readonly string[]) {
  const found = new Set<string>();
  for (let i = 0; i < keys.length; i += 1000) {
    const rows = await db.all<{ k: string }>(
      `SELECT email_norm AS k FROM subscribers WHERE waitlist_id = ?1 AND ${d.anyOf('email_norm', 'text', '?2')}
       UNION SELECT variant_key FROM subscribers
        WHERE waitlist_id = ?1 AND variant_key IS NOT NULL AND ${d.anyOf('variant_key', 'text', '?2')}`,
      [waitlistId, keys.slice(i, i + 1000)],
    );
    for (const r of rows) found.add(r.k);
  }
  return found;
}

/**
 * Settles what the staged rows are against the list as it is now: which are on it already (the
 * row of that exact address, else the holder of its variant key, as a sign-up finds it), and whose
 * referrer each credits (the file's row of that key, or the list's).
 */
async function resolve(db: Db, waitlistId: string): Promise<void> {
  await db.run('CREATE INDEX IF NOT EXISTS import_rows_code ON import_rows (code)');
  // Settled afresh (a preview ran before the merge); a million rows already NULL are not rewritten.
  await db.run(
    'UPDATE import_rows SET existing_id = NULL, referrer_id = NULL WHERE existing_id IS NOT NULL OR referrer_id IS NOT NULL',
  );
  await db.run(
    `UPDATE import_rows SET existing_id = s.id FROM subscribers AS s
      WHERE s.waitlist_id = ? AND s.email_norm = import_rows.norm`,
    [waitlistId],
  );
  await db.run(
    `UPDATE import_rows SET existing_id = s.id FROM subscribers AS s
      WHERE import_rows.existing_id IS NULL AND import_rows.variant_key IS NOT NULL
        AND s.waitlist_id = ? AND s.variant_key = import_rows.variant_key`,
    [waitlistId],
  );
  await db.run(
    `UPDATE import_rows SET referrer_id = coalesce(o.existing_id, o.id) FROM import_rows AS o
      WHERE o.key = import_rows.ref_key`,
  );
  for (const column of ['email_norm', 'variant_key'])
    await db.run(
      `UPDATE import_rows SET referrer_id = s.id FROM subscribers AS s
        WHERE import_rows.referrer_id IS NULL AND import_rows.ref_key IS NOT NULL
          AND s.waitlist_id = ? AND s.${column} = import_rows.ref_key`,
      [waitlistId],
    );
}

const COUNTS = `SELECT
  (SELECT count(*) FROM import_rows WHERE existing_id IS NULL) AS imported,
  (SELECT count(*) FROM import_rows WHERE existing_id IS NOT NULL) AS skipped_existing,
  (SELECT count(*) FROM import_rows WHERE existing_id IS NULL AND referrer_id IS NOT NULL
      AND referral = 'credited') AS credited`;

async function counts(db: Db): Promise<ImportCounts> {
  const row = await db.get<ImportCounts>(COUNTS);
  return {
    imported: Number(row?.imported ?? 0),
    skipped_existing: Number(row?.skipped_existing ?? 0),
    credited: Number(row?.credited ?? 0),
  };
}

export async function previewImport(db: Db, waitlistId: string): Promise<ImportCounts> {
  await resolve(db, waitlistId);
  return counts(db);
}

/**
 * Codes of the staged rows taken on the list or earlier in the file: drawn again until none is.
 * The first pass reads every row; a later one only the rows just drawn again (a fresh code can meet
 * any row's, before or after it), since the others were settled.
 */
export async function freeCodes(db: Db, d: Dialect, waitlistId: string, draw: () => string): Promise<void> {
  await db.run('CREATE INDEX IF NOT EXISTS import_rows_code ON import_rows (code)');
  const onList = 'EXISTS (SELECT 1 FROM subscribers WHERE waitlist_id = ?1 AND referral_code = r.code)';
  let taken = await db.all<{ line: number }>(
    `SELECT r.line FROM import_rows AS r
      WHERE ${onList} OR EXISTS (SELECT 1 FROM import_rows AS o WHERE o.code = r.code AND o.line < r.line)
      ORDER BY r.line`,
    [waitlistId],
  );
  while (taken.length > 0) {
    const lines = taken.map((t) => Number(t.line));
    await db.run(
      `UPDATE import_rows SET code = c.code FROM ${d.rows('c', { line: 'bigint', code: 'text' })}
        WHERE import_rows.line = c.line`,
      [JSON.stringify(lines.map((line) => [line, draw()]))],
    );
    taken = await db.all<{ line: number }>(
      `SELECT r.line FROM import_rows AS r
        WHERE ${d.anyOf('r.line', 'bigint', '?2')}
          AND (${onList} OR EXISTS (SELECT 1 FROM import_rows AS o WHERE o.code = r.code AND o.line <> r.line))
        ORDER BY r.line`,
      [waitlistId, lines],
    );
  }
}

/**
 * The new join numbers: the staged rows, and every row and erased number from the first staged
 * join time on, in the line's order (join time, then id; an erased number keeps its place right
 * after the row it followed), numbered on from the first of them.
 */
async function renumber(db: Db, waitlistId: string): Promise<void> {
  await db.run(
    `CREATE TEMP TABLE import_seq AS
    WITH first AS (SELECT joined_us AS j, id AS i FROM import_rows WHERE existing_id IS NULL
                    ORDER BY joined_us, id LIMIT 1),
    items AS (
      SELECT 0 AS kind, s.id AS ref_id, s.seq AS old_seq, s.joined_us AS j, s.id AS i, s.seq AS t
        FROM subscribers AS s, first WHERE s.waitlist_id = ?1 AND (s.joined_us, s.id) > (first.j, first.i)
      UNION ALL
      SELECT 1, NULL, e.seq, coalesce(a.joined_us, -1), coalesce(a.id, ''), e.seq
        FROM erased_seqs AS e
        LEFT JOIN subscribers AS a ON a.waitlist_id = ?1
             AND a.seq = (SELECT max(p.seq) FROM subscribers AS p WHERE p.waitlist_id = ?1 AND p.seq < e.seq)
       WHERE e.waitlist_id = ?1
      UNION ALL
      SELECT 2, id, NULL, joined_us, id, 0 FROM import_rows WHERE existing_id IS NULL),
    moving AS (SELECT items.* FROM items, first WHERE (items.j, items.i) > (first.j, first.i) OR items.kind = 2),
    start AS (SELECT coalesce((SELECT min(old_seq) FROM moving WHERE kind <> 2),
                 (SELECT coalesce(max(seq), 0) + 1 FROM (SELECT seq FROM subscribers WHERE waitlist_id = ?1
                    UNION ALL SELECT seq FROM erased_seqs WHERE waitlist_id = ?1) AS all_seqs)) AS s0)
    SELECT kind, ref_id, old_seq, start.s0 - 1 + row_number() OVER (ORDER BY j, i, t) AS seq
      FROM moving, start`,
    [waitlistId],
  );
  // Two steps each: a number is unique within the waitlist at every row written.
  await db.run(
    `UPDATE subscribers SET seq = -m.seq FROM import_seq AS m
      WHERE m.kind = 0 AND subscribers.id = m.ref_id AND m.seq <> m.old_seq`,
  );
  await db.run('UPDATE subscribers SET seq = -seq WHERE waitlist_id = ? AND seq < 0', [waitlistId]);
  await db.run(
    `UPDATE erased_seqs SET seq = -m.seq FROM import_seq AS m
      WHERE m.kind = 1 AND erased_seqs.waitlist_id = ? AND erased_seqs.seq = m.old_seq AND m.seq <> m.old_seq`,
    [waitlistId],
  );
  await db.run('UPDATE erased_seqs SET seq = -seq WHERE waitlist_id = ? AND seq < 0', [waitlistId]);
}

/**
 * The one write of an import; the caller runs it in a transaction (and locks the waitlist where
 * writers are many). Null, writing nothing, when the waitlist was saved since the rows were checked.
 */
export async function mergeImport(db: Db, waitlistId: string, o: MergeOptions): Promise<ImportCounts | null> {
  const now = await db.get<{ version: number }>('SELECT version FROM waitlists WHERE id = ?', [waitlistId]);
  if (Number(now?.version) !== o.version) return null;
  await resolve(db, waitlistId);
  const result = await counts(db);
  if (result.imported === 0) return result;
  await db.run('UPDATE import_rows SET joined_us = ? WHERE joined_us IS NULL', [o.nowUs]);
  await renumber(db, waitlistId);
  // A confirmation token written with the row queues its mail (the schema's trigger): given
  // after the insert instead, unless the mail is wanted.
  const confirmation = o.mailUnconfirmed
    ? 'r.confirm_token, CASE WHEN r.confirm_token IS NULL THEN NULL ELSE CAST(?2 AS BIGINT) END'
    : 'NULL, NULL';
  await db.run(
    `INSERT INTO subscribers (id, waitlist_id, seq, email, email_norm, email_search, referral_code, status_token,
                              referred_by, referral_count, rank_key, joined_us, confirm_token, confirm_mailed_us,
                              fields, source, source_channel, variant_key, lang, credited)
     SELECT r.id, ?1, m.seq, r.email, r.norm, r.search, r.code, r.token,
            CASE WHEN r.referral = 'none' THEN NULL ELSE r.referrer_id END, 0, m.seq, r.joined_us, ${confirmation},
            r.fields, r.source, r.source_channel, r.variant_key, r.lang, r.referral = 'credited' AND r.referrer_id IS NOT NULL
       FROM import_rows AS r JOIN import_seq AS m ON m.kind = 2 AND m.ref_id = r.id
      ORDER BY m.seq`,
    o.mailUnconfirmed ? [waitlistId, o.nowUs] : [waitlistId],
  );
  if (!o.mailUnconfirmed) {
    await db.run(
      `UPDATE subscribers SET confirm_token = r.confirm_token FROM import_rows AS r
        WHERE subscribers.id = r.id AND r.existing_id IS NULL AND r.confirm_token IS NOT NULL`,
    );
  }
  // The referral mails already waiting for the import's referrers, from credits of sign-ups: the
  // import's credits fold into them (the trigger adds no second one) and they stay.
  await db.run(
    `CREATE TEMP TABLE import_waiting_mail AS
     SELECT id FROM deliveries WHERE state = 'pending' AND event_type = 'referral' AND subscriber_id IN
       (SELECT referrer_id FROM import_rows WHERE existing_id IS NULL AND referral = 'credited')`,
  );
  await db.run(
    `UPDATE subscribers SET referral_count = referral_count + c.n FROM
       (SELECT referrer_id, count(*) AS n FROM import_rows
         WHERE existing_id IS NULL AND referrer_id IS NOT NULL AND referral = 'credited' GROUP BY referrer_id) AS c
      WHERE subscribers.id = c.referrer_id`,
  );
  await db.run(
    'UPDATE subscribers SET rank_key = seq - ? * referral_count WHERE waitlist_id = ? AND rank_key <> seq - ? * referral_count',
    [o.boost, waitlistId, o.boost],
  );
  if (o.sendEvents) {
    const credits = await db.all<{ id: string; referrer_id: string; joined_us: number }>(
      `SELECT id, referrer_id, joined_us FROM import_rows
        WHERE existing_id IS NULL AND referrer_id IS NOT NULL AND referral = 'credited' ORDER BY line`,
    );
    for (const c of credits) {
      const credit = { referrerId: c.referrer_id, referralCount: 0, rankKey: 0 };
      const of = { tenantId: o.tenantId, waitlistId, subscriberId: c.id };
      await addEvent(db, referralCredited(credit, of), Math.floor(c.joined_us / 1000));
    }
  } else {
    // The schema's triggers record `subscriber.created` and queue the welcome and referral mail
    // (docs/messages.md#the-three-messages) with each row: an import sends none of its own.
    await db.run(
      `DELETE FROM events WHERE type = 'subscriber.created' AND subject_id IN
         (SELECT id FROM import_rows WHERE existing_id IS NULL)`,
    );
    await db.run(
      `DELETE FROM deliveries WHERE state = 'pending' AND event_type = 'welcome' AND subscriber_id IN
         (SELECT id FROM import_rows WHERE existing_id IS NULL)`,
    );
    await db.run(
      `DELETE FROM deliveries WHERE state = 'pending' AND event_type = 'referral'
          AND subscriber_id IN (SELECT referrer_id FROM import_rows WHERE existing_id IS NULL AND referral = 'credited')
          AND id NOT IN (SELECT id FROM import_waiting_mail)`,
    );
  }
  await db.run('DROP TABLE import_waiting_mail');
  await db.run('DROP TABLE import_seq');
  return result;
}
