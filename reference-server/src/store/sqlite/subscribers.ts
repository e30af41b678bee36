/**
 * SQLite's sign-up (its `LineEngine.signUp`, ../statements/line.ts, and the grouped fresh
 * sign-ups of `Store.signUpFresh`): the hot path. The committer's single writer applies sign-ups
 * one after another, so the next join number and time are read off the rows in the statement
 * that writes the row. A row's `subscriber.created` event and confirmation mail are written by
 * the schema's triggers (first-migrations.ts, steps 6 and 7), so that a sign-up, and a group of
 * them, stays one statement with no transaction around it: written in TypeScript, they cost a
 * statement and a transaction more on the writer's serial path.
 */
import { generateReferralCode, normalizeReferralCode } from '@waitlistkit/protocol';
import { newCapabilityToken, newId } from '../../domain/ids.js';
import type { SignupInput, SignupResult } from '../../domain/records.js';
import { creditFor } from '../../domain/referrals.js';
import { searchText } from '../../domain/search.js';
import { settingsFromJson, type WaitlistSettings } from '../../domain/settings.js';
import { mailAgainWhenDue } from '../statements/confirmations.js';
import { applyCredit } from '../statements/referrals.js';
import { redeemTokensOfMany } from '../statements/tokens.js';
import type { FreshSignupInput, FreshSignupResult } from '../store.js';
import { type Connection, isConstraint } from './connection.js';
import { sqlite } from './dialect.js';

interface Facts {
  existing: string | null;
  last_seq: number | null;
  last_us: number | null;
  referrer: string | null;
  settings: string | null;
  tenant_id: string | null;
}

/**
 * The last join number given on a waitlist, as SQL over `waitlist` (a parameter or a column): the
 * highest seq of its rows or of its erased rows, so an erased seq is never given again.
 */
export const lastSeq = (waitlist: string) => `max(
  coalesce((SELECT seq FROM subscribers WHERE waitlist_id = ${waitlist} ORDER BY seq DESC LIMIT 1), 0),
  coalesce((SELECT seq FROM erased_seqs WHERE waitlist_id = ${waitlist} ORDER BY seq DESC LIMIT 1), 0))`;

/**
 * The waitlist `waitlist` (an SQL expression) takes sign-ups: it is live, and has the version
 * `version` (an SQL expression; NULL: any), the one the sign-up was decided on.
 */
const takesSignups = (waitlist: string, version: string) =>
  `EXISTS (SELECT 1 FROM waitlists WHERE id = ${waitlist} AND archived = 0
             AND (${version} IS NULL OR version = ${version}))`;

const INSERT_COLUMNS = `id, waitlist_id, seq, email, email_norm, email_search, referral_code,
  status_token, referred_by, referral_count, rank_key, joined_us, confirm_token, confirm_mailed_us,
  fields, source, source_channel, variant_key, lang`;

/**
 * The variant key `key` (an SQL expression) when the waitlist `waitlist` compares addresses by
 * provider (docs/subscribers.md#address-variants), else NULL: decided in the write, on the
 * waitlist as it is then, so a switch of the rule and a sign-up cannot cross.
 */
const variantKeyOn = (waitlist: string, key: string) =>
  // An address of no listed provider (most) has no key: the waitlist's settings are not read.
  `CASE WHEN ${key} IS NULL THEN NULL
        WHEN (SELECT settings ->> '$.dedupe' FROM waitlists WHERE id = ${waitlist}) = 'provider' THEN ${key} END`;

/** The existing row of an address: the one of that exact address first, else the holder of its variant key. */
const EXISTING = `FROM subscribers WHERE waitlist_id = ?1 AND (email_norm = ?2 OR variant_key = ?5)
  ORDER BY email_norm = ?2 DESC LIMIT 1`;

/**
 * A fresh sign-up without a referral code, in one statement: the row takes the next seq and a
 * join time after the last row's, exactly as the facts query below would have computed them,
 * and nothing is written when the waitlist is missing or archived or the email is already on it
 * (then `changes` is 0 and the caller finds out which). One round trip to the driver instead of
 * two on the committer's serial path, which is what bounds sign-up throughput.
 */
const INSERT_FRESH = `INSERT INTO subscribers (${INSERT_COLUMNS})
  SELECT ?1, ?2, last.seq + 1, ?3, ?4, ?5, ?6, ?7, NULL, 0, last.seq + 1, max(?8, last.us + 1),
         ?9, iif(?9 IS NULL, NULL, ?8), ?11, ?12, ?13, ${variantKeyOn('?2', '?14')}, ?15
    FROM (SELECT ${lastSeq('?2')} AS seq,
            coalesce((SELECT joined_us FROM subscribers WHERE waitlist_id = ?2 ORDER BY seq DESC LIMIT 1), 0) AS us
         ) AS last
   WHERE ${takesSignups('?2', '?10')}
  ON CONFLICT DO NOTHING`;

export type FreshSignup = FreshSignupInput;

