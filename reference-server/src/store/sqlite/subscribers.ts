import { generateReferralCode, normalizeReferralCode } from '@waitlistkit/protocol';
import { newId, newStatusToken } from '../../domain/ids.js';
import { nonReferrerPosition, rankKey, referrerPosition } from '../../domain/positions.js';
import type { ListedSubscriber, ListPage, SignupResult, StatusView } from '../../domain/records.js';
import { searchText } from '../../domain/search.js';
import { settingsFromJson, type WaitlistSettings } from '../../domain/settings.js';
import type { Connection } from './connection.js';
import { isConstraint } from './connection.js';
import { isoFromMicros } from './time.js';

interface Facts {
  existing: string | null;
  last_seq: number | null;
  last_us: number | null;
  referrer: string | null;
  settings: string | null;
}

const INSERT_COLUMNS = `id, waitlist_id, seq, email, email_norm, email_search, referral_code,
  status_token, referred_by, referral_count, rank_key, joined_us`;

/**
 * A fresh sign-up without a referral code, in one statement: the row takes the next seq and a
 * join time after the last row's, exactly as the facts query below would have computed them,
 * and nothing is written when the waitlist is missing or archived or the email is already on it
 * (then `changes` is 0 and the caller finds out which). One round trip to the driver instead of
 * two on the committer's serial path, which is what bounds sign-up throughput.
 */
const INSERT_FRESH = `INSERT INTO subscribers (${INSERT_COLUMNS})
  SELECT ?1, ?2, last.seq + 1, ?3, ?4, ?5, ?6, ?7, NULL, 0, last.seq + 1, max(?8, last.us + 1)
    FROM (SELECT
            coalesce((SELECT seq FROM subscribers WHERE waitlist_id = ?2 ORDER BY seq DESC LIMIT 1), 0) AS seq,
            coalesce((SELECT joined_us FROM subscribers WHERE waitlist_id = ?2 ORDER BY seq DESC LIMIT 1), 0) AS us
         ) AS last
   WHERE EXISTS (SELECT 1 FROM waitlists WHERE id = ?2 AND archived = 0)
  ON CONFLICT (waitlist_id, email_norm) DO NOTHING`;

export interface FreshSignup {
  waitlistId: string;
  email: string;
  emailNorm: string;
}

/**
 * Many fresh sign-ups (no referral code) in one statement: each input whose waitlist is live and
 * whose email is on neither the waitlist nor earlier in the batch becomes a row, the rows of a
 * waitlist taking the next seqs and join times in input order, exactly as one insert after
 * another would. Rows are read from one JSON parameter, so the statement is prepared once.
 */
const INSERT_FRESH_MANY = `WITH
  input AS (
    SELECT key AS k, value ->> 0 AS wl, value ->> 1 AS email, value ->> 2 AS norm, value ->> 3 AS id,
           value ->> 4 AS code, value ->> 5 AS token, value ->> 6 AS search
      FROM json_each(?1)),
  firsts AS (
    SELECT *, row_number() OVER (PARTITION BY wl, norm ORDER BY k) AS nth FROM input),
  fresh AS (
    SELECT *, row_number() OVER (PARTITION BY wl ORDER BY k) AS n FROM firsts
     WHERE nth = 1
       AND EXISTS (SELECT 1 FROM waitlists WHERE id = firsts.wl AND archived = 0)
       AND NOT EXISTS (SELECT 1 FROM subscribers WHERE waitlist_id = firsts.wl AND email_norm = firsts.norm)),
  last AS (
    SELECT wl,
           coalesce((SELECT seq FROM subscribers WHERE waitlist_id = wl ORDER BY seq DESC LIMIT 1), 0) AS seq,
           coalesce((SELECT joined_us FROM subscribers WHERE waitlist_id = wl ORDER BY seq DESC LIMIT 1), 0) AS us
      FROM (SELECT DISTINCT wl FROM fresh))
INSERT INTO subscribers (${INSERT_COLUMNS})
  SELECT f.id, f.wl, l.seq + f.n, f.email, f.norm, f.search, f.code, f.token, NULL, 0, l.seq + f.n,
         max(?2 + f.n - 1, l.us + f.n)
    FROM fresh AS f JOIN last AS l USING (wl)
   ORDER BY f.k
  RETURNING id`;

/**
 * Creates what `INSERT_FRESH_MANY` can in one statement and answers the rest (an email already
 * on the waitlist or twice in the batch, a waitlist gone, the rare drawn code already taken) one
 * by one, as `insertOrMatchSubscriber` would. Runs inside one committer job.
 */
const LONE_SURROGATE = /\p{Cs}/u;

