/**
 * A group of fresh public sign-ups of one waitlist in one transaction (`Store.signUpFresh`,
 * groups.ts): their gate tokens redeemed, the waitlist's row locked once, the rows of their
 * addresses read once, every new row written by one statement, one COMMIT and one WAL flush for
 * all. What each sign-up does is group-plan.ts's decision, the same as one after another under
 * the lock (subscribers.ts), so groups of two processes take turns on the row as single sign-ups do
 * (docs/self-hosting.md#sign-ups-in-groups).
 */
import { generateReferralCode } from '@waitlistkit/protocol';
import { newCapabilityToken, newId } from '../../domain/ids.js';
import type { SignupResult, SignupRow } from '../../domain/records.js';
import { searchText } from '../../domain/search.js';
import { settingsFromJson } from '../../domain/settings.js';
import { redeemTokensOfMany } from '../statements/tokens.js';
import type { FreshSignupInput, FreshSignupResult } from '../store.js';
import { type Statement, sqlState } from './connection.js';
import type { Database } from './database.js';
import { postgres } from './dialect.js';
import { type FoundRow, type GroupInput, planGroup, type Step } from './group-plan.js';
import { LOCK_WAITLIST, type LockedWaitlist } from './subscribers.js';

interface Found extends FoundRow {
  id: string;
  referral_code: string;
  status_token: string;
}

/**
 * The rows already on the waitlist of the group's addresses, and of their variant keys when the
 * waitlist compares by provider and the group has any (most addresses have none): each half
 * through its own unique index. As one condition with OR, PostgreSQL read every row of the
 * waitlist through its waitlist_id index instead and filtered them.
 */
const FOUND_COLUMNS = `id, referral_code, status_token, email_norm, variant_key, confirm_mailed_us,
  confirm_token IS NOT NULL AND confirmed_us IS NULL AS unconfirmed`;
const FOUND = `SELECT ${FOUND_COLUMNS} FROM subscribers WHERE waitlist_id = $1 AND email_norm = ANY($2::text[])`;
const FOUND_WITH_VARIANTS = `${FOUND}
  UNION
  SELECT ${FOUND_COLUMNS} FROM subscribers
   WHERE waitlist_id = $1 AND variant_key IS NOT NULL AND variant_key = ANY($3::text[])`;

/**
 * The new rows, sent with the group's COMMIT. The addresses are checked absent under the lock, so
 * the statement can only fail on a drawn referral code already taken: the group's transaction is
 * then undone and written again with codes drawn anew (`signUpGroup`).
 */
const INSERT = `INSERT INTO subscribers (id, waitlist_id, seq, email, email_norm, email_search, referral_code,
    status_token, referred_by, referral_count, rank_key, joined_us, confirm_token, confirm_mailed_us,
    fields, source, source_channel, variant_key, lang)
  SELECT r.id, $1, r.seq, r.email, r.norm, r.search, r.code, r.token, NULL, 0, r.seq, r.joined, r.confirm,
         CASE WHEN r.confirm IS NULL THEN NULL ELSE r.joined END, r.fields, r.source, r.channel, r.vk, r.lang
    FROM unnest($2::text[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
                $9::bigint[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[])
         AS r (id, seq, email, norm, search, code, token, joined, confirm, fields, source, channel, vk, lang)
   ORDER BY r.seq`;

const ADVANCE = 'UPDATE waitlists SET last_seq = $2, last_joined_us = $3 WHERE id = $1';

/** The re-sign-ups whose confirmation mail is queued again (a trigger queues it). */
const MAIL_AGAIN = 'UPDATE subscribers SET confirm_mailed_us = $2 WHERE id = ANY($1::text[])';

interface Draft {
  id: string;
  seq: number;
  joinedUs: number;
  input: FreshSignupInput;
  variantKey: string | null;
  code: string;
  statusToken: string;
  confirmToken: string | null;
}

function insertOf(waitlistId: string, drafts: readonly Draft[]): Statement {
  const column = <T>(of: (d: Draft) => T) => drafts.map(of);
  return [
    INSERT,
    [
      waitlistId,
      column((d) => d.id),
      column((d) => d.seq),
      column((d) => d.input.email),
      column((d) => d.input.emailNorm),
      column((d) => searchText(d.input.email)),
      column((d) => d.code),
      column((d) => d.statusToken),
      column((d) => d.joinedUs),
      column((d) => d.confirmToken),
      column((d) => d.input.extras?.fields ?? null),
      column((d) => d.input.extras?.source ?? null),
      column((d) => d.input.extras?.sourceChannel ?? null),
      column((d) => d.variantKey),
      column((d) => d.input.extras?.lang ?? null),
    ],
  ];
}

/** Draws of referral codes a group makes before it gives up: each after all its codes were drawn anew. */
const CODE_DRAWS = 6;

/** The unique index of codes: the one a group's INSERT can break (see INSERT). */
const CODE_INDEX = 'subscribers_waitlist_id_referral_code_key';

/**
 * Signs up the group in one transaction of two round trips when no gate token is involved: the
 * waitlist's lock and the rows of the group's addresses with its BEGIN, the new rows with its
 * COMMIT. One answer per input, in order. A sign-up whose gate token was redeemed first (by
 * anyone, or earlier in the group) writes nothing and answers `tokens_taken`; the others go on.
 *
 * A code is 30 random bits, so a new one is already taken with a chance of n in 2^30 on a
 * waitlist of n (one in 10,000 sign-ups at 100,000): rare per sign-up, but routine for a busy
 * list, never a fault of the sign-up. The group is then written again whole, its codes drawn anew
 * (`draw`, replaced by tests to force the collision).
 */