/**
 * Many fresh sign-ups (no referral code) in one statement: each input whose waitlist is live and
 * whose email is on neither the waitlist nor earlier in the batch becomes a row, the rows of a
 * waitlist taking the next seqs and join times in input order, exactly as one insert after
 * another would. Rows are read from one JSON parameter, so the statement is prepared once.
 */
const INSERT_FRESH_MANY = `WITH
  input AS (
    SELECT key AS k, value ->> 0 AS wl, value ->> 1 AS email, value ->> 2 AS norm, value ->> 3 AS id,
           value ->> 4 AS code, value ->> 5 AS token, value ->> 6 AS search, value ->> 7 AS confirm,
           value ->> 8 AS version, value ->> 9 AS fields, value ->> 10 AS source, value ->> 11 AS channel,
           ${variantKeyOn('value ->> 0', 'value ->> 12')} AS vk, value ->> 13 AS lang
      FROM json_each(?1)),
  firsts AS (
    SELECT *, row_number() OVER (PARTITION BY wl, coalesce(vk, norm) ORDER BY k) AS nth FROM input),
  fresh AS (
    SELECT *, row_number() OVER (PARTITION BY wl ORDER BY k) AS n FROM firsts
     WHERE nth = 1
       AND ${takesSignups('firsts.wl', 'firsts.version')}
       AND NOT EXISTS (SELECT 1 FROM subscribers WHERE waitlist_id = firsts.wl AND email_norm = firsts.norm)
       AND (vk IS NULL OR NOT EXISTS (SELECT 1 FROM subscribers WHERE waitlist_id = firsts.wl AND variant_key = firsts.vk))),
  last AS (
    SELECT wl, ${lastSeq('wl')} AS seq,
           coalesce((SELECT joined_us FROM subscribers WHERE waitlist_id = wl ORDER BY seq DESC LIMIT 1), 0) AS us
      FROM (SELECT DISTINCT wl FROM fresh))
INSERT INTO subscribers (${INSERT_COLUMNS})
  SELECT f.id, f.wl, l.seq + f.n, f.email, f.norm, f.search, f.code, f.token, NULL, 0, l.seq + f.n,
         max(?2 + f.n - 1, l.us + f.n), f.confirm, iif(f.confirm IS NULL, NULL, ?2),
         f.fields, f.source, f.channel, f.vk, f.lang
    FROM fresh AS f JOIN last AS l USING (wl)
   ORDER BY f.k
  RETURNING id`;

/**
 * A fresh sign-up with what its row needs drawn and encoded before it reaches the writer: ids,
 * tokens, code, search text and its row of `INSERT_FRESH_MANY`'s JSON. The writer is one, and
 * serial: whatever its jobs compute on the main thread, it waits for, idle.
 */
export interface DraftedSignup {
  input: FreshSignup;
  id: string;
  referral_code: string;
  status_token: string;
  confirm_token: string | null;
  /** Its row of the group statement's parameter, as JSON; undefined for an email SQLite's JSON reader would misread. */
  row: string | undefined;
}

// SQLite's JSON reader and the driver's binding disagree on unpaired surrogates; such a sign-up
// takes the one-by-one path, which binds each value directly.
const LONE_SURROGATE = /\p{Cs}/u;

export function drafted(input: FreshSignup): DraftedSignup {
  const id = newId('subscriber');
  const referral_code = generateReferralCode();
  const status_token = newCapabilityToken();
  const confirm_token = input.confirm ? newCapabilityToken() : null;
  const row = LONE_SURROGATE.test(input.email)
    ? undefined
    : JSON.stringify([
        input.waitlistId,
        input.email,
        input.emailNorm,
        id,
        referral_code,
        status_token,
        searchText(input.email),
        confirm_token,
        input.waitlistVersion ?? null,
        ...extrasOf(input),
      ]);
  return { input, id, referral_code, status_token, confirm_token, row };
}

/**
 * Creates what `INSERT_FRESH_MANY` can in one statement and answers the rest (an email already
 * on the waitlist or twice in the batch, a waitlist gone, the rare drawn code already taken) one
 * by one, as `insertOrMatchSubscriber` would. Runs inside one committer job; sign-ups not drafted
 * yet are drafted here.
 */
export async function insertOrMatchMany(
  db: Connection,
  signups: readonly (FreshSignup | DraftedSignup)[],
  nowUs: number,
): Promise<FreshSignupResult[]> {
  const drafts = signups.map((s) => ('row' in s ? s : drafted(s)));
  // Gate tokens first, in the same transaction: a sign-up whose token was taken writes nothing.
  const taken = await redeemTokensOfMany(
    db,
    sqlite,
    drafts.map((d) => d.input.tokens ?? []),
  );
  const answers = await insertOrMatchAll(
    db,
    drafts.filter((_, i) => taken[i]?.length === 0),
    nowUs,
  );
  return taken.map((lost) =>
    lost.length > 0 ? { outcome: 'tokens_taken', taken: lost } : (answers.shift() as SignupResult),
  );
}