export async function insertOrMatchMany(
  db: Connection,
  inputs: readonly FreshSignup[],
  nowUs: number,
): Promise<SignupResult[]> {
  const drafts = inputs.map((input) => ({
    id: newId('subscriber'),
    referral_code: generateReferralCode(),
    status_token: newStatusToken(),
    input,
  }));
  let created = new Set<string>();
  // SQLite's JSON reader and the driver's binding disagree on unpaired surrogates; such a batch
  // takes the one-by-one path, which binds each value directly.
  const batchable = inputs.every((i) => !LONE_SURROGATE.test(i.email));
  if (batchable && inputs.length > 1) {
    const rows = JSON.stringify(
      drafts.map((d) => [
        d.input.waitlistId,
        d.input.email,
        d.input.emailNorm,
        d.id,
        d.referral_code,
        d.status_token,
        searchText(d.input.email),
      ]),
    );
    try {
      created = new Set((await db.all<{ id: string }>(INSERT_FRESH_MANY, [rows, nowUs])).map((r) => r.id));
    } catch (error) {
      // A drawn code already taken aborts the whole statement; everyone goes one by one.
      if (!isConstraint(error)) throw error;
    }
  }
  const results: SignupResult[] = [];
  for (const draft of drafts) {
    if (created.has(draft.id)) {
      const { input: _, ...subscriber } = draft;
      results.push({ outcome: 'created', subscriber, credited: undefined });
    } else {
      results.push(await insertOrMatchSubscriber(db, { ...draft.input, referralCode: undefined }, nowUs));
    }
  }
  return results;
}

/** Runs `insert` with a referral code, drawing another when the code is taken (one in a billion per subscriber). */
async function withFreeCode<T>(insert: (code: string) => Promise<T>): Promise<{ value: T; code: string }> {
  let code = generateReferralCode();
  for (let attempt = 0; ; attempt++) {
    try {
      return { value: await insert(code), code };
    } catch (error) {
      if (attempt < 5 && isConstraint(error, 'referral_code')) code = generateReferralCode();
      else throw error;
    }
  }
}

/**
 * Creates the subscriber or matches the existing one of the same normalised email. Runs inside
 * the committer's transaction, so concurrent signups are applied one after another: one row per
 * email, identical answers, one credit. A sign-up without a referral code is one statement when
 * it creates the row; otherwise everything it needs to read comes in one round trip.
 */
export async function insertOrMatchSubscriber(
  db: Connection,
  input: { waitlistId: string; email: string; emailNorm: string; referralCode: string | undefined },
  nowUs: number,
): Promise<SignupResult> {
  const code = normalizeReferralCode(input.referralCode) ?? null;
  if (code === null) {
    const id = newId('subscriber');
    const statusToken = newStatusToken();
    const { value: inserted, code: referralCode } = await withFreeCode((candidate) =>
      db.run(INSERT_FRESH, [
        id,
        input.waitlistId,
        input.email,
        input.emailNorm,
        searchText(input.email),
        candidate,
        statusToken,
        nowUs,
      ]),
    );
    if (inserted.changes === 1) {
      return {
        outcome: 'created',
        subscriber: { id, referral_code: referralCode, status_token: statusToken },
        credited: undefined,
      };
    }
    // Nothing written: the waitlist is gone or the email is already on it; the facts say which.
  }
  const facts = (await db.get<Facts>(
    `SELECT
       (SELECT json_array(id, referral_code, status_token) FROM subscribers
         WHERE waitlist_id = ?1 AND email_norm = ?2) AS existing,
       (SELECT seq FROM subscribers WHERE waitlist_id = ?1 ORDER BY seq DESC LIMIT 1) AS last_seq,
       (SELECT joined_us FROM subscribers WHERE waitlist_id = ?1 ORDER BY seq DESC LIMIT 1) AS last_us,
       (SELECT json_array(id, seq, referral_count) FROM subscribers
         WHERE waitlist_id = ?1 AND referral_code = ?3) AS referrer,
       (SELECT settings FROM waitlists WHERE id = ?1 AND archived = 0) AS settings`,
    [input.waitlistId, input.emailNorm, code],
  )) as Facts;
  if (facts.settings === null) return { outcome: 'waitlist_gone' };
  if (facts.existing !== null) {
    const [id, referral_code, status_token] = JSON.parse(facts.existing) as [string, string, string];
    return { outcome: 'matched', subscriber: { id, referral_code, status_token }, credited: undefined };
  }
  const settings: WaitlistSettings = settingsFromJson(facts.settings);
  const seq = (facts.last_seq ?? 0) + 1;
  const joinedUs = Math.max(nowUs, (facts.last_us ?? 0) + 1);
  const id = newId('subscriber');
  const statusToken = newStatusToken();
  const [referrer, referrerSeq, referrerCount] =
    settings.referrals && facts.referrer !== null
      ? (JSON.parse(facts.referrer) as [string, number, number])
      : [undefined, 0, 0];
  const { code: referralCode } = await withFreeCode((candidate) =>
    db.run(`INSERT INTO subscribers (${INSERT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?)`, [
      id,
      input.waitlistId,
      seq,
      input.email,
      input.emailNorm,
      searchText(input.email),
      candidate,
      statusToken,
      referrer ?? null,
      seq,
      joinedUs,
    ]),
  );
  if (referrer !== undefined) {
    // The rank key is the domain's to compute; the row only stores it.
    const count = referrerCount + 1;
    await db.run('UPDATE subscribers SET referral_count = ?, rank_key = ? WHERE id = ?', [
      count,
      rankKey(referrerSeq, count, settings.referral_boost),
      referrer,
    ]);
  }
  return {
    outcome: 'created',
    subscriber: { id, referral_code: referralCode, status_token: statusToken },
    credited: referrer,
  };
}