export async function signUpGroup(
  db: Database,
  waitlistId: string,
  inputs: readonly FreshSignupInput[],
  nowMicros: () => number,
  draw: () => string = generateReferralCode,
): Promise<FreshSignupResult[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await signUpGroupOnce(db, waitlistId, inputs, nowMicros, draw);
    } catch (error) {
      const codeTaken =
        sqlState(error) === '23505' && (error as { constraint?: unknown }).constraint === CODE_INDEX;
      if (!codeTaken || attempt >= CODE_DRAWS) throw error;
    }
  }
}

function signUpGroupOnce(
  db: Database,
  waitlistId: string,
  inputs: readonly FreshSignupInput[],
  nowMicros: () => number,
  draw: () => string,
): Promise<FreshSignupResult[]> {
  const norms = inputs.map((i) => i.emailNorm);
  // Variant keys count only where the waitlist compares by provider, known once it is locked:
  // any the group has are looked up, and the plan ignores them on a waitlist that does not.
  const variantKeys = inputs.flatMap((i) => (i.extras?.variantKey ? [i.extras.variantKey] : []));
  const found: Statement =
    variantKeys.length === 0
      ? [FOUND, [waitlistId, norms]]
      : [FOUND_WITH_VARIANTS, [waitlistId, norms, variantKeys]];
  return db.writeFramed([[LOCK_WAITLIST, [waitlistId]], found], async (tx, [locked = [], rows = []]) => {
    const taken = await redeemTokensOfMany(
      tx,
      postgres,
      inputs.map((i) => i.tokens ?? []),
    );
    const live = inputs.filter((_, i) => taken[i]?.length === 0);
    const { answers, closing } = signUpLive(
      waitlistId,
      locked[0] as LockedWaitlist | undefined,
      rows as Found[],
      live,
      nowMicros(),
      draw,
    );
    const value = taken.map(
      (lost): FreshSignupResult =>
        lost.length > 0 ? { outcome: 'tokens_taken', taken: lost } : (answers.shift() as SignupResult),
    );
    return { value, closing };
  });
}

/** The answers of the group's sign-ups whose tokens were free, and the statements that write them. */
function signUpLive(
  waitlistId: string,
  waitlist: LockedWaitlist | undefined,
  found: readonly Found[],
  inputs: readonly FreshSignupInput[],
  nowUs: number,
  draw: () => string,
): { answers: SignupResult[]; closing: Statement[] } {
  if (!waitlist || waitlist.archived) {
    return { answers: inputs.map(() => ({ outcome: 'waitlist_gone' })), closing: [] };
  }
  const byProvider = settingsFromJson(waitlist.settings).dedupe === 'provider';
  const planned: GroupInput[] = inputs.map((input) => ({
    emailNorm: input.emailNorm,
    waitlistVersion: input.waitlistVersion,
    variantKey: input.extras?.variantKey ?? null,
    confirm: input.confirm,
  }));
  const plan = planGroup(
    {
      archived: waitlist.archived,
      version: waitlist.version,
      lastSeq: waitlist.last_seq,
      lastJoinedUs: waitlist.last_joined_us,
      byProvider,
    },
    found,
    planned,
    nowUs,
  );
  const drafts = new Map<number, Draft>();
  for (const [i, step] of plan.steps.entries()) {
    if (step.kind !== 'create') continue;
    const input = inputs[i] as FreshSignupInput;
    drafts.set(i, {
      id: newId('subscriber'),
      seq: step.seq,
      joinedUs: step.joinedUs,
      input,
      variantKey: step.variantKey,
      code: draw(),
      statusToken: newCapabilityToken(),
      confirmToken: input.confirm ? newCapabilityToken() : null,
    });
  }
  const closing: Statement[] = [];
  if (drafts.size > 0) {
    closing.push(insertOf(waitlistId, [...drafts.values()]));
    closing.push([ADVANCE, [waitlistId, plan.lastSeq, plan.lastJoinedUs]]);
  }
  const mailAgain = plan.steps.flatMap((s) => (s.kind === 'found' && s.mailAgain ? [found[s.row]?.id] : []));
  if (mailAgain.length > 0) closing.push([MAIL_AGAIN, [mailAgain, nowUs]]);
  const rowOf = (step: Step, i: number): SignupRow | undefined => {
    if (step.kind === 'gone') return undefined;
    if (step.kind === 'found') return found[step.row];
    const draft = drafts.get(step.kind === 'create' ? i : step.input);
    return draft && { id: draft.id, referral_code: draft.code, status_token: draft.statusToken };
  };
  const answers = plan.steps.map((step, i): SignupResult => {
    if (step.kind === 'gone') return { outcome: 'waitlist_gone' };
    const row = rowOf(step, i);
    if (!row) throw new Error('a planned sign-up has no row');
    const { id, referral_code, status_token } = row;
    const outcome = step.kind === 'create' ? 'created' : 'matched';
    return { outcome, subscriber: { id, referral_code, status_token }, credited: undefined };
  });
  return { answers, closing };
}
