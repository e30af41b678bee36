/**
 * What a group of fresh sign-ups of one waitlist does (signup-group.ts writes it), decided from the
 * waitlist's row as locked and the rows already there for the group's addresses: exactly what the
 * same sign-ups applied one after another would do. Each sign-up is a new row, numbered next (the
 * dense seq, a join time after the last), or the row of its address: one already there, or one an
 * earlier sign-up of the group creates. Pure: ids, tokens and codes are drawn by the caller.
 */
import { mailsAgain } from '../../domain/confirmation.js';

/** The waitlist's row, read under its lock. */
export interface LockedLine {
  archived: boolean;
  version: number;
  lastSeq: number;
  lastJoinedUs: number;
  /** The waitlist compares addresses by provider (docs/subscribers.md#address-variants): variant keys count. */
  byProvider: boolean;
}

/** A row already on the waitlist with one of the group's addresses or variant keys. */
export interface FoundRow {
  email_norm: string;
  variant_key: string | null;
  unconfirmed: boolean;
  confirm_mailed_us: number | null;
}

export interface GroupInput {
  emailNorm: string;
  /** The version the sign-up was decided on; absent: any. */
  waitlistVersion?: number;
  variantKey: string | null;
  confirm: boolean;
}

export type Step =
  | { kind: 'gone' }
  | { kind: 'create'; seq: number; joinedUs: number; variantKey: string | null }
  /** The row `found[row]`; `mailAgain`: its confirmation mail is queued again (mailed now). */
  | { kind: 'found'; row: number; mailAgain: boolean }
  /** The row the group's sign-up `input` creates. */
  | { kind: 'created'; input: number };

export interface GroupPlan {
  steps: Step[];
  /** The waitlist's last seq and join time after the group. */
  lastSeq: number;
  lastJoinedUs: number;
}

type Holder = { found: number } | { created: number };

export function planGroup(
  line: LockedLine | undefined,
  found: readonly FoundRow[],
  inputs: readonly GroupInput[],
  nowUs: number,
): GroupPlan {
  if (!line || line.archived) {
    return { steps: inputs.map(() => ({ kind: 'gone' })), lastSeq: 0, lastJoinedUs: 0 };
  }
  const byNorm = new Map<string, Holder>();
  const byVariant = new Map<string, Holder>();
  for (const [i, row] of found.entries()) {
    byNorm.set(row.email_norm, { found: i });
    if (row.variant_key !== null) byVariant.set(row.variant_key, { found: i });
  }
  const mailedUs = found.map((row) => row.confirm_mailed_us);
  let { lastSeq, lastJoinedUs } = line;
  const steps = inputs.map((input, i): Step => {
    if (input.waitlistVersion !== undefined && input.waitlistVersion !== line.version)
      return { kind: 'gone' };
    const variantKey = line.byProvider ? input.variantKey : null;
    // The row of that exact address first, else the holder of its variant key.
    const holder =
      byNorm.get(input.emailNorm) ?? (variantKey === null ? undefined : byVariant.get(variantKey));
    if (holder && 'created' in holder) return { kind: 'created', input: holder.created };
    if (holder) {
      const row = found[holder.found] as FoundRow;
      const mailAgain = input.confirm && row.unconfirmed && mailsAgain(mailedUs[holder.found] ?? null, nowUs);
      if (mailAgain) mailedUs[holder.found] = nowUs;
      return { kind: 'found', row: holder.found, mailAgain };
    }
    lastSeq += 1;
    lastJoinedUs = Math.max(nowUs, lastJoinedUs + 1);
    byNorm.set(input.emailNorm, { created: i });
    if (variantKey !== null) byVariant.set(variantKey, { created: i });
    return { kind: 'create', seq: lastSeq, joinedUs: lastJoinedUs, variantKey };
  });
  return { steps, lastSeq, lastJoinedUs };
}