interface ListRow {
  id: string;
  email: string;
  joined_us: number;
  referral_code: string;
  referral_count: number;
  seq: number;
  rank_key: number;
}

const LIST_COLUMNS = 'id, email, joined_us, referral_code, referral_count, seq, rank_key';
const ORDER = 'ORDER BY rank_key, referral_count DESC, seq';

function listed(row: ListRow, position: number, referrals: boolean): ListedSubscriber {
  return {
    id: row.id,
    email: row.email,
    joined_at: isoFromMicros(row.joined_us),
    position,
    referral_code: referrals ? row.referral_code : '',
    referral_count: row.referral_count,
  };
}

type Ranks = Pick<ListRow, 'seq' | 'rank_key' | 'referral_count'>;

const PREFIX_INDEX = { rank_key: 'subscribers_referrers_rank', seq: 'subscribers_referrers_seq' } as const;

/**
 * How many referrers have `column` at most t, for each threshold. The thresholds are sorted and
 * each count covers only the range since the previous one, so the whole call reads each index
 * entry at most once, however many thresholds there are.
 */
async function prefixCounts(
  db: Connection,
  waitlistId: string,
  column: keyof typeof PREFIX_INDEX,
  thresholds: readonly number[],
): Promise<(t: number) => number> {
  const sorted = [...new Set(thresholds)].sort((a, b) => a - b);
  const ranges = sorted.map(
    (_, i) =>
      `(SELECT count(*) FROM subscribers INDEXED BY ${PREFIX_INDEX[column]}
         WHERE waitlist_id = ?1 AND referral_count > 0 AND ${column} > ?${2 * i + 2} AND ${column} <= ?${2 * i + 3}) AS c${i}`,
  );
  const params = sorted.flatMap((t, i) => [i === 0 ? Number.MIN_SAFE_INTEGER : (sorted[i - 1] as number), t]);
  const row =
    (await db.get<Record<string, number>>(`SELECT ${ranges.join(', ')}`, [waitlistId, ...params])) ?? {};
  const totals = new Map<number, number>();
  let running = 0;
  sorted.forEach((t, i) => {
    running += row[`c${i}`] ?? 0;
    totals.set(t, running);
  });
  return (t) => totals.get(t) as number;
}

/** Positions of rows read out of rank order, from counts over referrers only (see domain/positions). */
export async function positionsOf(
  db: Connection,
  waitlistId: string,
  rows: readonly Ranks[],
  boost: number,
): Promise<number[]> {
  if (boost === 0 || rows.length === 0) return rows.map((r) => r.seq);
  // A non-referrer needs both counts at its seq; a referrer at its rank key minus one.
  const thresholds = rows.map((r) => (r.referral_count === 0 ? r.seq : r.rank_key - 1));
  const [rankAtMost, seqAtMost] = await Promise.all([
    prefixCounts(db, waitlistId, 'rank_key', thresholds),
    prefixCounts(db, waitlistId, 'seq', thresholds),
  ]);
  const counts = { rankAtMost, seqAtMost };
  return Promise.all(
    rows.map(async (row) => {
      if (row.referral_count === 0) return nonReferrerPosition(row.seq, counts);
      const ties = await db.get<{ n: number }>(
        `SELECT count(*) AS n FROM subscribers INDEXED BY subscribers_referrers_rank
          WHERE waitlist_id = ?1 AND referral_count > 0 AND rank_key = ?2
            AND (referral_count > ?3 OR (referral_count = ?3 AND seq < ?4))`,
        [waitlistId, row.rank_key, row.referral_count, row.seq],
      );
      return referrerPosition(row.rank_key, counts, ties?.n ?? 0);
    }),
  );
}