async function insertOrMatchAll(
  db: Connection,
  drafts: readonly DraftedSignup[],
  nowUs: number,
): Promise<SignupResult[]> {
  let created = new Set<string>();
  if (drafts.length > 1 && drafts.every((d) => d.row !== undefined)) {
    const rows = `[${drafts.map((d) => d.row).join(',')}]`;
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
      const { id, referral_code, status_token } = draft;
      results.push({
        outcome: 'created',
        subscriber: { id, referral_code, status_token },
        credited: undefined,
      });
    } else {
      const { tokens: _, ...input } = draft.input;
      results.push(await insertOrMatchSubscriber(db, { ...input, referralCode: undefined }, nowUs));
    }
  }
  return results;
}

/** The extras' columns in INSERT_COLUMNS' order: fields, source, source channel, variant key, language. */
const extrasOf = (input: Pick<SignupInput, 'extras'>) => {
  const e = input.extras;
  return [
    e?.fields ?? null,
    e?.source ?? null,
    e?.sourceChannel ?? null,
    e?.variantKey ?? null,
    e?.lang ?? null,
  ] as const;
};

/**
 * Runs `insert` with a referral code, drawing another when the code is taken (n in 2^30 on a
 * waitlist of n: one in 10,000 sign-ups at 100,000).
 */
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
 * it creates the row; otherwise everything it needs to read comes in one round trip. On a
 * waitlist that confirms emails the referral is only noted (`referred_by`) and credited on
 * confirmation, and a re-sign-up of an unconfirmed address may queue the mail again.
 */
export async function insertOrMatchSubscriber(
  db: Connection,
  input: SignupInput,
  nowUs: number,
): Promise<SignupResult> {
  const code = normalizeReferralCode(input.referralCode) ?? null;
  const confirmToken = input.confirm ? newCapabilityToken() : null;
  if (code === null) {
    const id = newId('subscriber');
    const statusToken = newCapabilityToken();
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
        confirmToken,
        input.waitlistVersion ?? null,
        ...extrasOf(input),
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
  const [fields, source, sourceChannel, variantKey, lang] = extrasOf(input);
  const facts = (await db.get<Facts>(
    `SELECT
       (SELECT json_array(id, referral_code, status_token, confirm_token IS NOT NULL AND confirmed_us IS NULL,
                          confirm_mailed_us)
          ${EXISTING}) AS existing,
       ${lastSeq('?1')} AS last_seq,
       (SELECT joined_us FROM subscribers WHERE waitlist_id = ?1 ORDER BY seq DESC LIMIT 1) AS last_us,
       (SELECT json_array(id, seq, referral_count) FROM subscribers
         WHERE waitlist_id = ?1 AND referral_code = ?3) AS referrer,
       (SELECT settings FROM waitlists WHERE id = ?1 AND ${takesSignups('?1', '?4')}) AS settings,
       (SELECT tenant_id FROM waitlists WHERE id = ?1) AS tenant_id`,
    [input.waitlistId, input.emailNorm, code, input.waitlistVersion ?? null, variantKey],
  )) as Facts;
  if (facts.settings === null) return { outcome: 'waitlist_gone' };
  if (facts.existing !== null) {
    const [id, referral_code, status_token, unconfirmed, mailedUs] = JSON.parse(facts.existing) as [
      string,
      string,
      string,
      0 | 1,
      number | null,
    ];
    if (input.confirm) await mailAgainWhenDue(db, { id, unconfirmed: unconfirmed === 1, mailedUs }, nowUs);
    return { outcome: 'matched', subscriber: { id, referral_code, status_token }, credited: undefined };
  }
  const settings: WaitlistSettings = settingsFromJson(facts.settings);
  const seq = (facts.last_seq ?? 0) + 1;
  const joinedUs = Math.max(nowUs, (facts.last_us ?? 0) + 1);
  const id = newId('subscriber');
  const statusToken = newCapabilityToken();
  const found =
    facts.referrer === null ? undefined : (JSON.parse(facts.referrer) as [string, number, number]);
  const credit = creditFor(
    settings,
    true,
    found && { id: found[0], seq: found[1], referral_count: found[2] },
  );
  const { code: referralCode } = await withFreeCode((candidate) =>
    db.run(
      `INSERT INTO subscribers (${INSERT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        id,
        input.waitlistId,
        seq,
        input.email,
        input.emailNorm,
        searchText(input.email),
        candidate,
        statusToken,
        credit?.referrerId ?? null,
        seq,
        joinedUs,
        confirmToken,
        confirmToken === null ? null : joinedUs,
        fields,
        source,
        sourceChannel,
        settings.dedupe === 'provider' ? variantKey : null,
        lang,
      ],
    ),
  );
  const creditNow = credit && confirmToken === null ? credit : undefined;
  if (creditNow) {
    await applyCredit(db, creditNow, {
      tenantId: facts.tenant_id as string,
      waitlistId: input.waitlistId,
      subscriberId: id,
      atMs: Math.floor(joinedUs / 1000),
    });
  }
  return {
    outcome: 'created',
    subscriber: { id, referral_code: referralCode, status_token: statusToken },
    credited: creditNow?.referrerId,
  };
}