/** A page of the waitlist in position order, optionally filtered by a literal substring of the email. */
export async function listSubscribers(
  db: Connection,
  waitlistId: string,
  settings: WaitlistSettings,
  page: { page: number; limit: number; q: string },
): Promise<ListPage> {
  const offset = (page.page - 1) * page.limit;
  const boost = settings.referral_boost;
  if (page.q === '') {
    const total =
      (
        await db.get<{ n: number | null }>('SELECT max(seq) AS n FROM subscribers WHERE waitlist_id = ?', [
          waitlistId,
        ])
      )?.n ?? 0;
    if (offset >= total) return { items: [], total };
    // Without a boost, rank keys are exactly 1..n (the boost and the keys change in one
    // transaction), so a deep page is a seek, not a skip.
    const rows =
      boost === 0
        ? await db.all<ListRow>(
            `SELECT ${LIST_COLUMNS} FROM subscribers WHERE waitlist_id = ? AND rank_key > ? ${ORDER} LIMIT ?`,
            [waitlistId, offset, page.limit],
          )
        : await db.all<ListRow>(
            `SELECT ${LIST_COLUMNS} FROM subscribers WHERE waitlist_id = ? ${ORDER} LIMIT ? OFFSET ?`,
            [waitlistId, page.limit, offset],
          );
    return { items: rows.map((row, i) => listed(row, offset + i + 1, settings.referrals)), total };
  }
  // One pass over the narrow search index finds the matches, their count and the page in rank
  // order; only the page's rows are then read from the table.
  const needle = searchText(page.q);
  const hits = await db.all<Ranks & { row: number; total: number }>(
    `SELECT rowid AS row, seq, rank_key, referral_count, count(*) OVER () AS total
       FROM subscribers INDEXED BY subscribers_search
      WHERE waitlist_id = ? AND instr(email_search, ?) > 0
      ${ORDER} LIMIT ? OFFSET ?`,
    [waitlistId, needle, page.limit, offset],
  );
  if (hits.length === 0) {
    // No row at all on page 1 means no match; past it, the count needs its own pass.
    if (offset === 0) return { items: [], total: 0 };
    const total =
      (
        await db.get<{ n: number }>(
          'SELECT count(*) AS n FROM subscribers INDEXED BY subscribers_search WHERE waitlist_id = ? AND instr(email_search, ?) > 0',
          [waitlistId, needle],
        )
      )?.n ?? 0;
    return { items: [], total };
  }
  const rows = await db.all<ListRow & { row: number }>(
    `SELECT rowid AS row, ${LIST_COLUMNS} FROM subscribers WHERE rowid IN (${hits.map(() => '?').join(', ')})`,
    hits.map((h) => h.row),
  );
  const byRow = new Map(rows.map((r) => [r.row, r]));
  const positions = await positionsOf(db, waitlistId, hits, boost);
  return {
    items: hits.map((hit, i) =>
      listed(byRow.get(hit.row) as ListRow, positions[i] as number, settings.referrals),
    ),
    total: (hits[0] as { total: number }).total,
  };
}

interface StatusRow {
  waitlist_id: string;
  tenant_id: string;
  settings: string;
  archived: number;
  referral_code: string;
  referral_count: number;
  seq: number;
  rank_key: number;
  waitlist_name: string;
}

export async function findByStatusToken(db: Connection, token: string): Promise<StatusView | undefined> {
  const row = await db.get<StatusRow>(
    `SELECT s.waitlist_id, w.tenant_id, w.settings, w.archived, w.name AS waitlist_name,
            s.referral_code, s.referral_count, s.seq, s.rank_key
       FROM subscribers s JOIN waitlists w ON w.id = s.waitlist_id WHERE s.status_token = ?`,
    [token],
  );
  if (!row) return undefined;
  const settings = settingsFromJson(row.settings);
  const total =
    (
      await db.get<{ n: number }>('SELECT max(seq) AS n FROM subscribers WHERE waitlist_id = ?', [
        row.waitlist_id,
      ])
    )?.n ?? 0;
  return {
    waitlistId: row.waitlist_id,
    waitlistName: row.waitlist_name,
    archived: row.archived === 1,
    settings,
    referralCode: row.referral_code,
    referralCount: row.referral_count,
    position: (await positionsOf(db, row.waitlist_id, [row], settings.referral_boost))[0] as number,
    total,
  };
}
